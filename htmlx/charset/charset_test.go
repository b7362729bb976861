package charset

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	xunicode "golang.org/x/text/encoding/unicode"
)

// Sample sentences written for these tests, one language each.
const (
	sampleJapanese = "東京の小さな図書館では、毎週土曜日の午後に子どもたちのための読み聞かせ会が開かれています。" +
		"ボランティアの方々が季節の絵本を選び、終わったあとには感想を話し合う時間もあります。"
	sampleChinese = "这个城市的公共图书馆每个周末都会举办读书活动，很多家长带着孩子一起来参加。" +
		"工作人员说，今年他们还准备开设新的阅读课程，让更多的人了解传统文化。"
	sampleTraditional = "這個城市的公共圖書館每個週末都會舉辦讀書活動，很多家長帶著孩子一起來參加。" +
		"工作人員說，今年他們還準備開設新的閱讀課程，讓更多的人了解傳統文化。"
	sampleKorean = "이 도시의 공공 도서관에서는 주말마다 어린이를 위한 책 읽기 모임이 열립니다. " +
		"자원봉사자들이 계절에 맞는 그림책을 고르고, 모임이 끝나면 아이들과 함께 이야기를 나눕니다."
	sampleRussian = "В небольшой городской библиотеке каждую субботу проходят чтения для детей. " +
		"Волонтёры выбирают книги по сезону, а после чтения все вместе обсуждают прочитанное."
	sampleFrench = "Dans la petite bibliothèque municipale, une lecture à voix haute est organisée chaque samedi après-midi. " +
		"Les bénévoles choisissent des albums de saison, et l'on prend ensuite le temps d'échanger ses impressions à la fin."
	sampleGerman = "In der kleinen Stadtbücherei gibt es jeden Samstag eine Vorlesestunde für Kinder. " +
		"Die Ehrenamtlichen wählen Bücher passend zur Jahreszeit aus, und danach wird über das Gehörte gesprochen."
	samplePolish = "W małej bibliotece miejskiej w każdą sobotę odbywa się głośne czytanie dla dzieci. " +
		"Wolontariusze wybierają książki pasujące do pory roku, a potem wszyscy rozmawiają o tym, co usłyszeli."
	sampleGreek = "Στη μικρή δημοτική βιβλιοθήκη γίνεται κάθε Σάββατο ανάγνωση για παιδιά. " +
		"Οι εθελοντές διαλέγουν βιβλία της εποχής και στο τέλος όλοι συζητούν για την ιστορία."
	sampleHebrew = "בספרייה העירונית הקטנה מתקיימת בכל שבת שעת סיפור לילדים. " +
		"המתנדבים בוחרים ספרים המתאימים לעונה, ובסוף כולם משוחחים על הסיפור."
	sampleArabic = "في المكتبة العامة الصغيرة تقام كل يوم سبت جلسة قراءة للأطفال. " +
		"يختار المتطوعون كتبا تناسب الموسم، وفي النهاية يتحدث الجميع عن القصة."
	sampleThai = "ห้องสมุดเล็กๆ ของเมืองจัดกิจกรรมอ่านหนังสือให้เด็กฟังทุกวันเสาร์ " +
		"อาสาสมัครเลือกหนังสือภาพตามฤดูกาล และเมื่อจบแล้วทุกคนก็คุยกันเรื่องนิทาน"
)

// page wraps text in an HTML page that declares no charset.
func samplePage(text string) string {
	return "<!DOCTYPE html>\n<html><head><title>Reading hour</title>\n" +
		"<style>body { font-family: serif; }</style></head>\n<body>\n<h1>Reading hour</h1>\n<p>" +
		text + "</p>\n<p>" + text + "</p>\n</body></html>\n"
}

func encodeSample(t testing.TB, enc encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := enc.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encoding sample: %v", err)
	}
	return b
}

