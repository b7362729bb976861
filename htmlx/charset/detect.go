package charset

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	xunicode "golang.org/x/text/encoding/unicode"
)

// detectWindowBytes is how much of an undeclared body the legacy-encoding
// scorer decodes with each candidate, starting at its first non-ASCII byte.
const detectWindowBytes = 32 << 10

// candidateKind says which scripts a candidate encoding can plausibly carry.
type candidateKind uint8

const (
	kindUTF8 candidateKind = iota
	kindJapanese
	kindChinese
	kindKorean
	kindSingleByte
)

// charsetCandidate is one encoding the detector tries. home is the script a
// single-byte encoding exists for (nil for the multi-byte ones); rareInWord
// lists letters its languages seldom put between two ASCII letters.
type charsetCandidate struct {
	enc        encoding.Encoding
	kind       candidateKind
	home       *unicode.RangeTable
	rareInWord string
}

// detectionCandidates lists the encodings detection chooses among. On equal
// scores the earlier one wins, which is why windows-1252 comes before the
// other single-byte Latin encoding.
func detectionCandidates() []charsetCandidate {
	return []charsetCandidate{
		{enc: xunicode.UTF8, kind: kindUTF8},
		{enc: japanese.ShiftJIS, kind: kindJapanese},
		{enc: japanese.EUCJP, kind: kindJapanese},
		{enc: simplifiedchinese.GB18030, kind: kindChinese},
		{enc: traditionalchinese.Big5, kind: kindChinese},
		{enc: korean.EUCKR, kind: kindKorean},
		// Italian ì and ò end words; inside one they are Czech ě and ň
		// read as windows-1252.
		{enc: charmap.Windows1252, kind: kindSingleByte, home: unicode.Latin, rareInWord: "ìò"},
		{enc: charmap.Windows1250, kind: kindSingleByte, home: unicode.Latin},
		{enc: charmap.Windows1251, kind: kindSingleByte, home: unicode.Cyrillic},
		{enc: charmap.KOI8R, kind: kindSingleByte, home: unicode.Cyrillic},
		{enc: charmap.Windows1253, kind: kindSingleByte, home: unicode.Greek},
		{enc: charmap.Windows1255, kind: kindSingleByte, home: unicode.Hebrew},
		{enc: charmap.Windows1256, kind: kindSingleByte, home: unicode.Arabic},
		{enc: charmap.Windows874, kind: kindSingleByte, home: unicode.Thai},
	}
}

// detectEncoding guesses the encoding of a body that declares none; nil
// means the body is valid UTF-8 and needs no decoding. 7-bit text carrying
// the ISO-2022-JP escapes of JIS X 0208 is ISO-2022-JP. Otherwise each
// candidate decodes a window of the body and the highest score wins (see
// detectScore); when no candidate finds positive evidence, windows-1252 is the
// last resort.
func detectEncoding(body []byte) encoding.Encoding {
	if utf8.Valid(body) {
		if looksISO2022JP(body) && firstHighByte(body) < 0 {
			return japanese.ISO2022JP
		}
		return nil
	}
	sample := detectionSample(body, firstHighByte(body))
	sets := newCommonSets()
	var best encoding.Encoding = charmap.Windows1252
	bestScore := 0.0
	for _, c := range detectionCandidates() {
		decoded, err := c.enc.NewDecoder().Bytes(sample)
		if err != nil {
			continue
		}
		if s := detectScore(decoded, c, sets); s > bestScore {
			best, bestScore = c.enc, s
		}
	}
	return best
}

// firstHighByte returns the offset of the first byte of b at or above 0x80,
// or -1.
func firstHighByte(b []byte) int {
	for i, c := range b {
		if c >= utf8.RuneSelf {
			return i
		}
	}
	return -1
}

// looksISO2022JP reports whether 7-bit text switches to JIS X 0208.
func looksISO2022JP(body []byte) bool {
	return bytes.Contains(body, []byte("\x1b$B")) || bytes.Contains(body, []byte("\x1b$@"))
}

// detectionSample returns at most about detectWindowBytes of body from
// first, the offset of its first non-ASCII byte (a character start in every
// candidate). The window ends after a byte below 0x30, which is a trail byte
// in none of the candidates, so that no candidate sees a cut character.
func detectionSample(body []byte, first int) []byte {
	end := first + detectWindowBytes
	if end >= len(body) {
		return body[first:]
	}
	limit := min(end+64, len(body))
	for end < limit && body[end-1] >= 0x30 {
		end++
	}
	return body[first:end]
}

// detectClass sorts a decoded character for scoring.
type detectClass uint8

