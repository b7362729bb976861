package boundary

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// tableRunes lists every code point of t, both halves, strides followed:
// the tests read the toolchain's own tables, never a copied list.
func tableRunes(t *unicode.RangeTable) []rune {
	var rs []rune
	for _, rg := range t.R16 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			rs = append(rs, r)
		}
	}
	for _, rg := range t.R32 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			rs = append(rs, r)
		}
	}
	return rs
}

// checkAllCleaners runs in through the three cleaners and reports any
// that does not return want with removed characters counted.
func checkAllCleaners(t *testing.T, in, want string, removed int) {
	t.Helper()
	for name, got := range map[string]Cleaned{
		"markup":  CleanMarkupText(in, 1<<20),
		"decoded": CleanDecodedText(in, 1<<20),
	} {
		if got.Text != want || got.Removed != removed {
			t.Errorf("%s: %+q gave %+q removed %d; want %+q removed %d", name, in, got.Text, got.Removed, want, removed)
		}
	}
	if got, n := CleanContent(in); got != want || n != removed {
		t.Errorf("content: %+q gave %+q removed %d; want %+q removed %d", in, got, n, want, removed)
	}
}

// Every rune of unicode.Cf, whatever Unicode version the toolchain has, is
// removed and counted once per occurrence, in every cleaner. Between Latin
// letters the joiners carry no orthography, so they go too.
func TestREQ_SEC_015_EveryFormatCharacterIsRemovedAndCounted(t *testing.T) {
	cf := tableRunes(unicode.Cf)
	first, last := rune(unicode.Cf.R16[0].Lo), rune(unicode.Cf.R32[len(unicode.Cf.R32)-1].Hi)
	if len(cf) < 150 || cf[0] != first || cf[len(cf)-1] != last {
		t.Fatalf("iterated %d runes from U+%04X to U+%04X of unicode.Cf (U+%04X–U+%04X)", len(cf), cf[0], cf[len(cf)-1], first, last)
	}
	for _, r := range cf {
		if !unicode.Is(unicode.Cf, r) {
			t.Fatalf("U+%04X is not Cf: tableRunes is wrong", r)
		}
		c := string(r)
		checkAllCleaners(t, "a"+c+"b"+c+c+"c", "abc", 3)
		// Between Arabic-Indic digits: where the Arabic number signs stand.
		checkAllCleaners(t, "\u0661"+c+"\u0662", "\u0661\u0662", 1)
	}
}

// All of Cf in one text: the count is exactly the number of characters
// removed, none counted twice, none missed.
func TestREQ_SEC_015_AllFormatCharactersTogetherAreCountedExactly(t *testing.T) {
	cf := tableRunes(unicode.Cf)
	all := string(cf)
	checkAllCleaners(t, "x"+all+"y", "xy", len(cf))
	checkAllCleaners(t, all, "", len(cf))
	var b strings.Builder
	for _, r := range cf {
		b.WriteString("w")
		b.WriteRune(r)
	}
	in := b.String()
	want := strings.Repeat("w", len(cf))
	checkAllCleaners(t, in, want, utf8.RuneCountInString(in)-len(cf))
}

