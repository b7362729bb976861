package htmlx

import "bytes"

// minSignupChars and maxSignupChars bound the text of a sign-up call,
// from "Subscribe" to a heading and its line.
const (
	minSignupChars = 9
	maxSignupChars = 160
)

// signupLabels are the bare labels of a sign-up, lower-cased, without
// their trailing punctuation.
var signupLabels = map[string]bool{
	"subscribe": true, "subscribe now": true, "subscribe today": true, "subscribe for free": true,
	"newsletter": true, "newsletters": true, "our newsletter": true, "sign up now": true,
	"join our newsletter": true, "join our mailing list": true, "join our email list": true,
}

// signupLeads are the words an invitation to subscribe starts with.
var signupLeads = [...]string{
	"subscribe", "sign up", "signup", "join", "get ", "stay ", "never miss", "don't miss",
	"don’t miss", "want more", "like this", "enter your email", "keep up",
}

// signupChannels are the channels an invitation names.
var signupChannels = [...]string{
	"newsletter", "inbox", "mailing list", "email list", "e-mail list", "your email",
}

// signupCall reports an element whose text, lower-cased, is a bare label
// of signupLabels or starts with one of signupLeads and names one of
// signupChannels.
func (x *extractor) signupCall(i int32) bool {
	// the labels open as the leads do, or with "our"
	if a, b := x.leadPair(i); !leadIn(a, b, signupLeads[:]...) && !leadIn(a, b, "newsletter", "our newsletter") {
		return false
	}
	var buf [2 * maxSignupChars]byte
	t, ok := x.collapsedText(i, buf[:])
	if !ok || len(t) == 0 {
		return false
	}
	if signupLabels[string(bytes.TrimRight(t, " .!:…"))] {
		return true
	}
	lead := false
	for _, l := range signupLeads {
		if bytes.HasPrefix(t, []byte(l)) {
			lead = true
			break
		}
	}
	if !lead {
		return false
	}
	for _, c := range signupChannels {
		if bytes.Contains(t, []byte(c)) {
			return true
		}
	}
	return false
}