const (
	classOther  detectClass = iota
	classBad                // U+FFFD, C1 controls, private use, unassigned
	classLetter             // a letter of an alphabet (see detectAlphabet)
	classHan
	classKana
	classHalfKana
	classHangul
	classJamo
	classCJKPunct
	classGenPunct
	classLatin1Symbol
	classSymbol // letter-like symbols, arrows, operators, box drawing, shapes
)

// detectAlphabet is the script of a classLetter character.
type detectAlphabet uint8

const (
	alphaNone detectAlphabet = iota
	alphaLatin
	alphaCyrillic
	alphaGreek
	alphaHebrew
	alphaArabic
	alphaThai
)

// classifyForDetect sorts r by code point ranges; the unicode tables are consulted
// only for the rare characters outside them.
func classifyForDetect(r rune) (detectClass, detectAlphabet) {
	switch {
	case r < utf8.RuneSelf:
		if isASCIIAlpha(r) {
			return classLetter, alphaLatin
		}
		return classOther, alphaNone
	case r <= 0x9F:
		return classBad, alphaNone
	case r <= 0xBF, r == 0xD7, r == 0xF7:
		return classLatin1Symbol, alphaNone
	case r <= 0x24F, 0x1E00 <= r && r <= 0x1EFF:
		return classLetter, alphaLatin
	case 0x370 <= r && r <= 0x3FF:
		if r == 0x37E || r == 0x387 || r == 0x375 {
			return classOther, alphaNone
		}
		return classLetter, alphaGreek
	case 0x400 <= r && r <= 0x52F:
		if 0x482 <= r && r <= 0x489 {
			return classOther, alphaNone
		}
		return classLetter, alphaCyrillic
	case 0x590 <= r && r <= 0x5FF:
		if r == 0x5BE || r == 0x5C0 || r == 0x5C3 || r == 0x5C6 || r >= 0x5F3 {
			return classOther, alphaNone
		}
		return classLetter, alphaHebrew
	case 0x600 <= r && r <= 0x6FF:
		if r <= 0x61F || 0x660 <= r && r <= 0x66D || r == 0x6D4 {
			return classOther, alphaNone
		}
		return classLetter, alphaArabic
	case 0xE01 <= r && r <= 0xE4E:
		if r == 0xE3F || r == 0xE4F {
			return classOther, alphaNone
		}
		return classLetter, alphaThai
	case 0x2000 <= r && r <= 0x206F, r == 0x20AC, r == 0x2122:
		return classGenPunct, alphaNone
	case 0x2100 <= r && r <= 0x25FF:
		return classSymbol, alphaNone
	case 0x3000 <= r && r <= 0x303F, 0xFF01 <= r && r <= 0xFF60, 0xFFE0 <= r && r <= 0xFFE6:
		return classCJKPunct, alphaNone
	case 0x3040 <= r && r <= 0x30FF:
		return classKana, alphaNone
	case 0x3130 <= r && r <= 0x318F:
		return classJamo, alphaNone
	case 0x3400 <= r && r <= 0x4DBF, 0x4E00 <= r && r <= 0x9FFF, 0xF900 <= r && r <= 0xFAFF, 0x20000 <= r && r <= 0x3134F:
		return classHan, alphaNone
	case 0xAC00 <= r && r <= 0xD7A3:
		return classHangul, alphaNone
	case 0xFF61 <= r && r <= 0xFF9F:
		return classHalfKana, alphaNone
	case r == utf8.RuneError, 0xE000 <= r && r <= 0xF8FF, r >= 0xF0000,
		!unicode.IsGraphic(r) && !unicode.IsSpace(r):
		return classBad, alphaNone
	}
	return classOther, alphaNone
}

// homeAlphabet is the alphabet of a single-byte candidate.
func homeAlphabet(t *unicode.RangeTable) detectAlphabet {
	switch t {
	case unicode.Latin:
		return alphaLatin
	case unicode.Cyrillic:
		return alphaCyrillic
	case unicode.Greek:
		return alphaGreek
	case unicode.Hebrew:
		return alphaHebrew
	case unicode.Arabic:
		return alphaArabic
	case unicode.Thai:
		return alphaThai
	}
	return alphaNone
}

// detectRune is one decoded character with its class, for the sliding window
// of detectScore.
type detectRune struct {
	r     rune
	class detectClass
	alpha detectAlphabet
}

func newDetectRune(r rune) detectRune {
	c, a := classifyForDetect(r)
	return detectRune{r, c, a}
}

