// Package metricstest reads the Prometheus text exposition format (0.0.4)
// strictly, for tests: what a scrape of rypsok must look like, line by
// line. It refuses what a lenient scraper would pass over (a sample
// before its TYPE, a family split in two, a duplicate series, a histogram
// whose buckets do not add up), and it is bounded in bytes, line length
// and labels. It is test support: no production code imports it.
package metricstest

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Bounds of Parse.
const (
	MaxBytes     = 4 << 20
	MaxLineBytes = 64 << 10
	MaxLabels    = 32
)

// Sample is one sample line.
type Sample struct {
	Name   string
	Labels map[string]string
	Value  float64
}

// Family is one metric family: its HELP, its TYPE and its samples, in the
// order of the text.
type Family struct {
	Name, Help, Type string
	Samples          []Sample
}

// Parse reads an exposition. Every family has one HELP and one TYPE line
// before its samples; comments of another kind, timestamps and empty lines
// are refused, as rypsok writes none.
func Parse(text string) ([]Family, error) {
	if len(text) > MaxBytes {
		return nil, fmt.Errorf("the exposition is above %d bytes", MaxBytes)
	}
	if text == "" {
		return nil, fmt.Errorf("the exposition is empty")
	}
	if !strings.HasSuffix(text, "\n") {
		return nil, fmt.Errorf("the last line does not end with a line feed")
	}
	p := parser{seen: map[string]bool{}, series: map[string]bool{}}
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if len(line) > MaxLineBytes {
			return nil, fmt.Errorf("line %d: longer than %d bytes", i+1, MaxLineBytes)
		}
		if err := p.line(line); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
	}
	if err := p.close(); err != nil {
		return nil, err
	}
	return p.out, nil
}

type parser struct {
	out    []Family
	cur    *Family
	seen   map[string]bool // family names met
	series map[string]bool // sample name and labels met
}

func (p *parser) line(line string) error {
	switch {
	case line == "":
		return fmt.Errorf("an empty line")
	case strings.HasPrefix(line, "# HELP "):
		name, help, _ := strings.Cut(line[len("# HELP "):], " ")
		if !validName(name) {
			return fmt.Errorf("HELP of an invalid metric name")
		}
		if err := p.open(name); err != nil {
			return err
		}
		if p.cur.Help != "" || len(p.cur.Samples) > 0 {
			return fmt.Errorf("a second HELP for %s, or one after its samples", name)
		}
		h, err := unescape(help, false)
		if err != nil {
			return err
		}
		if h == "" {
			return fmt.Errorf("an empty HELP for %s", name)
		}
		p.cur.Help = h
		return nil
	case strings.HasPrefix(line, "# TYPE "):
		name, typ, _ := strings.Cut(line[len("# TYPE "):], " ")
		if !validName(name) {
			return fmt.Errorf("TYPE of an invalid metric name")
		}
		switch typ {
		case "counter", "gauge", "histogram", "summary", "untyped":
		default:
			return fmt.Errorf("TYPE %q of %s is not a type", typ, name)
		}
		if err := p.open(name); err != nil {
			return err
		}
		if p.cur.Type != "" || len(p.cur.Samples) > 0 {
			return fmt.Errorf("a second TYPE for %s, or one after its samples", name)
		}
		p.cur.Type = typ
		return nil
	case strings.HasPrefix(line, "#"):
		return fmt.Errorf("a comment that is neither HELP nor TYPE")
	}
	return p.sample(line)
}

// open starts family name, or continues it when it is the current one.
func (p *parser) open(name string) error {
	if p.cur != nil && p.cur.Name == name {
		return nil
	}
	if err := p.close(); err != nil {
		return err
	}
	if p.seen[name] {
		return fmt.Errorf("family %s appears twice", name)
	}
	p.seen[name] = true
	p.out = append(p.out, Family{Name: name})
	p.cur = &p.out[len(p.out)-1]
	return nil
}

