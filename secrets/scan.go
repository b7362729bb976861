package secrets

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Finding is one credential found in a text: its kind (a word of a fixed
// vocabulary, such as "github_token") and where it is, in Unicode scalar
// values from the start of the text (Start inclusive, End exclusive).
//
// The kinds are aws_access_key_id, aws_secret_access_key, github_token,
// gitlab_token, npm_token, huggingface_token, slack_token, stripe_key,
// google_api_key, openai_api_key, anthropic_api_key, sendgrid_api_key,
// telegram_bot_token, twilio_key, jwt, bearer_token, basic_auth,
// azure_account_key, private_key, url_password and password_value.
type Finding struct {
	Kind  string
	Start int
	End   int
}

// mask replaces a finding in MaskText.
const mask = redacted

// match is a finding in original byte offsets and in runes.
type match struct {
	kind               kind
	startByte, endByte int
	startRune, endRune int
}

// Scan returns the credentials found in text, ordered by Start. Findings
// never overlap: where two shapes overlap, the one that starts first (at
// the same start, the more specific one) names the finding, which then
// covers both.
func Scan(text string) []Finding {
	ms := scan(text)
	if len(ms) == 0 {
		return nil
	}
	fs := make([]Finding, len(ms))
	for i, m := range ms {
		fs[i] = Finding{Kind: m.kind.String(), Start: m.startRune, End: m.endRune}
	}
	return fs
}

// MaskText replaces each finding of Scan(text) by the fixed mask
// "[redacted]" and returns the result and the number of findings masked.
// Text outside the findings, invisible characters and escapes included, is
// returned unchanged.
func MaskText(text string) (string, int) {
	ms := scan(text)
	if len(ms) == 0 {
		return text, 0
	}
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, m := range ms {
		b.WriteString(text[at:m.startByte])
		b.WriteString(mask)
		at = m.endByte
	}
	b.WriteString(text[at:])
	return b.String(), len(ms)
}

// scan finds, orders and merges the candidates and places them in text.
func scan(text string) []match {
	norm, tm := normalize(text)
	sc := scanner{s: norm}
	sc.run()
	if len(sc.cands) == 0 {
		return nil
	}
	cands := sc.cands
	slices.SortFunc(cands, func(a, b cand) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		if c := cmp.Compare(b.kind.priority(), a.kind.priority()); c != 0 {
			return c
		}
		return cmp.Compare(b.end, a.end)
	})
	merged := cands[:0]
	for _, c := range cands {
		if n := len(merged); n > 0 && c.start < merged[n-1].end {
			merged[n-1].end = max(merged[n-1].end, c.end)
			continue
		}
		merged = append(merged, c)
	}
	ms := make([]match, len(merged))
	for i, c := range merged {
		ms[i] = match{kind: c.kind, startByte: tm.origStart(c.start), endByte: tm.origEnd(c.end)}
	}
	placeRunes(text, ms)
	return ms
}

// placeRunes fills the rune offsets of ms (ordered, non-overlapping) in one
// pass over text. An invalid byte counts as one rune, as in a range loop.
func placeRunes(text string, ms []match) {
	runes, at := 0, 0
	advance := func(to int) int {
		for at < to {
			_, size := utf8.DecodeRuneInString(text[at:])
			at += size
			runes++
		}
		return runes
	}
	for i := range ms {
		ms[i].startRune = advance(ms[i].startByte)
		ms[i].endRune = advance(ms[i].endByte)
	}
}
