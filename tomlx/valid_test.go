package tomlx

import (
	"strings"
	"testing"
)

// Valid documents written from the TOML 1.0 specification, each with the
// tree it must give (see dump for the notation).
var validCases = []struct {
	name string
	doc  string
	want string
}{
	// The document and comments.
	{"empty", "", "{}"},
	{"only blank lines", "\n\n  \t\n", "{}"},
	{"only a comment", "# nothing here", "{}"},
	{"comment after a value", "a = 1 # one\n#b = 2\n", "{a=i1}"},
	{"comment right after a value", "a = 1#one", "{a=i1}"},
	{"comment with quotes and unicode", "# \"x\" 'y' é ✓ \t\na = true", "{a=btrue}"},
	{"indented keys and headers", "  a = 1\n\t[t]\n\t  b = 2", "{a=i1,t={b=i2}}"},
	{"no spaces around equals", "a=1", "{a=i1}"},
	{"CRLF line ends", "a = 1\r\n[t]\r\nb = \"x\" # c\r\n", "{a=i1,t={b=s\"x\"}}"},
	{"byte order mark", "\uFEFFa = 1", "{a=i1}"},
	{"byte order mark alone", "\uFEFF", "{}"},
	{"no final newline", "a = 'x'", "{a=s\"x\"}"},

	// Keys.
	{"bare keys", "key = 1\nbare_key = 2\nbare-key = 3\n1234 = 4\nKEY = 5", "{key=i1,bare_key=i2,bare-key=i3,1234=i4,KEY=i5}"},
	{"quoted keys", "\"127.0.0.1\" = 1\n\"character encoding\" = 2\n\"ʎǝʞ\" = 3\n'key2' = 4\n'quoted \"value\"' = 5",
		"{\"127.0.0.1\"=i1,\"character encoding\"=i2,\"ʎǝʞ\"=i3,key2=i4,\"quoted \\\"value\\\"\"=i5}"},
	{"empty quoted keys", "\"\" = 1\n[t]\n'' = 2", "{\"\"=i1,t={\"\"=i2}}"},
	{"escapes in a quoted key", "\"a\\tb\" = 1\n\"\\u00e9\" = 2", "{\"a\\u0009b\"=i1,\"é\"=i2}"},
	{"quoted and bare are the same key space", "\"a\" = 1\nb = 2", "{a=i1,b=i2}"},
	{"dotted keys", "name = 'Orange'\nphysical.color = 'orange'\nphysical.shape = 'round'\nsite.\"google.com\" = true",
		"{name=s\"Orange\",physical={color=s\"orange\",shape=s\"round\"},site={\"google.com\"=btrue}}"},
	{"whitespace around dots", "fruit . color = 1\nfruit\t.\tshape = 2", "{fruit={color=i1,shape=i2}}"},
	{"keys that look like numbers", "3.14159 = 'pi'", "{3={14159=s\"pi\"}}"},
	{"keys that look like booleans and dates", "true = 1\nfalse = 2\n1979-05-27 = 3\ninf = 4\nnan = 5",
		"{true=i1,false=i2,1979-05-27=i3,inf=i4,nan=i5}"},
	{"dotted keys out of order", "apple.type = 'fruit'\norange.type = 'fruit'\napple.skin = 'thin'",
		"{apple={type=s\"fruit\",skin=s\"thin\"},orange={type=s\"fruit\"}}"},
	{"deep dotted keys", "a.b.c.d = 1\na.b.e = 2", "{a={b={c={d=i1},e=i2}}}"},

	// Basic strings and every escape.
	{"basic string", `a = "I'm a string."`, `{a=s"I'm a string."}`},
	{"every escape", `a = "\b\t\n\f\r\"\\"`, `{a=s"\b\t\n\f\r\"\\"}`},
	{"unicode escapes", `a = "\u00E9\u00e9 \U0001F600 \u0000\U0010FFFF\uD7FF\uE000"`, `{a=s"éé 😀 \x00\U0010ffff\ud7ff\ue000"}`},
	{"escaped escape", `a = "\\u0041"`, `{a=s"\\u0041"}`},
	{"tab and unicode inside", "a = \"x\ty é 😀\"", `{a=s"x\ty é 😀"}`},
	{"empty basic string", `a = ""`, `{a=s""}`},
	{"hash inside a string", `a = "# not a comment" # a comment`, `{a=s"# not a comment"}`},
	{"C1 control characters are allowed", "a = \"\u0085\u009f\"", `{a=s"\u0085\u009f"}`},

	// Multi-line basic strings.
	{"multi-line basic", "a = \"\"\"\nRoses are red\nViolets are blue\"\"\"", `{a=s"Roses are red\nViolets are blue"}`},
	{"first newline trimmed only once", "a = \"\"\"\n\nx\"\"\"", `{a=s"\nx"}`},
	{"first CRLF trimmed", "a = \"\"\"\r\nx\r\ny\"\"\"", `{a=s"x\ny"}`},
	{"multi-line on one line", `a = """x"""`, `{a=s"x"}`},
	{"empty multi-line", `a = """"""`, `{a=s""}`},
	{"line-ending backslash", "a = \"\"\"\nThe quick \\\n\n   brown \\\n   fox.\\\n   \"\"\"", `{a=s"The quick brown fox."}`},
	{"line-ending backslash with trailing whitespace", "a = \"\"\"x \\  \t\r\n  y\"\"\"", `{a=s"x y"}`},
	{"escaped backslash at line end is not a line-ending backslash", "a = \"\"\"x\\\\\ny\"\"\"", `{a=s"x\\\ny"}`},
	{"one quote before the closing delimiter", `a = """x""""`, `{a=s"x\""}`},
	{"two quotes before the closing delimiter", `a = """x"""""`, `{a=s"x\"\""}`},
	{"quotes inside", `a = """Here are two quotation marks: "". Simple enough."""`, `{a=s"Here are two quotation marks: \"\". Simple enough."}`},
	{"escaped triple quote", `a = """Here are three quotation marks: ""\"."""`, `{a=s"Here are three quotation marks: \"\"\"."}`},
	{"a quote as the whole body", `a = """"""" `, `{a=s"\""}`},
	{"escapes in multi-line", "a = \"\"\"\\t\\u00e9\\\"\"\"\"", `{a=s"\té\""}`},
	{"tab in multi-line", "a = \"\"\"\tx\"\"\"", `{a=s"\tx"}`},

	// Literal strings.
	{"literal", `a = 'C:\Users\nodejs\templates'`, `{a=s"C:\\Users\\nodejs\\templates"}`},
	{"literal with quotes", `a = 'Tom "Dubs" Preston-Werner'`, `{a=s"Tom \"Dubs\" Preston-Werner"}`},
	{"empty literal", `a = ''`, `{a=s""}`},
	{"multi-line literal", "a = '''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n'''",
		`{a=s"The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n"}`},
	{"multi-line literal keeps backslashes", "a = '''I [dw]on't need \\d{2} apples'''", `{a=s"I [dw]on't need \\d{2} apples"}`},
	{"quotes before the closing literal delimiter", `a = '''Here are fifteen quotation marks: """""""""""""""'''`, `{a=s"Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\""}`},
	{"apostrophes before the closing literal delimiter", `a = ''''That,' she said, 'is still pointless.''''`, `{a=s"'That,' she said, 'is still pointless.'"}`},
	{"CRLF in multi-line literal", "a = '''\r\nx\r\ny'''", `{a=s"x\ny"}`},

	// Integers.
	{"decimal integers", "a = +99\nb = 42\nc = 0\nd = -17\ne = +0\nf = -0", "{a=i99,b=i42,c=i0,d=i-17,e=i0,f=i0}"},
	{"underscores", "a = 1_000\nb = 5_349_221\nc = 53_49_221\nd = 1_2_3_4_5\ne = -1_0", "{a=i1000,b=i5349221,c=i5349221,d=i12345,e=i-10}"},
	{"integer bounds", "a = 9223372036854775807\nb = -9223372036854775808\nc = 9_223_372_036_854_775_807", "{a=i9223372036854775807,b=i-9223372036854775808,c=i9223372036854775807}"},
	{"hexadecimal", "a = 0xDEADBEEF\nb = 0xdeadbeef\nc = 0xdead_beef\nd = 0x00\ne = 0x7FFFFFFFFFFFFFFF", "{a=i3735928559,b=i3735928559,c=i3735928559,d=i0,e=i9223372036854775807}"},
	{"octal", "a = 0o01234567\nb = 0o755\nc = 0o7_7\nd = 0o777777777777777777777", "{a=i342391,b=i493,c=i63,d=i9223372036854775807}"},
	{"binary", "a = 0b11010110\nb = 0b1_0\nc = 0b0", "{a=i214,b=i2,c=i0}"},

	// Booleans.
	{"booleans", "a = true\nb = false", "{a=btrue,b=bfalse}"},

	// Floats: recognised, no value.
	{"floats", "a = +1.0\nb = 3.1415\nc = -0.01\nd = 5e+22\ne = 1e06\nf = -2E-2\ng = 6.626e-34\nh = 224_617.445_991_228\ni = 0.0\nj = -0.0\nk = 0e0\nl = 1e1_0\nm = 9_9.9_9E9_9",
		"{a=f,b=f,c=f,d=f,e=f,f=f,g=f,h=f,i=f,j=f,k=f,l=f,m=f}"},
	{"special floats", "a = inf\nb = +inf\nc = -inf\nd = nan\ne = +nan\nf = -nan", "{a=f,b=f,c=f,d=f,e=f,f=f}"},
	{"a float far out of range is still a float", "a = 1e400", "{a=f}"},

	// Dates and times: recognised, no value.
	{"offset date-times", "a = 1979-05-27T07:32:00Z\nb = 1979-05-27T00:32:00-07:00\nc = 1979-05-27T00:32:00.999999-07:00\nd = 1979-05-27 07:32:00Z\ne = 1987-07-05t17:45:00z\nf = 1979-05-27T07:32:00+23:59",
		"{a=d,b=d,c=d,d=d,e=d,f=d}"},
	{"local date-times", "a = 1979-05-27T07:32:00\nb = 1979-05-27T00:32:00.999999\nc = 1979-05-27 07:32:00", "{a=d,b=d,c=d}"},
	{"local dates", "a = 1979-05-27\nb = 2000-02-29\nc = 0000-01-01\nd = 9999-12-31", "{a=d,b=d,c=d,d=d}"},
	{"local times", "a = 07:32:00\nb = 00:32:00.999999\nc = 23:59:60", "{a=d,b=d,c=d}"},
	{"date followed by a comment", "a = 1979-05-27 # a comment", "{a=d}"},
	{"dates in an array", "a = [1979-05-27, 1979-05-27 07:32:00, 07:32:00 ]", "{a=[d,d,d]}"},

	// Arrays.
	{"arrays", "a = [ 1, 2, 3 ]\nb = [ \"red\", 'yellow', \"\"\"green\"\"\" ]\nc = [ [ 1, 2 ], [3, 4, 5] ]\nd = []",
		`{a=[i1,i2,i3],b=[s"red",s"yellow",s"green"],c=[[i1,i2],[i3,i4,i5]],d=[]}`},
	{"nested arrays of different element types", "a = [ [ 1, 2 ], [\"a\", \"b\"] ]", `{a=[[i1,i2],[s"a",s"b"]]}`},
	{"multi-line array with comments and trailing comma", "a = [ # start\n  1, # one\n\n  2 # two\n  , # comma\n  # alone\n]", "{a=[i1,i2]}"},
	{"trailing comma", "a = [1,2,]", "{a=[i1,i2]}"},
	{"array of inline tables", "points = [ { x = 1, y = 2, z = 3 },\n           { x = 7, y = 8, z = 9 } ]",
		"{points=[{x=i1,y=i2,z=i3},{x=i7,y=i8,z=i9}]}"},
	{"empty arrays nest", "a = [[], [[]]]", "{a=[[],[[]]]}"},
	{"CRLF inside an array", "a = [\r\n1,\r\n2\r\n]", "{a=[i1,i2]}"},

	// Arrays of mixed kinds (TOML 1.0 allows them): every element keeps
	// its own kind.
	{"integers and floats", "a = [1, 2.0]", "{a=[i1,f]}"},
	{"integers and strings", "a = [1, \"2\"]", `{a=[i1,s"2"]}`},
	{"strings and arrays", "a = [\"a\", [\"b\"]]", `{a=[s"a",[s"b"]]}`},
	{"strings and inline tables", "a = [\"a\", {b = 1}]", `{a=[s"a",{b=i1}]}`},
	{"an inline table first", "a = [{k = 'a'}, 'b', 1]", `{a=[{k=s"a"},s"b",i1]}`},
	{"dates and strings", "a = [1979-05-27, \"x\"]", `{a=[d,s"x"]}`},
	{"booleans among others", "a = [true, 1, 'x', false]", `{a=[btrue,i1,s"x",bfalse]}`},
	{"mixed kinds further down", "a = [[1], [1, true]]", "{a=[[i1],[i1,btrue]]}"},
	{"mixed kinds on later lines", "a = [\n  1,\n  'x',\n]", `{a=[i1,s"x"]}`},
	{"every kind in one array", "a = [1, 'x', 1.5, true, 1979-05-27, [2], {b = 3}]", `{a=[i1,s"x",f,btrue,d,[i2],{b=i3}]}`},
	{"dotted keys in inline tables among strings", "a = [\"s\", {b.c = 1}, {b.c = 2}]", `{a=[s"s",{b={c=i1}},{b={c=i2}}]}`},

	// Tables.
	{"tables", "[table-1]\nkey1 = \"some string\"\nkey2 = 123\n\n[table-2]\nkey1 = \"another string\"\nkey2 = 456",
		`{table-1={key1=s"some string",key2=i123},table-2={key1=s"another string",key2=i456}}`},
	{"dotted header", "[dog.\"tater.man\"]\ntype.name = \"pug\"", `{dog={"tater.man"={type={name=s"pug"}}}}`},
	{"whitespace in headers", "[ a . b ]\n[ j . \"ʞ\" . 'l' ]", "{a={b={}},j={\"ʞ\"={l={}}}}"},
	{"super tables need not be written", "[x.y.z.w]\n\n[x]", "{x={y={z={w={}}}}}"},
	{"super table defined after its sub-table", "[fruit.apple]\nc = 1\n[fruit]\nd = 2", "{fruit={apple={c=i1},d=i2}}"},
	{"empty table", "[t]\n", "{t={}}"},
	{"root keys before tables", "a = 1\n[t]\nb = 2", "{a=i1,t={b=i2}}"},
	{"dotted keys in a table", "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n\n[fruit.apple.texture]\nsmooth = true",
		`{fruit={apple={color=s"red",taste={sweet=btrue},texture={smooth=btrue}}}}`},
	{"dotted keys under root, sub-table by header", "a.b = 1\n[a.c]\nd = 2", "{a={b=i1,c={d=i2}}}"},
	{"dotted keys into an implicit super table", "[a.b.c]\nz = 9\n[a]\nb.d = 1", "{a={b={c={z=i9},d=i1}}}"},
	{"sub-table of a table in an array of tables", "[[a]]\n[a.b]\nc = 1\n[[a]]\n[a.b]\nc = 2", "{a=[{b={c=i1}},{b={c=i2}}]}"},

	// Inline tables.
	{"inline tables", "name = { first = \"Tom\", last = \"Preston-Werner\" }\npoint = { x = 1, y = 2 }\nanimal = { type.name = \"pug\" }",
		`{name={first=s"Tom",last=s"Preston-Werner"},point={x=i1,y=i2},animal={type={name=s"pug"}}}`},
	{"empty inline table", "a = {}\nb = { }", "{a={},b={}}"},
	{"nested inline tables", "a = { b = { c = { d = 1 } }, e = [ { f = 2 } ] }", "{a={b={c={d=i1}},e=[{f=i2}]}}"},
	{"dotted keys inside an inline table", "a = { b.c = 1, b.d = 2, e.f.g = 3 }", "{a={b={c=i1,d=i2},e={f={g=i3}}}}"},
	{"multi-line values inside an inline table", "a = { b = [\n1,\n2], c = \"\"\"x\ny\"\"\" }", `{a={b=[i1,i2],c=s"x\ny"}}`},
	{"inline table in a table", "[t]\na = { b = 1 }\n[t.c]", "{t={a={b=i1},c={}}}"},

	// Arrays of tables.
	{"array of tables", "[[products]]\nname = \"Hammer\"\nsku = 738594937\n\n[[products]]  # empty table\n\n[[products]]\nname = \"Nail\"\nsku = 284758393\n\ncolor = \"gray\"",
		`{products=[{name=s"Hammer",sku=i738594937},{},{name=s"Nail",sku=i284758393,color=s"gray"}]}`},
	{"nested arrays of tables", "[[fruits]]\nname = \"apple\"\n\n[fruits.physical]\ncolor = \"red\"\n\n[[fruits.varieties]]\nname = \"red delicious\"\n\n[[fruits.varieties]]\nname = \"granny smith\"\n\n[[fruits]]\nname = \"banana\"\n\n[[fruits.varieties]]\nname = \"plantain\"",
		`{fruits=[{name=s"apple",physical={color=s"red"},varieties=[{name=s"red delicious"},{name=s"granny smith"}]},{name=s"banana",varieties=[{name=s"plantain"}]}]}`},
	{"whitespace in an array-of-tables header", "[[ a . b ]]\nc = 1", "{a={b=[{c=i1}]}}"},
	{"array of tables under a dotted table", "[fruit]\napple.color = \"red\"\n\n[[fruit.apple.seeds]]\nsize = 2", `{fruit={apple={color=s"red",seeds=[{size=i2}]}}}`},
	{"super table of an array of tables defined later", "[[a.b]]\nx = 1\n[a]\ny = 2", "{a={b=[{x=i1}],y=i2}}"},
	{"dotted keys in array-of-tables elements", "[[arr]]\na.b.c = 1\na.b.d = 2\n[[arr]]\na.b.c = 3", "{arr=[{a={b={c=i1,d=i2}}},{a={b={c=i3}}}]}"},

	// The rypsok configuration shape.
	{"rypsok configuration", `config_version = 1
[service]
structured_content = true
[service.http]
bind = "127.0.0.1:8737"
[[service.http.auth.callers]]
id = "mimlys"
token_env = "RYPSOK_TOKEN_MIMLYS"
[search]
languages = ["en", "ja"]
max_results = 5
[fetch]
ports = [80, 443]
[engines.wikipedia]
type = "wikipedia"
categories = ["general", "science"]
`, `{config_version=i1,service={structured_content=btrue,http={bind=s"127.0.0.1:8737",auth={callers=[{id=s"mimlys",token_env=s"RYPSOK_TOKEN_MIMLYS"}]}}},search={languages=[s"en",s"ja"],max_results=i5},fetch={ports=[i80,i443]},engines={wikipedia={type=s"wikipedia",categories=[s"general",s"science"]}}}`},
}

