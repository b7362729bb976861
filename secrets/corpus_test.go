package secrets

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The corpora under testdata/ are read here. Positives are templates: a
// seeded generator fills in the random part of each credential with the
// real structure, so no credential-shaped string is committed.

const (
	markOpen  = '⟦'
	markClose = '⟧'
)

// corpusCase is one line of a corpus after expansion.
type corpusCase struct {
	line int
	kind string // "" for a negative
	text string
	want []Finding
}

// unescapeCorpus decodes \n \r \t \\ \uXXXX \UXXXXXXXX.
func unescapeCorpus(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '\\':
			b.WriteByte('\\')
		case 'u', 'U':
			n := 4
			if s[i] == 'U' {
				n = 8
			}
			if i+n >= len(s) {
				return "", fmt.Errorf("short escape")
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", err
			}
			b.WriteRune(rune(v))
			i += n
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}

// generator draws the random parts of synthetic credentials.
type generator struct{ r *rand.Rand }

func newGenerator(seed uint64) *generator {
	return &generator{r: rand.New(rand.NewPCG(seed, 0x5ec7e75))}
}

const (
	digits   = "0123456789"
	uppers   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lowers   = "abcdefghijklmnopqrstuvwxyz"
	hexLower = "0123456789abcdef"
)

// classes maps a class name to its alphabet and the sets of which at least
// one character must appear (so that a "mixed" body is mixed, whatever the
// seed).
func classAlphabet(name string) (alphabet string, must []string, ok bool) {
	switch name {
	case "an":
		return digits + uppers + lowers, []string{digits, uppers, lowers}, true
	case "AN":
		return digits + uppers, []string{digits, uppers}, true
	case "al":
		return digits + lowers, []string{digits, lowers}, true
	case "b32":
		return uppers + "234567", []string{"234567"}, true
	case "b32l":
		return lowers + "234567", []string{"234567"}, true
	case "hex":
		return hexLower, []string{digits, "abcdef"}, true
	case "d":
		return digits, nil, true
	case "u":
		return digits + uppers + lowers + "_-", []string{digits, uppers, lowers}, true
	case "ul":
		return digits + lowers + "_-", []string{digits, lowers}, true
	case "b64", "b64pct":
		return digits + uppers + lowers + "+/", []string{digits, uppers, lowers, "/"}, true
	}
	return "", nil, false
}

