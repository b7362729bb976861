package tomlx

import (
	"errors"
	"strings"
	"testing"
)

// TOML 1.0 forbids defining a key or a table twice in every way it can be
// done; each is refused with the key path and the place of the second
// definition.
func TestREQ_CFG_005_RedefinitionNamesTheKeyAndPlace(t *testing.T) {
	cases := []struct {
		name      string
		doc       string
		key       string
		line, col int
	}{
		{"key twice", "a = 1\na = 2", "a", 2, 1},
		{"bare and quoted key", "a = 1\n\"a\" = 2", "a", 2, 1},
		{"literal and bare key", "'a' = 1\na = 2", "a", 2, 1},
		{"escaped and bare key", "\"\\u0061\" = 1\na = 2", "a", 2, 1},
		{"key twice in a table", "[t]\nk = 1\nk = 2", "t.k", 3, 1},
		{"key twice in an array-of-tables element", "[[x]]\nk = 1\nk = 2", "x.k", 3, 1},
		{"table header twice", "[engines.w]\ntype = 'x'\n\n\n[engines.w]", "engines.w", 5, 10},
		{"super table defined twice", "[a.b]\n[a]\n[a]", "a", 3, 2},
		{"super table of an array of tables defined twice", "[[a.b]]\n[a]\n[a]", "a", 3, 2},
		{"header for a table of dotted keys at the root", "a.b = 1\n[a]", "a", 2, 2},
		{"header for a table of dotted keys", "[fruit]\napple.color = 'red'\n[fruit.apple]", "fruit.apple", 3, 8},
		{"header for a deeper table of dotted keys", "[fruit]\napple.taste.sweet = true\n[fruit.apple.taste]", "fruit.apple.taste", 3, 14},
		{"array of tables for a table of dotted keys", "[fruit]\napple.color = 'red'\n[[fruit.apple]]", "fruit.apple", 3, 9},
		{"header for a value", "[a]\nb = 1\n[a.b]", "a.b", 3, 4},
		{"header through a value", "[a]\nb = 1\n[a.b.c]", "a.b", 3, 4},
		{"header through a scalar", "a = 1\n[a.b]", "a", 2, 2},
		{"header for an inline table", "a = {}\n[a]", "a", 2, 2},
		{"header extending an inline table", "a = {}\n[a.b]", "a", 2, 2},
		{"header into a nested inline table", "[t]\na = {b = {c = 1}}\n[t.a.b]", "t.a", 3, 4},
		{"dotted key extending an inline table", "a = {b = 1}\na.c = 2", "a", 2, 1},
		{"dotted key extending a value", "a = 1\na.b = 2", "a", 2, 1},
		{"value over a table of dotted keys", "a.b.c = 1\na.b = 2", "a.b", 2, 3},
		{"dotted keys into a table defined by a header", "[a.b.c]\nz = 9\n[a]\nb.c.t = 1", "a.b.c", 4, 3},
		{"dotted keys through a table defined by a header", "[a.b.c.d]\nz = 9\n[a]\nb.c.d.k.t = 1", "a.b.c.d", 4, 5},
		{"dotted keys into an array of tables", "[[a.b]]\n[a]\nb.y = 2", "a.b", 3, 1},
		{"value over a sub-table", "[a.b]\nc = 1\n[a]\nb = 2", "a.b", 4, 1},
		{"array of tables over a static array", "a = []\n[[a]]", "a", 2, 3},
		{"array of tables over a static array of tables", "a = [{b = 1}]\n[[a]]", "a", 2, 3},
		{"header through a static array", "a = [{b = 1}]\n[a.c]", "a", 2, 2},
		{"table over an array of tables", "[[a]]\n[a]", "a", 2, 2},
		{"array of tables over a table", "[a]\n[[a]]", "a", 2, 3},
		{"static array over an array of tables", "[[t.a]]\n[t]\na = [1]", "t.a", 3, 1},
		{"key twice in an inline table", "a = {b = 1, b = 2}", "a.b", 1, 13},
		{"dotted key over a value in an inline table", "a = {k1 = 1, k1.name = 'joe'}", "a.k1", 1, 14},
		{"dotted key into a nested inline table", "a = {b = {c = 1}, b.d = 2}", "a.b", 1, 19},
		{"key twice in a nested inline table", "[t]\na.b = {c = {d = 1, d = 2}}", "t.a.b.c.d", 2, 20},
		{"key twice in an inline table in an array", "a = [{b = 1, b = 2}]", "a.b", 1, 14},
		{"redefinition before a bad value", "a = 1\na = @", "a", 2, 1},
		{"redefinition before the end of a header", "[a]\n[a] x", "a", 2, 2},
		{"quoted key with a dot", "\"x.y\" = 1\n\"x.y\" = 2", `"x.y"`, 2, 1},
		{"empty key", "\"\" = 1\n'' = 2", `""`, 2, 1},
		{"key with a control character", "\"a\\nb\" = 1\n\"a\\nb\" = 2", `"a\u000Ab"`, 2, 1},
		{"key with a bidirectional override", "\"a\\u202Eb\" = 1\n\"a\u202eb\" = 2", `"a\u202Eb"`, 2, 1},
		{"key with a character above the BMP that does not print", "\"\\U000E0001\" = 1\n\"\\U000E0001\" = 2", `"\U000E0001"`, 2, 1},
		{"non-ASCII header", "[\"é\".\"ü\"]\n[\"é\".\"ü\"]", `"é"."ü"`, 2, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.doc))
			if err == nil {
				t.Fatalf("accepted: %s", dump(doc))
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error of type %T", err)
			}
			if e.Key != tc.key || e.Msg != "defined more than once" || e.Line != tc.line || e.Col != tc.col {
				t.Errorf("got  %q %q at %d:%d\nwant %q at %d:%d", e.Key, e.Msg, e.Line, e.Col, tc.key, tc.line, tc.col)
			}
		})
	}
}