func TestREQ_PAGE_007_DetectsUndeclaredLegacyEncodings(t *testing.T) {
	tests := []struct {
		name string
		enc  encoding.Encoding
		text string
	}{
		{"shift_jis", japanese.ShiftJIS, sampleJapanese},
		{"euc-jp", japanese.EUCJP, sampleJapanese},
		{"iso-2022-jp", japanese.ISO2022JP, sampleJapanese},
		{"gbk", simplifiedchinese.GBK, sampleChinese},
		{"gb18030", simplifiedchinese.GB18030, sampleChinese},
		{"big5", traditionalchinese.Big5, sampleTraditional},
		{"euc-kr", korean.EUCKR, sampleKorean},
		{"windows-1251", charmap.Windows1251, sampleRussian},
		{"koi8-r", charmap.KOI8R, sampleRussian},
		{"windows-1252 french", charmap.Windows1252, sampleFrench},
		{"windows-1252 german", charmap.Windows1252, sampleGerman},
		{"iso-8859-1 french", charmap.ISO8859_1, sampleFrench},
		{"windows-1250 polish", charmap.Windows1250, samplePolish},
		{"windows-1253 greek", charmap.Windows1253, sampleGreek},
		{"windows-1255 hebrew", charmap.Windows1255, sampleHebrew},
		{"windows-1256 arabic", charmap.Windows1256, sampleArabic},
		{"windows-874 thai", charmap.Windows874, sampleThai},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := samplePage(tt.text)
			body := encodeSample(t, tt.enc, want)
			if utf8.Valid(body) && !strings.HasPrefix(tt.name, "iso-2022") {
				t.Fatalf("sample is valid UTF-8; it would not exercise detection")
			}
			if got := Decode(body, "text/html"); got != want {
				t.Errorf("Decode = %.120q…, want the sample text", got)
			}
		})
	}
}

// TestREQ_PAGE_007_DetectsShortSentences decodes one sentence of each
// language with no markup around it: the scorer has little to go on.
func TestREQ_PAGE_007_DetectsShortSentences(t *testing.T) {
	tests := []struct {
		name string
		enc  encoding.Encoding
		text string
	}{
		{"shift_jis", japanese.ShiftJIS, "東京の図書館では、毎週土曜日に読み聞かせ会が開かれています。"},
		{"euc-jp", japanese.EUCJP, "東京の図書館では、毎週土曜日に読み聞かせ会が開かれています。"},
		{"gbk", simplifiedchinese.GBK, "这个城市的图书馆每个周末都会举办读书活动。"},
		{"big5", traditionalchinese.Big5, "這個城市的圖書館每個週末都會舉辦讀書活動。"},
		{"euc-kr", korean.EUCKR, "이 도시의 도서관에서는 주말마다 책 읽기 모임이 열립니다."},
		{"windows-1251", charmap.Windows1251, "Каждую субботу в библиотеке проходят чтения для детей."},
		{"koi8-r", charmap.KOI8R, "Каждую субботу в библиотеке проходят чтения для детей."},
		{"windows-1252", charmap.Windows1252, "Une lecture à voix haute est organisée chaque samedi après-midi."},
		{"windows-1252 typographic quotes", charmap.Windows1252, "It’s a “reading hour” — entry costs €2, and that’s all."},
		{"windows-1252 spanish", charmap.Windows1252, "¿Qué tal la lectura? ¡Muy bien! Los niños escucharon atentos."},
		{"windows-1252 portuguese", charmap.Windows1252, "A leitura em voz alta acontece aos sábados, com participação das crianças."},
		{"windows-1250 czech", charmap.Windows1250, "V malé městské knihovně se každou sobotu čte dětem nahlas."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Decode(encodeSample(t, tt.enc, tt.text), ""); got != tt.text {
				t.Errorf("Decode = %q, want %q", got, tt.text)
			}
		})
	}
}

func TestREQ_PAGE_007_ByteOrderMarkWins(t *testing.T) {
	const text = "<meta charset=shift_jis><p>Grüße, 世界</p>"
	utf16le := encodeSample(t, xunicode.UTF16(xunicode.LittleEndian, xunicode.IgnoreBOM), text)
	utf16be := encodeSample(t, xunicode.UTF16(xunicode.BigEndian, xunicode.IgnoreBOM), text)
	tests := []struct {
		name        string
		body        []byte
		contentType string
	}{
		{"utf-8 bom over header", append([]byte{0xEF, 0xBB, 0xBF}, text...), "text/html; charset=windows-1251"},
		{"utf-16le bom over header", append([]byte{0xFF, 0xFE}, utf16le...), "text/html; charset=utf-8"},
		{"utf-16be bom over header", append([]byte{0xFE, 0xFF}, utf16be...), "text/html; charset=iso-8859-1"},
		{"utf-16le bom no header", append([]byte{0xFF, 0xFE}, utf16le...), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Decode(tt.body, tt.contentType); got != text {
				t.Errorf("Decode = %q, want %q (BOM removed)", got, text)
			}
		})
	}
}

