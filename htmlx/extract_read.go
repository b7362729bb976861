package htmlx

import (
	"errors"
	"net/url"
)

// extractRead is ExtractHTML under a reading of hidden content (see
// parse_disclosure.go). Unless strict, a page whose disclosure panels
// came before their controls is parsed again knowing them, and a script
// shell with noscript fallbacks is read again with them, as a browser
// with scripting off shows it; the fallback's reading replaces the
// shell's answer only when its markup yields more than a remnant. A
// document is parsed at most three times.
func extractRead(doc string, base *url.URL, maxNodes, maxDepth int, strict bool) (Page, int, error) {
	read := readOpts{strict: strict}
	t := parseOnce(doc, maxNodes, maxDepth, read, nil)
	if t.reparse {
		t = parseOnce(doc, maxNodes, maxDepth, read, t.controls)
	}
	noscripts, controls := t.noscripts, t.controls
	page, headLen, err := extractHTML(t, base)
	if strict || noscripts == 0 || !scriptShell(t, err) {
		return page, headLen, err
	}
	read.noscript = true
	if controls == nil {
		controls = map[string]bool{}
	}
	t = parseOnce(doc, maxNodes, maxDepth, read, controls)
	shown, shownHead, shownErr := extractHTML(t, base)
	if shownErr != nil || remnant(t.markupMD) {
		return page, headLen, err
	}
	return shown, shownHead, nil
}

// scriptShell reports a page whose markup, read without its noscript
// fallbacks, shows nothing or a remnant while it keeps text out of sight
// or carries scripts: the page on which ExtractHTML answers
// ErrShownByScripts, by the same bars. The page's structured data may
// have stood in for the missing content; it is not the page's visible
// content, so such a page is a shell too.
func scriptShell(t *tree, err error) bool {
	if errors.Is(err, ErrShownByScripts) {
		return true
	}
	if t.markupMD == "" {
		return t.veiledChars >= minVeiledChars || t.scriptBytes >= minScriptBytes
	}
	return (t.veiledChars >= minRemnantVeiled || t.scriptBytes >= minRemnantScript) && remnant(t.markupMD)
}