// The format characters issue 8 named, which an earlier hand-picked list
// missed or kept: each is Cf in the toolchain and is removed.
func TestREQ_SEC_015_ArabicNumberSignsAndOtherNamedFormatsAreRemoved(t *testing.T) {
	named := []struct {
		name   string
		lo, hi rune
	}{
		{"arabic number signs", 0x0600, 0x0605},
		{"arabic end of ayah", 0x06DD, 0x06DD},
		{"syriac abbreviation mark", 0x070F, 0x070F},
		{"arabic pound and piastre marks above", 0x0890, 0x0891},
		{"arabic disputed end of ayah", 0x08E2, 0x08E2},
		{"kaithi number sign", 0x110BD, 0x110BD},
		{"kaithi number sign above", 0x110CD, 0x110CD},
		{"mongolian vowel separator", 0x180E, 0x180E},
		{"interlinear annotation", 0xFFF9, 0xFFFB},
		{"shorthand format controls", 0x1BCA0, 0x1BCA3},
		{"language tag", 0xE0001, 0xE0001},
		{"tag characters", 0xE0020, 0xE007F},
	}
	for _, tc := range named {
		t.Run(tc.name, func(t *testing.T) {
			for r := tc.lo; r <= tc.hi; r++ {
				if !unicode.Is(unicode.Cf, r) {
					t.Fatalf("U+%04X is not Cf in Unicode %s", r, unicode.Version)
				}
				checkAllCleaners(t, string(r)+"\u0661\u0662", "\u0661\u0662", 1)
				checkAllCleaners(t, "ab"+string(r)+"c", "abc", 1)
			}
		})
	}
	runDecodedCases(t, []cleanCase{
		{"number sign before a year", "سنة \u0600\u0661\u0669\u0669\u0660", "سنة \u0661\u0669\u0669\u0660", 1},
		{"end of ayah around a verse number", "ٱلرَّحِيمِ \u06DD\u0667", "ٱلرَّحِيمِ \u0667", 1},
	})
}

// The control characters (unicode.Cc) are removed and counted; those that
// are white space are white space (collapsed in titles, kept as lines in
// content), except vertical tab and form feed, removed from content.
func TestREQ_SEC_015_EveryControlCharacterIsRemovedAndCounted(t *testing.T) {
	for _, r := range tableRunes(unicode.Cc) {
		in := "a" + string(r) + "b"
		if !unicode.Is(unicode.White_Space, r) {
			checkAllCleaners(t, in, "ab", 1)
			continue
		}
		if got := CleanDecodedText(in, 100); got.Text != "a b" || got.Removed != 0 {
			t.Errorf("decoded: U+%04X: got %+q removed %d; want \"a b\" removed 0", r, got.Text, got.Removed)
		}
		want, removed := "a"+string(r)+"b", 0
		switch r {
		case '\r', 0x85:
			want = "a\nb"
		case '\v', '\f':
			want, removed = "ab", 1
		}
		if got, n := CleanContent(in); got != want || n != removed {
			t.Errorf("content: U+%04X: got %+q removed %d; want %+q removed %d", r, got, n, want, removed)
		}
	}
}

// The invisible characters outside Cf and Cc that the cleaner also
// removes: default-ignorable code points (reserved ones included, so a
// Unicode newer than Go's tables is covered), fillers and noncharacters.
func TestREQ_SEC_015_OtherInvisibleCharactersAreRemoved(t *testing.T) {
	var rs []rune
	add := func(lo, hi rune) {
		for r := lo; r <= hi; r++ {
			rs = append(rs, r)
		}
	}
	add(0x034F, 0x034F) // combining grapheme joiner
	add(0x17B4, 0x17B5) // Khmer inherent vowels
	add(0x2065, 0x2065)
	add(0x3164, 0x3164) // Hangul filler
	add(0xFFA0, 0xFFA0) // halfwidth Hangul filler
	add(0xFFF0, 0xFFF8)
	add(0xFDD0, 0xFDEF)
	for plane := rune(0); plane <= 0x10; plane++ {
		add(plane<<16|0xFFFE, plane<<16|0xFFFF)
	}
	for r := rune(0xE0000); r <= 0xE0FFF; r++ {
		if !unicode.Is(unicode.Variation_Selector, r) {
			rs = append(rs, r)
		}
	}
	for _, r := range rs {
		checkAllCleaners(t, "a"+string(r)+"b", "ab", 1)
	}
}