func TestErrorReadsAsTheBookShows(t *testing.T) {
	_, err := Parse([]byte("[engines.w]\ntype = 'x'\n\n\n[engines.w]\n"))
	if got, want := err.Error(), "engines.w: defined more than once (line 5, column 10)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	_, err = Parse([]byte("a = 1\nb = \"x"))
	if got, want := err.Error(), "TOML syntax error: a string is not closed (line 2, column 7)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	e := &Error{Msg: "m", Line: 3, Col: 4}
	if got, want := e.Error(), "TOML syntax error: m (line 3, column 4)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Every value and key carries its place: 1-based line and column in
// characters, a tab one column, the byte order mark none.
func TestREQ_CFG_005_ValuesAndKeysCarryTheirPlace(t *testing.T) {
	doc := "\uFEFFtop = 1\n" + // 1
		"\"日本\" = \"é\"\n" + // 2
		"[engines.w]\n" + // 3
		"\ttype = \"wikipedia\"\n" + // 4
		"\"ö\" . b = 1\n" + // 5
		"x = [ 'ü', '😀', \"\"\"a\n" + // 6
		"b\"\"\" ]\n" + // 7
		"y = 1\r\n" + // 8
		"[[s.c]]\n" + // 9
		"[[s.c]]\n" + // 10
		"[engines]\n" + // 11
		"z = {a = 1, b.c = 2}\n" // 12
	root, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	type place struct{ line, col int }
	keyAt := func(tb *Table, k string) place { return place{tb.KeyLine[k], tb.KeyCol[k]} }
	valAt := func(v *Value) place { return place{v.Line, v.Col} }
	engines := root.Values["engines"].Table
	w := engines.Values["w"].Table
	oe := w.Values["ö"].Table
	x := w.Values["x"]
	s := root.Values["s"].Table
	c := s.Values["c"]
	z := engines.Values["z"]
	zb := z.Table.Values["b"].Table
	checks := []struct {
		what      string
		got, want place
	}{
		{"key top", keyAt(root, "top"), place{1, 1}},
		{"value top", valAt(root.Values["top"]), place{1, 7}},
		{"key 日本", keyAt(root, "日本"), place{2, 1}},
		{"value 日本", valAt(root.Values["日本"]), place{2, 8}},
		{"key engines, defined by its own header", keyAt(root, "engines"), place{11, 2}},
		{"table engines", valAt(root.Values["engines"]), place{11, 2}},
		{"key w", keyAt(engines, "w"), place{3, 10}},
		{"table w", valAt(engines.Values["w"]), place{3, 10}},
		{"key type after a tab", keyAt(w, "type"), place{4, 2}},
		{"value type", valAt(w.Values["type"]), place{4, 9}},
		{"key ö", keyAt(w, "ö"), place{5, 1}},
		{"table ö", valAt(w.Values["ö"]), place{5, 1}},
		{"key b of a dotted key", keyAt(oe, "b"), place{5, 7}},
		{"value b", valAt(oe.Values["b"]), place{5, 11}},
		{"array x", valAt(x), place{6, 5}},
		{"x[0]", valAt(x.Array[0]), place{6, 7}},
		{"x[1] after a multi-byte character", valAt(x.Array[1]), place{6, 12}},
		{"x[2] after an emoji", valAt(x.Array[2]), place{6, 17}},
		{"key y after a multi-line string", keyAt(w, "y"), place{8, 1}},
		{"value y", valAt(w.Values["y"]), place{8, 5}},
		{"key s", keyAt(root, "s"), place{9, 3}},
		{"key c of an array of tables", keyAt(s, "c"), place{9, 5}},
		{"array c", valAt(c), place{9, 5}},
		{"c[0]", valAt(c.Array[0]), place{9, 5}},
		{"c[1]", valAt(c.Array[1]), place{10, 5}},
		{"key z", keyAt(engines, "z"), place{12, 1}},
		{"inline table z", valAt(z), place{12, 5}},
		{"key z.a", keyAt(z.Table, "a"), place{12, 6}},
		{"value z.a", valAt(z.Table.Values["a"]), place{12, 10}},
		{"key z.b", keyAt(z.Table, "b"), place{12, 13}},
		{"key z.b.c", keyAt(zb, "c"), place{12, 15}},
		{"value z.b.c", valAt(zb.Values["c"]), place{12, 19}},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s: at %d:%d, want %d:%d", ch.what, ch.got.line, ch.got.col, ch.want.line, ch.want.col)
		}
	}
	if d := checkTree(root); d != "" {
		t.Error(d)
	}
}