// close checks the current family once all its lines are read.
func (p *parser) close() error {
	f := p.cur
	if f == nil {
		return nil
	}
	p.cur = nil
	if f.Help == "" || f.Type == "" {
		return fmt.Errorf("family %s lacks its HELP or TYPE line", f.Name)
	}
	if f.Type == "histogram" {
		return checkHistogram(f)
	}
	return nil
}

func (p *parser) sample(line string) error {
	if p.cur == nil || p.cur.Type == "" {
		return fmt.Errorf("a sample before the TYPE of its family")
	}
	i := 0
	for i < len(line) && line[i] != '{' && line[i] != ' ' {
		i++
	}
	name := line[:i]
	if !validName(name) {
		return fmt.Errorf("an invalid metric name")
	}
	if !belongs(p.cur, name) {
		return fmt.Errorf("sample %s is not of family %s", name, p.cur.Name)
	}
	rest := line[i:]
	ls := map[string]string{}
	var key strings.Builder
	key.WriteString(name)
	if strings.HasPrefix(rest, "{") {
		var err error
		if rest, err = readLabels(rest[1:], ls, &key); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	if !strings.HasPrefix(rest, " ") {
		return fmt.Errorf("%s: no space before the value", name)
	}
	value := rest[1:]
	if strings.ContainsAny(value, " \t") {
		return fmt.Errorf("%s: a timestamp or extra text after the value", name)
	}
	v, err := parseValue(value)
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if p.series[key.String()] {
		return fmt.Errorf("%s: a duplicate series", name)
	}
	p.series[key.String()] = true
	if p.cur.Type == "counter" && (v < 0 || math.IsNaN(v)) {
		return fmt.Errorf("%s: a counter below zero or NaN", name)
	}
	p.cur.Samples = append(p.cur.Samples, Sample{Name: name, Labels: ls, Value: v})
	return nil
}

// readLabels reads label pairs up to the closing brace and returns what
// follows it.
func readLabels(s string, ls map[string]string, key *strings.Builder) (string, error) {
	for {
		if strings.HasPrefix(s, "}") {
			return s[1:], nil
		}
		if len(ls) >= MaxLabels {
			return "", fmt.Errorf("more than %d labels", MaxLabels)
		}
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return "", fmt.Errorf("a label without =")
		}
		ln := s[:eq]
		if !validLabelName(ln) {
			return "", fmt.Errorf("an invalid label name")
		}
		if _, dup := ls[ln]; dup {
			return "", fmt.Errorf("label %s twice", ln)
		}
		s = s[eq+1:]
		if !strings.HasPrefix(s, `"`) {
			return "", fmt.Errorf("label %s: the value is not quoted", ln)
		}
		end := closingQuote(s[1:])
		if end < 0 {
			return "", fmt.Errorf("label %s: the value is not closed", ln)
		}
		v, err := unescape(s[1:1+end], true)
		if err != nil {
			return "", fmt.Errorf("label %s: %v", ln, err)
		}
		ls[ln] = v
		key.WriteString("\x00" + ln + "\x01" + v)
		s = s[end+2:]
		switch {
		case strings.HasPrefix(s, ","):
			s = s[1:]
			if strings.HasPrefix(s, "}") {
				return "", fmt.Errorf("a comma before the closing brace")
			}
		case strings.HasPrefix(s, "}"):
		default:
			return "", fmt.Errorf("label %s: neither , nor } after the value", ln)
		}
	}
}

// closingQuote is the index of the first unescaped double quote, or -1.
func closingQuote(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// unescape reads \\ and \n (and \" in a label value); another escape, or a
// raw line feed, is refused.
func unescape(s string, label bool) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			return "", fmt.Errorf("a backslash at the end")
		}
		i++
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		case '"':
			if !label {
				return "", fmt.Errorf(`\" in a HELP text`)
			}
			b.WriteByte('"')
		default:
			return "", fmt.Errorf("an unknown escape")
		}
	}
	return b.String(), nil
}