// A removed selector run and the joiners the book keeps: U+200C and
// U+200D are Cf, yet kept where they carry orthography (REQ-SEC-015).
func TestREQ_SEC_015_JoinersAreTheOnlyFormatCharactersKept(t *testing.T) {
	for _, r := range tableRunes(unicode.Cf) {
		switch c := classOf(r); {
		case r == zwnj || r == zwj:
			if c != charJoiner {
				t.Errorf("U+%04X: class %d; want charJoiner", r, c)
			}
		case c != charRemove:
			t.Errorf("U+%04X: class %d; want charRemove", r, c)
		}
	}
	checkAllCleaners(t, "می\u200Cخواهم", "می\u200Cخواهم", 0)
	checkAllCleaners(t, "क्\u200Dष", "क्\u200Dष", 0)
	checkAllCleaners(t, "👨\u200D👩\u200D👧", "👨\u200D👩\u200D👧", 0)
}

// The classes come from the table given, not from a list: a table that
// calls U+0378 and U+4E00 format and leaves out U+200B and U+00AD is
// followed, through the cleaners, so a new Unicode version is followed.
func TestREQ_SEC_015_FormatClassFollowsTheUnicodeTable(t *testing.T) {
	fake := &unicode.RangeTable{}
	for _, r := range append(tableRunes(unicode.Cf), 0x0378, 0x4E00) {
		if r == 0x200B || r == 0x00AD {
			continue
		}
		if r <= 0xFFFF {
			fake.R16 = append(fake.R16, unicode.Range16{Lo: uint16(r), Hi: uint16(r), Stride: 1})
		} else {
			fake.R32 = append(fake.R32, unicode.Range32{Lo: uint32(r), Hi: uint32(r), Stride: 1})
		}
	}
	tab := newClassTable(fake)
	for r, want := range map[rune]charClass{
		0x0378: charRemove, 0x4E00: charRemove, 0x4E01: charKeep,
		0x200B: charKeep, 0x00AD: charKeep, 0xFEFF: charRemove, 0xE0041: charRemove,
	} {
		if got := tab.of(r); got != want {
			t.Errorf("U+%04X: class %d; want %d", r, got, want)
		}
	}

	saved := classes
	classes = tab
	defer func() { classes = saved }()
	checkAllCleaners(t, "a\u0378b\u4E00c\u200Bd\u00ADe\uFEFFf", "abc\u200Bd\u00ADef", 3)
}

// wantClass states the rules of clean_invisible.go directly with the
// unicode tables, for comparison with the compiled table.
func wantClass(r rune) charClass {
	switch {
	case r == '\r' || r == 0x85:
		return charLineBreak
	case r == zwnj || r == zwj:
		return charJoiner
	case unicode.Is(unicode.Variation_Selector, r):
		return charSelector
	case unicode.Is(unicode.White_Space, r):
		return charSpace
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Cc, r),
		r == 0x034F, r == 0x17B4, r == 0x17B5, r == 0x2065, r == 0x3164, r == 0xFFA0,
		r >= 0xFFF0 && r <= 0xFFF8, r >= 0xE0000 && r <= 0xE0FFF,
		r >= 0xFDD0 && r <= 0xFDEF, r&0xFFFE == 0xFFFE:
		return charRemove
	}
	return charKeep
}

// Every code point, compiled table against the rules; and nothing drawn
// (letters, marks, numbers, punctuation, symbols, private use) is removed
// but the fillers and invisible marks the rules name.
func TestREQ_SEC_015_ClassTableMatchesTheRulesForEveryCodePoint(t *testing.T) {
	drawn := []*unicode.RangeTable{unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Co}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		got := classOf(r)
		if want := wantClass(r); got != want {
			t.Fatalf("U+%04X: class %d; want %d", r, got, want)
		}
		if got == charRemove && unicode.IsOneOf(drawn, r) {
			switch r {
			case 0x034F, 0x17B4, 0x17B5, 0x3164, 0xFFA0:
			default:
				t.Errorf("U+%04X of a drawn category is removed", r)
			}
		}
	}
	for _, r := range []rune{-1, unicode.MaxRune + 1} {
		if c := classOf(r); c != charRemove {
			t.Errorf("classOf(%d) = %d; want charRemove", r, c)
		}
	}
}