// Columns of errors count characters, not bytes, whatever comes before.
func TestREQ_CFG_005_ErrorColumnsCountCharacters(t *testing.T) {
	cases := []struct {
		name      string
		doc       string
		line, col int
	}{
		{"ASCII", "a = 1 x", 1, 7},
		{"two-byte characters", "\"éé\" = 1 x", 1, 10},
		{"three-byte characters", "\"日本語\" = 1x", 1, 9},
		{"four-byte characters", "a = '😀😀' x", 1, 10},
		{"a combining mark is a character", "a = 'e\u0301' x", 1, 10},
		{"a tab is one column", "\ta = 1 x", 1, 8},
		{"the byte order mark is not counted", "\uFEFFa = 1 x", 1, 7},
		{"after a multi-line string", "a = \"\"\"\nline\n\"\"\" x", 3, 5},
		{"after a multi-line string with multi-byte characters", "a = '''é\né😀''' x", 2, 7},
		{"after a line-ending backslash", "a = \"\"\"x\\\n   ü\"\"\" x", 2, 9},
		{"in an array over lines", "a = [\n 'ü',\n 'ü' 'x']", 3, 6},
		{"after CRLF lines", "a = 1\r\nb = 'ä'\r\nc = 'ö' x", 3, 9},
		{"invalid UTF-8 after multi-byte characters", "a = 'ü😀\xff'", 1, 8},
		{"control character after multi-byte characters", "# 日本\x01", 1, 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v", err)
			}
			if e.Line != tc.line || e.Col != tc.col {
				t.Errorf("at %d:%d (%s), want %d:%d", e.Line, e.Col, e.Msg, tc.line, tc.col)
			}
		})
	}
}