func TestREQ_PAGE_007_DeclaredCharsetIsUsed(t *testing.T) {
	const ru = "<p>Привет, мир</p>"
	cp1251 := encodeSample(t, charmap.Windows1251, ru)
	koi := encodeSample(t, charmap.KOI8R, ru)
	sjis := encodeSample(t, japanese.ShiftJIS, "<p>こんにちは</p>")
	tests := []struct {
		name        string
		body        []byte
		contentType string
		want        string
	}{
		{"header", cp1251, "text/html; charset=windows-1251", ru},
		{"header upper case and spaces", koi, "text/html ; CHARSET = KOI8-R ", ru},
		{"header quoted", koi, `text/html; charset="koi8-r"`, ru},
		{"header single-quoted", koi, `text/html; charset='koi8-r'`, ru},
		{"header alias", koi, "text/html; charset=cskoi8r", ru},
		{"header duplicate parameter, first wins", koi, "text/html; charset=koi8-r; charset=utf-8", ru},
		{"header unbalanced quote", koi, `text/html; charset="koi8-r`, ru},
		{"header beside a broken parameter", koi, "text/html; =; foo; charset=koi8-r", ru},
		{"header over meta", append([]byte(`<meta charset="utf-8">`), koi...), "text/html; charset=koi8-r", "<meta charset=\"utf-8\">" + ru},
		{"header declares a lie, header still wins", encodeSample(t, charmap.Windows1252, "café"), "text/html; charset=windows-1251", "cafй"},
		{"meta charset", append([]byte(`<meta charset="windows-1251">`), cp1251...), "text/html", `<meta charset="windows-1251">` + ru},
		{"meta charset unquoted", append([]byte(`<META CHARSET=koi8-r>`), koi...), "", `<META CHARSET=koi8-r>` + ru},
		{"meta http-equiv", append([]byte(`<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">`), sjis...), "text/html",
			`<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">` + "<p>こんにちは</p>"},
		{"meta http-equiv quoted charset", append([]byte(`<meta content='text/html; charset="koi8-r"' http-equiv=content-type>`), koi...), "",
			`<meta content='text/html; charset="koi8-r"' http-equiv=content-type>` + ru},
		{"meta content without http-equiv is no declaration", append([]byte(`<meta content="text/html; charset=koi8-r"><p>`), cp1251...), "",
			`<meta content="text/html; charset=koi8-r"><p>` + ru},
		{"meta inside a comment is no declaration", append([]byte(`<!-- <meta charset="koi8-r"> -->`), cp1251...), "",
			`<!-- <meta charset="koi8-r"> -->` + ru},
		{"meta inside a script is no declaration", append([]byte(`<script>var s = '<meta charset="koi8-r">';</script>`), cp1251...), "",
			`<script>var s = '<meta charset="koi8-r">';</script>` + ru},
		{"meta content before charset attribute wins", append([]byte(`<meta content="text/html; charset=koi8-r" http-equiv="Content-Type" charset="windows-1251">`), koi...), "",
			`<meta content="text/html; charset=koi8-r" http-equiv="Content-Type" charset="windows-1251">` + ru},
		{"meta charset attribute before content wins", append([]byte(`<meta charset="koi8-r" content="text/html; charset=windows-1251" http-equiv="Content-Type">`), koi...), "",
			`<meta charset="koi8-r" content="text/html; charset=windows-1251" http-equiv="Content-Type">` + ru},
		{"meta repeated attribute is ignored", append([]byte(`<meta charset="koi8-r" charset="windows-1251">`), koi...), "",
			`<meta charset="koi8-r" charset="windows-1251">` + ru},
		{"meta unknown content label leaves room for charset", append([]byte(`<meta http-equiv=content-type content="text/html; charset=bogus" charset=koi8-r>`), koi...), "",
			`<meta http-equiv=content-type content="text/html; charset=bogus" charset=koi8-r>` + ru},
		{"first usable meta wins", append([]byte(`<meta charset="bogus"><meta charset="koi8-r"><meta charset="windows-1251">`), koi...), "",
			`<meta charset="bogus"><meta charset="koi8-r"><meta charset="windows-1251">` + ru},
		{"meta utf-16 means utf-8", []byte(`<meta charset="utf-16"><p>Grüße</p>`), "", `<meta charset="utf-16"><p>Grüße</p>`},
		{"meta utf-16be means utf-8", []byte(`<meta charset="UTF-16BE"><p>Grüße</p>`), "", `<meta charset="UTF-16BE"><p>Grüße</p>`},
		{"meta x-user-defined means windows-1252", encodeSample(t, charmap.Windows1252, `<meta charset="x-user-defined"><p>Grüße €</p>`), "",
			`<meta charset="x-user-defined"><p>Grüße €</p>`},
		{"header utf-16le is honoured", encodeSample(t, xunicode.UTF16(xunicode.LittleEndian, xunicode.IgnoreBOM), "<p>Grüße</p>"), "text/html; charset=utf-16le", "<p>Grüße</p>"},
		{"header x-user-defined is honoured", []byte{'a', 0x80, 0xFF}, "text/html; charset=x-user-defined", "a\uF780\uF7FF"},
		{"latin1 label is windows-1252", []byte{'1', 0x80}, "text/html; charset=latin1", "1€"},
		{"xml declaration", append([]byte(`<?xml version="1.0" encoding="KOI8-R"?><p>`), koi...), "application/xhtml+xml",
			`<?xml version="1.0" encoding="KOI8-R"?><p>` + ru},
		{"xml declaration single quotes", append([]byte(`<?xml version='1.0' encoding='windows-1251' standalone='yes'?><p>`), cp1251...), "",
			`<?xml version='1.0' encoding='windows-1251' standalone='yes'?><p>` + ru},
		{"meta before xml declaration", append([]byte(`<?xml version="1.0" encoding="windows-1251"?><meta charset="koi8-r">`), koi...), "",
			`<?xml version="1.0" encoding="windows-1251"?><meta charset="koi8-r">` + ru},
		{"xml declaration naming utf-16 is ignored", append([]byte(`<?xml version="1.0" encoding="UTF-16"?>`), cp1251...), "",
			`<?xml version="1.0" encoding="UTF-16"?>` + ru},
		{"meta in text/plain is text", append([]byte(`<meta charset="koi8-r"> `), cp1251...), "text/plain",
			`<meta charset="koi8-r"> ` + ru},
		{"meta in text/markdown is text", append([]byte(`<meta charset="koi8-r"> `), cp1251...), "text/markdown; variant=GFM",
			`<meta charset="koi8-r"> ` + ru},
		{"meta in xhtml is a declaration", append([]byte(`<meta charset="koi8-r">`), koi...), "application/xhtml+xml",
			`<meta charset="koi8-r">` + ru},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Decode(tt.body, tt.contentType); got != tt.want {
				t.Errorf("Decode = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestREQ_PAGE_007_MetaBeyondPrescanIsIgnored(t *testing.T) {
	const ru = "<p>Привет, мир, как дела у всех</p>"
	head := "<!DOCTYPE html><title>x</title>" + strings.Repeat(" ", prescanBytes) + `<meta charset="koi8-r">`
	body := append([]byte(head), encodeSample(t, charmap.Windows1251, ru)...)
	// The late meta names koi8-r; detection must decide instead (and find
	// windows-1251).
	if got := Decode(body, ""); got != head+ru {
		t.Errorf("Decode = %q, want detection to find windows-1251", got[len(head):])
	}
}

func TestREQ_PAGE_007_HostileCharsetsFallThrough(t *testing.T) {
	sjis := encodeSample(t, japanese.ShiftJIS, samplePage(sampleJapanese))
	want := samplePage(sampleJapanese)
	tests := []struct {
		name        string
		body        []byte
		contentType string
	}{
		{"unknown label", sjis, "text/html; charset=x-no-such-charset"},
		{"utf-7 is not supported", sjis, "text/html; charset=utf-7"},
		{"replacement label iso-2022-kr", sjis, "text/html; charset=iso-2022-kr"},
		{"replacement label hz-gb-2312", sjis, "text/html; charset=hz-gb-2312"},
		{"garbage parameter", sjis, "text/html; charset=\x00\xff\"';;=="},
		{"very long label", sjis, "text/html; charset=" + strings.Repeat("utf-8", 10000)},
		{"garbage content type", sjis, "\xff\xfe;;;;charset"},
		{"meta with replacement label", append([]byte(`<meta charset="iso-2022-kr">`), sjis...), ""},
		{"meta with utf-7", append([]byte(`<meta http-equiv="content-type" content="text/html;charset=utf-7">`), sjis...), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Decode(tt.body, tt.contentType)
			if !strings.HasSuffix(got, want) {
				t.Errorf("Decode = %.80q…, want detection of Shift_JIS", got)
			}
		})
	}
}

func TestREQ_PAGE_007_UndeclaredUTF8AndASCII(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"ascii", "<p>plain text</p>"},
		{"utf-8 japanese", samplePage(sampleJapanese)},
		{"utf-8 mixed scripts", "<p>Grüße — Привет — 你好 — 안녕 — שלום</p>"},
		{"empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Decode([]byte(tt.body), ""); got != tt.body {
				t.Errorf("Decode = %q, want %q", got, tt.body)
			}
		})
	}
}