// detectScore sums the evidence each non-ASCII character of text gives for
// candidate c: replacement characters, controls, private-use and unassigned
// code points cost much; characters common in the scripts c is made for
// earn much; letters are judged by their neighbours (a Cyrillic letter
// inside a Latin word, an upper-case letter after a lower-case one, or a run
// of accented letters with no ASCII letter near are typical of a wrong
// guess).
func detectScore(text []byte, c charsetCandidate, sets *commonSets) float64 {
	total := 0.0
	space := newDetectRune(' ')
	prev := space
	r, n := utf8.DecodeRune(text)
	cur := newDetectRune(r)
	for i := n; n > 0; {
		next := space
		n = 0
		if i < len(text) {
			r, n = utf8.DecodeRune(text[i:])
			next = newDetectRune(r)
			i += n
		}
		if cur.r >= utf8.RuneSelf {
			total += detectRuneScore(c, sets, prev, cur, next)
		}
		prev, cur = cur, next
	}
	return total
}

// detectRuneScore is the evidence one non-ASCII character gives for candidate c,
// given its neighbours.
func detectRuneScore(c charsetCandidate, sets *commonSets, prev, cur, next detectRune) float64 {
	cjk := c.kind == kindJapanese || c.kind == kindChinese || c.kind == kindKorean
	switch cur.class {
	case classBad:
		if cur.r == utf8.RuneError {
			return -8
		}
		return -6
	case classHan:
		switch c.kind {
		case kindJapanese, kindChinese, kindUTF8:
			if sets.han(cur.r) {
				return 4
			}
			return 0.5
		case kindKorean:
			return 0.2
		}
		return -1
	case classKana:
		if c.kind == kindJapanese || c.kind == kindUTF8 {
			return 3
		}
		return -1
	case classHalfKana:
		if c.kind == kindJapanese {
			return 0
		}
		return -1
	case classHangul:
		if c.kind == kindKorean || c.kind == kindUTF8 {
			if sets.hangul(cur.r) {
				return 4
			}
			return 1
		}
		return -1
	case classJamo:
		if c.kind == kindKorean {
			return 0
		}
		return -1
	case classCJKPunct:
		if cjk || c.kind == kindUTF8 {
			return 1
		}
		return -1
	case classLetter:
		if cjk {
			return -0.5
		}
		return detectLetterScore(c, prev, cur, next)
	case classGenPunct:
		return 0.3
	case classLatin1Symbol:
		if cjk {
			return -0.2
		}
		if strings.ContainsRune("\u00a0©«»°·¡¿ªº", cur.r) {
			return 0.3
		}
		return -0.5
	case classSymbol:
		// KOI8-R's upper half is full of box drawing.
		switch c.kind {
		case kindSingleByte:
			return -2
		case kindUTF8:
			return 0
		}
		return -0.3
	}
	return 0
}

// detectLetterScore judges a non-ASCII letter of an alphabet (Latin, Cyrillic,
// Greek, Hebrew, Arabic, Thai) decoded by a single-byte candidate or UTF-8.
func detectLetterScore(c charsetCandidate, prev, cur, next detectRune) float64 {
	home := homeAlphabet(c.home)
	if c.kind == kindUTF8 {
		home = cur.alpha
	}
	if cur.alpha != home && cur.alpha != alphaLatin {
		return -1
	}
	asciiNear := isASCIIAlpha(prev.r) || isASCIIAlpha(next.r)
	var s float64
	switch {
	case cur.alpha == alphaLatin:
		otherNear := prev.class == classLetter && prev.alpha != alphaLatin ||
			next.class == classLetter && next.alpha != alphaLatin
		switch {
		case otherNear:
			s = -3
		case isASCIIAlpha(prev.r) && isASCIIAlpha(next.r) && strings.ContainsRune(c.rareInWord, cur.r):
			s = -1
		case asciiNear:
			s = 2
		case prev.class != classLetter && next.class != classLetter:
			s = 0.3
		default:
			s = -0.5
		}
	case asciiNear:
		s = -3
	case prev.alpha == cur.alpha || next.alpha == cur.alpha:
		s = 1.5
		if strings.ContainsRune(detectCommonLetters(cur.alpha), cur.r) {
			s++
		}
	}
	if detectUpper(cur) && prev.class == classLetter && detectLower(prev) {
		s -= 2
	}
	if detectLower(cur) && 'A' <= next.r && next.r <= 'Z' {
		s -= 2
	}
	return s
}

// detectUpper and detectLower answer for letters of the cased alphabets, with the
// common Cyrillic and Greek ranges checked first.
func detectUpper(c detectRune) bool {
	switch {
	case c.class != classLetter:
		return false
	case c.alpha == alphaCyrillic && c.r <= 0x45F:
		return c.r <= 0x42F
	case c.alpha == alphaGreek && 0x386 <= c.r && c.r <= 0x3CE:
		return c.r <= 0x3AB
	case c.r < utf8.RuneSelf:
		return 'A' <= c.r && c.r <= 'Z'
	}
	return unicode.IsUpper(c.r)
}