// The document bounds: 1 MiB, 64 KiB lines, 32 levels of nesting, 32 key
// parts; exactly at the bound is accepted, one more is refused cleanly.
func TestBoundsAreRefusedCleanly(t *testing.T) {
	fill := func(size int) string {
		var b strings.Builder
		for b.Len() < size {
			n := size - b.Len() - 1
			switch {
			case n > 1000:
				n = 1000
			case n < 1:
				b.WriteByte('\n')
				continue
			}
			b.WriteString("#" + strings.Repeat("x", n-1) + "\n")
		}
		return b.String()
	}
	nestArrays := func(n int) string { return "a = " + strings.Repeat("[", n) + strings.Repeat("]", n) }
	nestTables := func(n int) string { return "a = " + strings.Repeat("{b=", n) + "1" + strings.Repeat("}", n) }
	nestBoth := func(n int) string {
		var open, closing string
		for i := 0; i < n; i++ {
			if i%2 == 0 {
				open, closing = open+"[", "]"+closing
			} else {
				open, closing = open+"{b=", "}"+closing
			}
		}
		return "a = " + open + "1" + closing
	}
	dotted := func(n int) string { return strings.Repeat("a.", n-1) + "a = 1" }
	header := func(n int) string { return "[" + strings.Repeat("a.", n-1) + "a]" }
	line := func(n int) string { return "x = 1\na = \"" + strings.Repeat("y", n-6) + "\"\r\nb = 2" }

	cases := []struct {
		name      string
		doc       string
		msg       string // empty: accepted
		line, col int
	}{
		{"1 MiB", fill(1 << 20), "", 0, 0},
		{"1 MiB and a byte", fill(1<<20 + 1), "the file is larger than 1 MiB", 1, 1},
		{"1 MiB and a byte, invalid otherwise", "\x00" + fill(1<<20), "the file is larger than 1 MiB", 1, 1},
		{"a line of 64 KiB", line(64 << 10), "", 0, 0},
		{"a line of 64 KiB and a byte", line(64<<10 + 1), "the line is longer than 64 KiB", 2, 1},
		{"a last line of 64 KiB and a byte", "\n" + strings.Repeat("#", 64<<10+1), "the line is longer than 64 KiB", 2, 1},
		{"arrays 32 deep", nestArrays(32), "", 0, 0},
		{"arrays 33 deep", nestArrays(33), msgNesting, 1, 37},
		{"inline tables 32 deep", nestTables(32), "", 0, 0},
		{"inline tables 33 deep", nestTables(33), msgNesting, 1, 101},
		{"arrays and inline tables 32 deep", nestBoth(32), "", 0, 0},
		{"arrays and inline tables 33 deep", nestBoth(33), msgNesting, 1, 5 + 16*4},
		{"a dotted key of 32 parts", dotted(32), "", 0, 0},
		{"a dotted key of 33 parts", dotted(33), "a key has more than 32 parts", 1, 65},
		{"a header of 32 parts", header(32), "", 0, 0},
		{"a header of 33 parts", header(33), "a key has more than 32 parts", 1, 66},
		{"deep nesting far beyond the bound", nestArrays(30000), msgNesting, 1, 37},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.doc))
			if tc.msg == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if d := checkTree(doc); d != "" {
					t.Error(d)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v", err)
			}
			if e.Msg != tc.msg || e.Line != tc.line || e.Col != tc.col {
				t.Errorf("got %q at %d:%d, want %q at %d:%d", e.Msg, e.Line, e.Col, tc.msg, tc.line, tc.col)
			}
		})
	}
}

// In an array of mixed kinds every element keeps its own kind and its own
// place, so that a reader wanting one kind can name the element that is
// not of it.
func TestMixedArrayElementsKeepKindAndPlace(t *testing.T) {
	doc := "a = ['x', 2, [3],\n  {b = 4}, true, 1.5, 1979-05-27]\n"
	root, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	a := root.Values["a"]
	want := []struct {
		kind      Kind
		line, col int
	}{
		{KindString, 1, 6}, {KindInteger, 1, 11}, {KindArray, 1, 14},
		{KindTable, 2, 3}, {KindBool, 2, 12}, {KindFloat, 2, 18}, {KindDatetime, 2, 23},
	}
	if a == nil || a.Kind != KindArray || len(a.Array) != len(want) {
		t.Fatalf("a: %+v", a)
	}
	for i, w := range want {
		e := a.Array[i]
		if e.Kind != w.kind || e.Line != w.line || e.Col != w.col {
			t.Errorf("a[%d]: kind %d at %d:%d, want kind %d at %d:%d", i, e.Kind, e.Line, e.Col, w.kind, w.line, w.col)
		}
	}
	if a.Array[2].Array[0].Int != 3 || a.Array[3].Table.Values["b"].Int != 4 || a.Array[0].Str != "x" || !a.Array[4].Bool {
		t.Errorf("values: %s", dump(root))
	}
	if d := checkTree(root); d != "" {
		t.Error(d)
	}
}