func TestREQ_PAGE_007_InvalidBytesAreReplaced(t *testing.T) {
	tests := []struct {
		name        string
		body        []byte
		contentType string
		want        string
	}{
		{"utf-8 declared, stray byte", []byte("caf\xe9 au lait"), "text/html; charset=utf-8", "caf\uFFFD au lait"},
		{"utf-8 declared, truncated rune", []byte("日本\xe8\xaa"), "text/plain; charset=UTF-8", "日本\uFFFD"},
		{"utf-8 declared, surrogate", []byte("a\xed\xa0\x80b"), "text/html; charset=utf-8", "a\uFFFD\uFFFD\uFFFDb"},
		{"shift_jis declared, bad trail", []byte("a\x82\x20b"), "text/html; charset=shift_jis", "a\uFFFD b"},
		{"utf-16le declared, odd length", []byte{'a', 0, 'b'}, "text/html; charset=utf-16le", "a\uFFFD"},
		{"euc-kr declared, truncated", []byte("x\xb0"), "text/html; charset=euc-kr", "x\uFFFD"},
		{"utf-8 undeclared japanese with a cut rune at the end",
			append([]byte(samplePage(sampleJapanese)), 0xE3, 0x81), "", samplePage(sampleJapanese) + "\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Decode(tt.body, tt.contentType)
			if got != tt.want {
				t.Errorf("Decode = %q, want %q", got, tt.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("Decode returned invalid UTF-8")
			}
		})
	}
}