func detectLower(c detectRune) bool {
	switch {
	case c.class != classLetter:
		return false
	case c.alpha == alphaCyrillic && c.r <= 0x45F:
		return c.r >= 0x430
	case c.alpha == alphaGreek && 0x386 <= c.r && c.r <= 0x3CE:
		return c.r >= 0x3AC
	case c.r < utf8.RuneSelf:
		return 'a' <= c.r && c.r <= 'z'
	}
	return unicode.IsLower(c.r)
}

// detectCommonLetters returns the most frequent lower-case letters of Russian,
// Greek, Hebrew and Arabic text.
func detectCommonLetters(a detectAlphabet) string {
	switch a {
	case alphaCyrillic:
		return "оеаинтсрвлкмд"
	case alphaGreek:
		return "αοειτνσςηκ"
	case alphaHebrew:
		return "יוהלרמאבנתש"
	case alphaArabic:
		return "اليمونهربتع"
	}
	return ""
}

func isASCIIAlpha(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}

// commonSets holds commonHan and commonHangul as bitmaps for one detection.
type commonSets struct {
	hanBits    [(0xA000 - 0x4E00 + 63) / 64]uint64
	hangulBits [(0xD7A4 - 0xAC00 + 63) / 64]uint64
}

func newCommonSets() *commonSets {
	s := new(commonSets)
	for _, r := range commonHan {
		i := r - 0x4E00
		s.hanBits[i/64] |= 1 << (i % 64)
	}
	for _, r := range commonHangul {
		i := r - 0xAC00
		s.hangulBits[i/64] |= 1 << (i % 64)
	}
	return s
}

func (s *commonSets) han(r rune) bool {
	i := r - 0x4E00
	return 0 <= i && int(i) < len(s.hanBits)*64 && s.hanBits[i/64]&(1<<(i%64)) != 0
}

func (s *commonSets) hangul(r rune) bool {
	i := r - 0xAC00
	return 0 <= i && int(i) < len(s.hangulBits)*64 && s.hangulBits[i/64]&(1<<(i%64)) != 0
}

// commonHan holds about 640 of the most frequent Chinese characters in
// simplified and traditional forms and Japanese kanji, all in U+4E00–U+9FFF. A wrong CJK decoding yields real but mostly rare
// ideographs, so the share of common ones tells the right decoding apart.
const commonHan = "一七万三上下不与专且世业东两个中为主么义之乐九也书了争事二于五些交产京亲人什今从他代令以们件任休众会传似但位住体何作你使來便保信個們倒候做傳働像儿元先光克党入全兩八公六共关兵其内円再写军决冷准几出分切则利别到制前力办功加务动勉動務包化北区區十千午半华单南即却历原去又及友双反发取受变口古只叫可台史司吃各合同名后向听告员呢周命和品員哪商問喜四回因团図国國在地场坐城域基報場境士声売处外多大天太夫失头女她好如始委子字学孩學它安完官定宝实家容實寫对导対将將專對小少就尽局展山工己已市布师带師帰常干平年并广应店府度建开式弟张弱强当形影往待很後得從微德心必志快怎怕思性总息情想意愛感應成我或战房所手才打找技把报拉拿持指据接提收改放政教数數文斯新方无日早时明是時曜更書曾最會月有服望期未本术机杀权李村条来東极林果査校样根格業様樂標樣機次正此步武歩歲死段母毎每比毛民气気氣水求江没治法活派流济海深清済满火点為無然爱父片版物特王现現理環甚生產用由电町界留當発發白百的目直相看県真眼着知石研示社神离私种科程種究空立站笑第等答算管精系経結給統經總红级组终经结给统编网美義習老考者而联聞聲聽能脸自至與色花若英華萬落處號虽行術表被西要見視親见观视觉解言計記話認語說説読請論識讀變讓计认让议记讲许论设识话该语说请读谁调谈象買賣资走起越跟路身車軍车转轻边达过运近还这进远连這通速造週進運過道達還邊那部都里重量金錢钱長长門開間関關门问间队阪际院随难集難電青非面革音頁須頭題领题风飛飞食飲首香駅马體高麼黄黑點"

// commonHangul holds about 150 of the most frequent Hangul syllables of
// Korean text.
const commonHangul = "가각간같개거것게결경계고공과관교구국그기까께나내년는니님다단대더던데도동되된드들때또라러레로르를리마만말며면명모무문물미및발방보부분비사산상생서선성세소수스습시식신실심아안않야어업없에여연영오와외요용우운원위유으은을음의이인일입있자장저적전점정제조주중지진차체최치크터통트프하학한할해했행화회후"
