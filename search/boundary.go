package search

import (
	"rypsok/boundary"
	"rypsok/tool"
)

// boundaryCounts are the notices the content boundary owes the caller
// (REQ-CTX-007, REQ-SEC-015, CLR-11), for the results that are returned.
type boundaryCounts struct {
	titlesCut, snippetsCut, charsRemoved, flagged int
}

// cleanResult passes one merged result's external text through the content
// boundary (REQ-CTX-004): raw provider markup is stripped and its entities
// decoded once; text a driver marked decoded is only normalised; both are
// bounded. It reports whether the result reads like an instruction.
func cleanResult(m *merged, s *Settings) (tool.Result, boundaryCounts, bool) {
	var c boundaryCounts
	clean := func(text string, decoded bool, max int) boundary.Cleaned {
		if decoded {
			return boundary.CleanDecodedText(text, max)
		}
		return boundary.CleanMarkupText(text, max)
	}
	raw := m.best.raw
	title := clean(raw.Title, raw.TitleDecoded, s.TitleMaxChars)
	snippet := clean(raw.Snippet, raw.SnippetDecoded, s.SnippetMaxChars)
	if title.Truncated {
		c.titlesCut++
	}
	if snippet.Truncated {
		c.snippetsCut++
	}
	c.charsRemoved = title.Removed + snippet.Removed
	flagged := boundary.InstructionLike(title.Text) || boundary.InstructionLike(snippet.Text)
	if flagged {
		c.flagged++
	}
	r := tool.Result{Title: title.Text, Snippet: snippet.Text, URL: m.returnedURL()}
	if validDate(raw.Date) {
		r.Date = raw.Date
	}
	return r, c, flagged
}

// validDate accepts YYYY-MM-DD with a plausible month and day.
func validDate(d string) bool {
	if len(d) != 10 || d[4] != '-' || d[7] != '-' {
		return false
	}
	for i, ch := range []byte(d) {
		if i == 4 || i == 7 {
			continue
		}
		if ch < '0' || ch > '9' {
			return false
		}
	}
	month := (d[5]-'0')*10 + d[6] - '0'
	day := (d[8]-'0')*10 + d[9] - '0'
	return month >= 1 && month <= 12 && day >= 1 && day <= 31
}

func (c *boundaryCounts) add(o boundaryCounts) {
	c.titlesCut += o.titlesCut
	c.snippetsCut += o.snippetsCut
	c.charsRemoved += o.charsRemoved
	c.flagged += o.flagged
}