func parseValue(s string) (float64, error) {
	switch s {
	case "+Inf":
		return math.Inf(1), nil
	case "-Inf":
		return math.Inf(-1), nil
	case "NaN":
		return math.NaN(), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || strings.ContainsAny(s, "xXpP_iInN") {
		return 0, fmt.Errorf("the value is not a number")
	}
	return v, nil
}

func belongs(f *Family, name string) bool {
	if name == f.Name {
		return f.Type != "histogram"
	}
	if f.Type != "histogram" {
		return false
	}
	rest, ok := strings.CutPrefix(name, f.Name)
	return ok && (rest == "_bucket" || rest == "_sum" || rest == "_count")
}

// checkHistogram: per series, buckets with increasing le ending at +Inf,
// cumulative counts that never fall, and _count equal to the +Inf bucket.
func checkHistogram(f *Family) error {
	type hist struct {
		lastLe, lastN float64
		inf, count    float64
		hasInf        bool
		hasCount      bool
		hasSum        bool
	}
	hs := map[string]*hist{}
	for _, s := range f.Samples {
		key := seriesKey(s.Labels, "le")
		h := hs[key]
		if h == nil {
			h = &hist{lastLe: math.Inf(-1)}
			hs[key] = h
		}
		switch s.Name {
		case f.Name + "_bucket":
			leText, ok := s.Labels["le"]
			if !ok {
				return fmt.Errorf("%s: a bucket without le", f.Name)
			}
			le, err := parseValue(leText)
			if err != nil || math.IsNaN(le) {
				return fmt.Errorf("%s: le is not a number", f.Name)
			}
			if h.hasInf || le <= h.lastLe || h.hasCount || h.hasSum {
				return fmt.Errorf("%s: buckets out of order", f.Name)
			}
			if s.Value < h.lastN {
				return fmt.Errorf("%s: bucket counts are not cumulative", f.Name)
			}
			h.lastLe, h.lastN = le, s.Value
			if math.IsInf(le, 1) {
				h.hasInf, h.inf = true, s.Value
			}
		case f.Name + "_count":
			h.hasCount, h.count = true, s.Value
		case f.Name + "_sum":
			if _, ok := s.Labels["le"]; ok {
				return fmt.Errorf("%s: le on a _sum", f.Name)
			}
			h.hasSum = true
		}
	}
	for _, h := range hs {
		if !h.hasInf || !h.hasCount || !h.hasSum {
			return fmt.Errorf("%s: a series lacks its +Inf bucket, _sum or _count", f.Name)
		}
		if h.inf != h.count {
			return fmt.Errorf("%s: _count differs from the +Inf bucket", f.Name)
		}
	}
	return nil
}

// seriesKey is the labels but skip, in a fixed order.
func seriesKey(ls map[string]string, skip string) string {
	keys := make([]string, 0, len(ls))
	for k := range ls {
		if k != skip {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "\x01" + ls[k] + "\x00")
	}
	return b.String()
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func validLabelName(s string) bool {
	if s == "" || strings.HasPrefix(s, "__") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Names lists the family names of fs, and for a histogram the names of its
// _bucket, _sum and _count samples too: what a query may name.
func Names(fs []Family) map[string]string {
	out := map[string]string{}
	for _, f := range fs {
		out[f.Name] = f.Type
		if f.Type == "histogram" {
			for _, s := range []string{"_bucket", "_sum", "_count"} {
				out[f.Name+s] = f.Type
			}
		}
	}
	return out
}

// Value is the value of the sample name whose labels include want; false
// when there is none.
func Value(fs []Family, name string, want map[string]string) (float64, bool) {
	for _, f := range fs {
		for _, s := range f.Samples {
			if s.Name != name {
				continue
			}
			match := true
			for k, v := range want {
				if s.Labels[k] != v {
					match = false
					break
				}
			}
			if match {
				return s.Value, true
			}
		}
	}
	return 0, false
}
