// Command gen-confusables writes boundary's table of look-alike letters: the
// Latin, Cyrillic and Greek letters that Unicode's confusables data
// (UTS #39, confusables.txt) gives as confusable with one Latin letter,
// each with that letter in lower case. InstructionLike folds them before
// it matches, so that "іgnore" written with a Cyrillic і is read as
// "ignore"; the text itself is never changed.
//
// The skeleton of confusables.txt spells a capital I as a small l (the
// two look alike); a capital look-alike whose skeleton is l is taken as
// i here, the letter a reader sees in it.
//
// Usage (from the module root):
//
//	go run ./scripts/gen-confusables -in confusables.txt \
//	    [-subset scripts/gen-confusables/confusables-latin.txt] \
//	    [-out boundary/clean_confusables.go]
//
// -in reads the whole confusables.txt or the subset kept in this folder
// (the lines used, as published); -subset writes those lines; -out writes
// the Go table. go generate in boundary runs it on the kept subset.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// maxLineBytes bounds a line of the data file.
const maxLineBytes = 4096

type pair struct {
	from   rune
	letter byte
	line   string
}

func main() {
	in := flag.String("in", "", "confusables.txt, or the subset of it kept here")
	subset := flag.String("subset", "", "write the lines used to this file")
	out := flag.String("out", "", "write the Go table to this file")
	flag.Parse()
	if *in == "" || *subset == "" && *out == "" {
		fmt.Fprintln(os.Stderr, "gen-confusables: give -in, and -subset or -out (or both)")
		os.Exit(2)
	}
	if err := run(*in, *subset, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen-confusables:", err)
		os.Exit(1)
	}
}

func run(in, subset, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	header, pairs, err := read(f)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if len(pairs) == 0 {
		return fmt.Errorf("%s: no Latin, Cyrillic or Greek look-alike of a Latin letter; is it confusables.txt?", in)
	}
	if subset != "" {
		var b bytes.Buffer
		for _, h := range header {
			b.WriteString(h + "\n")
		}
		b.WriteString("#\n# The lines of that file whose source is one Latin, Cyrillic or Greek\n# letter and whose target is one Latin letter, as published.\n#\n")
		for _, p := range pairs {
			b.WriteString(p.line + "\n")
		}
		if err := os.WriteFile(subset, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if out != "" {
		src, err := goTable(header, pairs)
		if err != nil {
			return err
		}
		if err := os.WriteFile(out, src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// read returns the leading comment lines and the pairs kept, in the order
// of the file.
func read(r io.Reader) (header []string, pairs []pair, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, maxLineBytes), maxLineBytes)
	seen := map[rune]bool{}
	inHeader := true
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") {
			if inHeader && !strings.HasPrefix(line, "# The lines of that file") && !strings.HasPrefix(line, "# letter and whose") {
				header = append(header, line)
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		inHeader = false
		p, ok := parse(line)
		if !ok || seen[p.from] {
			continue
		}
		seen[p.from] = true
		pairs = append(pairs, p)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	for len(header) > 0 && strings.TrimSpace(strings.TrimPrefix(header[len(header)-1], "#")) == "" {
		header = header[:len(header)-1]
	}
	return header, pairs, nil
}

// parse reads "SOURCE ;\tTARGET ;\tMA\t# comment" and keeps it when the
// source is one non-ASCII Latin, Cyrillic or Greek letter and the target
// one ASCII letter.
func parse(line string) (pair, bool) {
	fields := strings.SplitN(line, ";", 3)
	if len(fields) < 3 {
		return pair{}, false
	}
	from, ok := codePoint(fields[0])
	if !ok || from < 0x80 || !unicode.IsLetter(from) ||
		!(unicode.Is(unicode.Latin, from) || unicode.Is(unicode.Cyrillic, from) || unicode.Is(unicode.Greek, from)) {
		return pair{}, false
	}
	to, ok := codePoint(fields[1])
	if !ok || !(to >= 'a' && to <= 'z' || to >= 'A' && to <= 'Z') {
		return pair{}, false
	}
	letter := byte(unicode.ToLower(to))
	if letter == 'l' && unicode.IsUpper(from) {
		letter = 'i'
	}
	return pair{from: from, letter: letter, line: line}, true
}

// codePoint reads one hexadecimal code point; a sequence is not one.
func codePoint(field string) (rune, bool) {
	f := strings.TrimSpace(field)
	if f == "" || strings.ContainsAny(f, " \t") {
		return 0, false
	}
	v, err := strconv.ParseUint(f, 16, 32)
	if err != nil || v > unicode.MaxRune {
		return 0, false
	}
	return rune(v), true
}

func goTable(header []string, pairs []pair) ([]byte, error) {
	sorted := append([]pair(nil), pairs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].from < sorted[j].from })
	var b bytes.Buffer
	b.WriteString("// Code generated by scripts/gen-confusables; DO NOT EDIT.\n\n")
	b.WriteString("// The Latin, Cyrillic and Greek letters that Unicode's confusables data\n")
	b.WriteString("// gives as confusable with one Latin letter, from\n")
	b.WriteString("// scripts/gen-confusables/confusables-latin.txt, the lines used of:\n//\n")
	for _, h := range header {
		b.WriteString("//\t" + strings.TrimSpace(strings.TrimPrefix(h, "#")) + "\n")
	}
	b.WriteString("//\n// The data is the Unicode Consortium's, under the Unicode License v3\n")
	b.WriteString("// (https://www.unicode.org/license.txt).\n\npackage boundary\n\n")
	b.WriteString("// confusableLetters maps a look-alike letter to the Latin letter it\n// reads as, lower-cased; sorted by rune.\n")
	b.WriteString("var confusableLetters = [...]struct {\n\tr      rune\n\tletter byte\n}{\n")
	for _, p := range sorted {
		fmt.Fprintf(&b, "\t{0x%04X, '%c'}, // %s\n", p.from, p.letter, comment(p.line))
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, errors.New("the generated table does not format: " + err.Error())
	}
	return src, nil
}

// comment is the name part of a data line: "CYRILLIC SMALL LETTER A →
// LATIN SMALL LETTER A".
func comment(line string) string {
	if i := strings.Index(line, ")"); i >= 0 {
		line = line[i+1:]
	}
	if i := strings.Index(line, "\t#"); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}