// The label table must hand back the very UTF-8 encoding decodeCharset
// compares against, or valid UTF-8 would go through a transformer.
func TestUTF8LabelTakesTheFastPath(t *testing.T) {
	for _, label := range []string{"utf-8", "UTF8", "unicode-1-1-utf-8"} {
		if enc := lookupCharsetLabel(label); enc != xunicode.UTF8 {
			t.Errorf("lookupCharsetLabel(%q) = %v, want unicode.UTF8", label, enc)
		}
	}
}

func TestREQ_PAGE_007_LastResortIsWindows1252(t *testing.T) {
	// Bytes that give no candidate positive evidence: windows-1252, which
	// maps every byte, is the last resort.
	tests := []struct {
		name string
		body []byte
		want string
	}{
		{"lone symbol", []byte("<p>5 \xD7 3</p>"), "<p>5 × 3</p>"},
		{"lone isolated high byte", []byte("<p>\xA4</p>"), "<p>¤</p>"},
		{"isolated high bytes", []byte("a \xB1 b \xBA c"), "a ± b º c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Decode(tt.body, ""); got != tt.want {
				t.Errorf("Decode = %q, want windows-1252 %q", got, tt.want)
			}
		})
	}
}

func TestREQ_PAGE_007_HostileBodiesEndWithAString(t *testing.T) {
	hostile := []byte("\x82\xa0\xff\xfe\x1b$B\x00<meta charset=\xff>")
	big := bytes.Repeat(hostile, (5<<20)/len(hostile))
	mid := big[:1<<20]
	tests := []struct {
		name        string
		body        []byte
		contentType string
	}{
		{"5 MiB hostile undeclared", big, ""},
		{"1 MiB hostile declared utf-8", mid, "text/html; charset=utf-8"},
		{"1 MiB hostile declared iso-2022-jp", mid, "text/html; charset=iso-2022-jp"},
		{"1 MiB hostile declared gb18030", mid, "text/html; charset=gb18030"},
		{"1 MiB hostile declared utf-16be", mid, "text/html; charset=utf-16be"},
		{"5 MiB of high bytes", bytes.Repeat([]byte{0xA4}, 5<<20), ""},
		{"unterminated meta", []byte(`<meta charset="koi8-r`), ""},
		{"unterminated comment", []byte(`<!-- <meta charset=koi8-r>`), ""},
		{"lone escape", []byte("\x1b$"), ""},
		{"iso-2022-jp escape then garbage", []byte("\x1b$B\x7f\x7f\x7f\x1b(B"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan string, 1)
			go func() { done <- Decode(tt.body, tt.contentType) }()
			select {
			case got := <-done:
				if !utf8.ValidString(got) {
					t.Errorf("Decode returned invalid UTF-8")
				}
				if len(tt.body) > 0 && got == "" {
					t.Errorf("Decode returned nothing for %d bytes", len(tt.body))
				}
			case <-time.After(2 * time.Minute):
				t.Fatalf("Decode did not finish")
			}
		})
	}
}