// Ordinary text in many scripts, with the joiners and selectors that are
// part of it, comes back byte for byte with nothing counted.
func TestREQ_SEC_015_OrdinaryTextInManyScriptsIsUnchanged(t *testing.T) {
	texts := map[string]string{
		"arabic":           "اللُّغَةُ العَرَبِيَّةُ جميلة، ١٢٣٤ ﷺ",
		"persian ZWNJ":     "می\u200Cخواهم کتاب\u200Cها را بخوانم",
		"urdu":             "اردو ایک زبان ہے۔",
		"hebrew":           "עִבְרִית שָׂפָה שֵׁמִית",
		"devanagari":       "हिन्दी भाषा क्\u200Dष क्\u200Cष र\u200D्य",
		"bengali":          "বাংলা ভাষা",
		"tamil":            "தமிழ் மொழி",
		"malayalam ZWNJ":   "മലയാളം ക\u200Cക",
		"sinhala yansaya":  "ශ්\u200Dරී ලංකා ක්\u200Dය",
		"thai":             "ภาษาไทย สวัสดี",
		"chinese":          "中文，简体字。繁體字",
		"japanese":         "日本語のテキスト、カタカナ。",
		"korean":           "한국어 텍스트",
		"cyrillic greek":   "Русский язык; Ελληνικά",
		"ideographic VS":   "葛\U000E0100城",
		"mongolian":        "ᠮᠣᠩᠭᠣᠯ \u1820\u180B",
		"emoji skin tones": "👍🏽 👋🏿 👩🏽\u200D💻",
		"emoji ZWJ":        "👨\u200D👩\u200D👧 ❤\uFE0F\u200D🔥 🏳\uFE0F\u200D🌈",
		"emoji selectors":  "❤\uFE0F ☺\uFE0E 1\uFE0F\u20E3",
		"flags":            "🇫🇮 🇯🇵 🏴",
		"symbols":          "€ £ ™ © ½ ∑ ≠ → ✓ — “quotes” «guillemets»",
		"replacement":      "a\uFFFDb",
		"private use":      "\uE000\U000F0000",
	}
	for name, s := range texts {
		t.Run(name, func(t *testing.T) {
			if !norm.NFC.IsNormalString(s) {
				t.Fatalf("test text %+q is not NFC", s)
			}
			checkAllCleaners(t, s, s, 0)
		})
	}
}

// scriptsText is ordinary text in many scripts, nothing to remove: the
// cost of the cleaner on pages that are not mostly ASCII.
var scriptsText = strings.Repeat("Привет, мир. Γειά σου κόσμε. مرحبا بالعالم ١٢٣. שלום עולם. "+
	"नमस्ते दुनिया। สวัสดีชาวโลก 你好，世界。こんにちは世界。안녕하세요 세계. 👩🏽\u200D💻 ❤\uFE0F ", 40)

// hostileText hides a sentence in format characters between every letter.
var hostileText = strings.Repeat("ig\u200Bno\u202Ere\u2066 pre\uFEFFvi\u00ADous \u0600in\U000E0041st\u2062ru\u061Cctions ", 60)

func BenchmarkInvisibleScriptsDecoded(b *testing.B) {
	b.SetBytes(int64(len(scriptsText)))
	b.ReportAllocs()
	for b.Loop() {
		CleanDecodedText(scriptsText, 1<<20)
	}
}

func BenchmarkInvisibleScriptsContent(b *testing.B) {
	b.SetBytes(int64(len(scriptsText)))
	b.ReportAllocs()
	for b.Loop() {
		CleanContent(scriptsText)
	}
}

func BenchmarkInvisibleHostileContent(b *testing.B) {
	b.SetBytes(int64(len(hostileText)))
	b.ReportAllocs()
	for b.Loop() {
		CleanContent(hostileText)
	}
}