func TestParseValidDocuments(t *testing.T) {
	for _, tc := range validCases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.doc))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := dump(doc); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if d := checkTree(doc); d != "" {
				t.Errorf("tree: %s", d)
			}
		})
	}
}

// Floats and dates must be recognised as such, never read as integers or
// strings, whatever the form.
func TestFloatsAndDatesAreNeverIntegers(t *testing.T) {
	cases := []struct {
		lexeme string
		want   Kind
	}{
		{"1.0", KindFloat}, {"1e5", KindFloat}, {"1E5", KindFloat}, {"-1e-5", KindFloat}, {"0.5", KindFloat},
		{"inf", KindFloat}, {"-nan", KindFloat}, {"1_0.0_1", KindFloat}, {"0e0", KindFloat},
		{"1979-05-27", KindDatetime}, {"07:32:00", KindDatetime}, {"1979-05-27T07:32:00", KindDatetime},
		{"1979-05-27T07:32:00Z", KindDatetime}, {"1979-05-27 07:32:00+01:00", KindDatetime},
		{"10", KindInteger}, {"0x10", KindInteger}, {"true", KindBool},
	}
	for _, tc := range cases {
		doc, err := Parse([]byte("v = " + tc.lexeme))
		if err != nil {
			t.Errorf("%s: %v", tc.lexeme, err)
			continue
		}
		v := doc.Values["v"]
		if v.Kind != tc.want {
			t.Errorf("%s: kind %d, want %d", tc.lexeme, v.Kind, tc.want)
		}
		if tc.want == KindFloat || tc.want == KindDatetime {
			if v.Int != 0 || v.Str != "" || v.Bool {
				t.Errorf("%s: carries a value", tc.lexeme)
			}
		}
	}
}

// The same document with LF and with CRLF line ends gives the same tree.
func TestCRLFAndLFGiveTheSameTree(t *testing.T) {
	for _, tc := range validCases {
		if strings.Contains(tc.doc, "\r") {
			continue
		}
		lf, err := Parse([]byte(tc.doc))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		crlf, err := Parse([]byte(strings.ReplaceAll(tc.doc, "\n", "\r\n")))
		if err != nil {
			t.Errorf("%s with CRLF: %v", tc.name, err)
			continue
		}
		if dump(lf) != dump(crlf) {
			t.Errorf("%s: LF %s, CRLF %s", tc.name, dump(lf), dump(crlf))
		}
	}
}