func TestCommonCharacterSets(t *testing.T) {
	sets := newCommonSets()
	tests := []struct {
		name     string
		set      string
		lo, hi   rune
		contains func(rune) bool
	}{
		{"commonHan", commonHan, 0x4E00, 0x9FFF, sets.han},
		{"commonHangul", commonHangul, 0xAC00, 0xD7A3, sets.hangul},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			members := 0
			for _, r := range tt.set {
				if r < tt.lo || r > tt.hi {
					t.Errorf("%q is outside %U–%U", r, tt.lo, tt.hi)
				}
				if !tt.contains(r) {
					t.Errorf("lookup misses %q", r)
				}
			}
			for r := rune(0); r <= 0xFFFF; r++ {
				if tt.contains(r) {
					members++
					if !strings.ContainsRune(tt.set, r) {
						t.Errorf("lookup finds %q, which is not in the set", r)
					}
				}
			}
			if members != utf8.RuneCountInString(tt.set) {
				t.Errorf("bitmap holds %d characters, the set %d", members, utf8.RuneCountInString(tt.set))
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte("<p>hello</p>"), "text/html")
	f.Add([]byte("\xEF\xBB\xBF<p>bom</p>"), "")
	f.Add([]byte("\xFF\xFE<\x00p\x00>\x00"), "")
	f.Add([]byte(`<meta charset="koi8-r"><p>`+"\xf0\xd2\xc9\xd7\xc5\xd4"), "")
	f.Add([]byte(`<meta http-equiv="content-type" content="text/html; charset=shift_jis">`+"\x82\xa0"), "")
	f.Add([]byte("\x1b$B$3$s$K$A$O\x1b(B"), "")
	f.Add([]byte("\xc4\xe3\xba\xc3"), "text/html; charset=gbk")
	f.Add([]byte("caf\xe9"), "text/html; charset=\"utf-8")
	f.Add([]byte("<!-- <meta charset=utf-16> -->\xa4\xa2"), "text/html; charset=iso-2022-kr")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		got := Decode(body, contentType)
		if !utf8.ValidString(got) {
			t.Fatalf("Decode(%q, %q) is not valid UTF-8", body, contentType)
		}
		// Valid UTF-8 with nothing that could declare an encoding (no
		// header, no BOM, no markup, no ISO-2022-JP escape) passes unchanged.
		if contentType == "" && utf8.Valid(body) && !bytes.ContainsAny(body, "<\x1b\uFEFF") && got != string(body) {
			t.Fatalf("Decode(%q) = %q, want it unchanged", body, got)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	utf8Page := []byte(strings.Repeat(samplePage(sampleJapanese+" "+sampleRussian+" "+sampleFrench), 200))
	benches := []struct {
		name        string
		body        []byte
		contentType string
	}{
		{"utf-8 undeclared", utf8Page, ""},
		{"utf-8 declared", utf8Page, "text/html; charset=utf-8"},
		{"shift_jis declared", encodeSample(b, japanese.ShiftJIS, strings.Repeat(samplePage(sampleJapanese), 200)), "text/html; charset=shift_jis"},
		{"shift_jis detected", encodeSample(b, japanese.ShiftJIS, strings.Repeat(samplePage(sampleJapanese), 200)), ""},
		{"windows-1251 detected", encodeSample(b, charmap.Windows1251, strings.Repeat(samplePage(sampleRussian), 200)), ""},
		{"windows-1252 detected", encodeSample(b, charmap.Windows1252, strings.Repeat(samplePage(sampleFrench), 200)), ""},
	}
	for _, bb := range benches {
		b.Run(bb.name, func(b *testing.B) {
			b.SetBytes(int64(len(bb.body)))
			for b.Loop() {
				Decode(bb.body, bb.contentType)
			}
		})
	}
}