func (g *generator) draw(class string, n int) (string, error) {
	alphabet, must, ok := classAlphabet(class)
	if !ok {
		return "", fmt.Errorf("unknown class %q", class)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	if n >= len(must) {
		pos := g.r.Perm(n)
		for k, set := range must {
			b[pos[k]] = set[g.r.IntN(len(set))]
		}
	}
	if class == "d" && b[0] == '0' {
		b[0] = '1'
	}
	s := string(b)
	if class == "b64pct" {
		s = strings.NewReplacer("/", "%2F", "+", "%2B").Replace(s)
	}
	return s, nil
}

func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// jwt builds a signed-looking JSON Web Token with a random subject and
// signature.
func (g *generator) jwt() string {
	headers := []string{
		`{"alg":"HS256","typ":"JWT"}`,
		`{"alg":"RS256","kid":"k1","typ":"JWT"}`,
		`{"typ":"JWT","alg":"ES256"}`,
	}
	h := headers[g.r.IntN(len(headers))]
	sub, _ := g.draw("d", 10)
	p := fmt.Sprintf(`{"sub":"%s","name":"Synthetic User","iat":%d}`, sub, 1700000000+g.r.IntN(1e6))
	sigLen := 43
	if strings.Contains(h, "RS256") {
		sigLen = 342
	}
	sig, _ := g.draw("u", sigLen)
	return b64url(h) + "." + b64url(p) + "." + sig
}

// expand replaces the {{…}} templates of s.
func (g *generator) expand(s string) (string, error) {
	var b strings.Builder
	for {
		open := strings.Index(s, "{{")
		if open < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		end := strings.Index(s[open:], "}}")
		if end < 0 {
			return "", fmt.Errorf("unclosed template")
		}
		b.WriteString(s[:open])
		t := s[open+2 : open+end]
		s = s[open+end+2:]
		switch {
		case t == "jwt":
			b.WriteString(g.jwt())
		case strings.HasPrefix(t, "basic:"):
			b.WriteString(base64.StdEncoding.EncodeToString([]byte(strings.TrimPrefix(t, "basic:"))))
		default:
			class, n, ok := strings.Cut(t, ":")
			count, err := strconv.Atoi(n)
			if !ok || err != nil {
				return "", fmt.Errorf("bad template %q", t)
			}
			v, err := g.draw(class, count)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
		}
	}
}

// extractMarks removes ⟦ ⟧ and returns the text and the marked spans in
// runes.
func extractMarks(s, kind string) (string, []Finding, error) {
	var b strings.Builder
	var want []Finding
	runes, open := 0, -1
	for _, r := range s {
		switch r {
		case markOpen:
			if open >= 0 {
				return "", nil, fmt.Errorf("nested mark")
			}
			open = runes
		case markClose:
			if open < 0 {
				return "", nil, fmt.Errorf("unopened mark")
			}
			want = append(want, Finding{Kind: kind, Start: open, End: runes})
			open = -1
		default:
			b.WriteRune(r)
			runes++
		}
	}
	if open >= 0 {
		return "", nil, fmt.Errorf("unclosed mark")
	}
	return b.String(), want, nil
}

// readCorpus reads a corpus file; positive files have "kind<TAB>text"
// lines with templates and marks, negative files plain lines.
func readCorpus(t testing.TB, name string, positive bool) []corpusCase {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := newGenerator(20261103)
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind := ""
		if positive {
			var ok bool
			kind, line, ok = strings.Cut(line, "\t")
			if !ok {
				t.Fatalf("%s:%d: no tab", name, n)
			}
		}
		text, err := unescapeCorpus(line)
		var want []Finding
		if positive && err == nil {
			text, err = g.expand(text)
			if err == nil {
				text, want, err = extractMarks(text, kind)
			}
		}
		if err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		if positive && len(want) == 0 {
			t.Fatalf("%s:%d: a positive line has no marked finding", name, n)
		}
		cases = append(cases, corpusCase{line: n, kind: kind, text: text, want: want})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// runeSlice returns the runes [start, end) of s.
func runeSlice(s string, start, end int) string {
	i, bs, be := 0, -1, len(s)
	for off := range s {
		if i == start {
			bs = off
		}
		if i == end {
			be = off
			break
		}
		i++
	}
	if bs < 0 {
		bs = len(s)
	}
	return s[bs:be]
}

func TestREQ_PRIV_002_Corpus(t *testing.T) {
	positives := readCorpus(t, "positives.txt", true)
	negatives := readCorpus(t, "negatives.txt", false)

	perKind := map[string]int{}
	for _, c := range positives {
		perKind[c.kind]++
	}
	for k := kind(1); k < kindCount; k++ {
		if perKind[k.String()] < 5 {
			t.Errorf("kind %s has %d positives, want at least 5", k, perKind[k.String()])
		}
		delete(perKind, k.String())
	}
	for k := range perKind {
		t.Errorf("positives.txt names an unknown kind %q", k)
	}
	if len(negatives) < 200 {
		t.Errorf("negatives.txt has %d lines, want at least 200", len(negatives))
	}

	found := 0
	for _, c := range positives {
		got := Scan(c.text)
		if !equalFindings(got, c.want) {
			t.Errorf("positives.txt:%d (%s): got %v, want %v", c.line, c.kind, got, c.want)
			continue
		}
		found++
		// The kind's own word is left out: a password may be "password".
		printed := strings.ReplaceAll(fmt.Sprintf("%v %+v %#v", got, got, got), c.kind, "")
		masked, n := MaskText(c.text)
		if n != len(c.want) {
			t.Errorf("positives.txt:%d: MaskText masked %d, want %d", c.line, n, len(c.want))
		}
		for _, w := range c.want {
			if value := runeSlice(c.text, w.Start, w.End); strings.Contains(printed, value) {
				t.Errorf("positives.txt:%d: a printed Finding shows the value", c.line)
			}
		}
		// Exactly the marked spans are masked (a value may also occur
		// elsewhere in the text, as in guest:guest@).
		if want := maskSpans(c.text, c.want); masked != want {
			t.Errorf("positives.txt:%d: MaskText gave %q, want %q", c.line, masked, want)
		}
		if again := Scan(masked); again != nil {
			t.Errorf("positives.txt:%d: the masked text still has findings %v", c.line, again)
		}
	}
	falsePositives := 0
	for _, c := range negatives {
		if got := Scan(c.text); got != nil {
			falsePositives++
			t.Errorf("negatives.txt:%d: false positive %v in %q", c.line, got, c.text)
		}
		if masked, n := MaskText(c.text); n != 0 || masked != c.text {
			t.Errorf("negatives.txt:%d: MaskText changed ordinary text", c.line)
		}
	}
	t.Logf("found %d/%d positives, %d false positives in %d negatives", found, len(positives), falsePositives, len(negatives))
}

// maskSpans replaces the rune spans fs (ordered) of s by the mask.
func maskSpans(s string, fs []Finding) string {
	var b strings.Builder
	at := 0
	for _, f := range fs {
		b.WriteString(runeSlice(s, at, f.Start))
		b.WriteString("[redacted]")
		at = f.End
	}
	b.WriteString(runeSlice(s, at, utf8.RuneCountInString(s)))
	return b.String()
}

func equalFindings(a, b []Finding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCorpusGeneratorHoldsStructure guards the generator the corpus relies
// on: a class draw has the requested length and alphabet.
func TestCorpusGeneratorHoldsStructure(t *testing.T) {
	g := newGenerator(1)
	for _, class := range []string{"an", "AN", "al", "b32", "b32l", "hex", "d", "u", "ul", "b64"} {
		alphabet, _, _ := classAlphabet(class)
		v, err := g.draw(class, 40)
		if err != nil || utf8.RuneCountInString(v) != 40 {
			t.Fatalf("%s: %q %v", class, v, err)
		}
		for _, c := range []byte(v) {
			if strings.IndexByte(alphabet, c) < 0 {
				t.Fatalf("%s: %q outside the alphabet", class, c)
			}
		}
	}
}
