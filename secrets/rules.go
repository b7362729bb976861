package secrets

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// The rules of the secret check. Each recognises a credential by a fixed
// prefix or a fixed structure and the length of the real format, never by
// how random the text looks (RFC 009 as amended; the book's list of kinds).
//
// The scanner makes one pass over the normalised text. At the start of
// every word (a letter or digit not preceded by one) it tries the rules
// whose prefix begins with that letter; at '=' and ':' it tries the rules
// keyed on a name (password=, aws_secret_access_key=, AccountKey=) and the
// URL user information rule; at '-' the PEM rule. Every rule reads a
// bounded stretch of text, or a stretch that no other attempt of the same
// rule reads again, so a scan is linear in the length of the text.
//
// "In lower case": prefixes that are upper case in the real format (AKIA,
// ASIA, AIza, SK, SG.) are also found written in lower case, with a body
// in the same case where the real body is upper case only (AWS). Prefixes
// that are lower case in the real format (ghp_, glpat-, npm_, xoxb-,
// sk_live_, sk-ant-, bearer, basic, bot…) are found in any case, except
// hf_, whose upper-case form is the prefix of ordinary environment names.

// Bounds of the stretches a rule reads.
const (
	maxTokenBytes = 4096 // a Bearer or Basic token
	maxValueBytes = 512  // a value after password= and the like
	maxKeyBytes   = 64   // the name before = or :
	maxAuthBytes  = 512  // the authority of a URL
	maxJWTHeader  = 4096 // the header segment of a JWT, decoded to check it
	maxSepBytes   = 4    // spaces around = and : and after Bearer
)

// cand is a candidate finding in byte offsets of the normalised text.
type cand struct {
	start, end int
	kind       kind
}

// scanner holds one scan.
type scanner struct {
	s     string
	cands []cand
	// tokenEnd is where the last token read after Bearer or Basic ended: a
	// keyword inside that token starts no second read of the same bytes.
	tokenEnd int
	// longValueEnd is where the last value too long to be a password was
	// cut: an assignment inside it starts no second read.
	longValueEnd int
}

func (sc *scanner) add(k kind, start, end int) {
	sc.cands = append(sc.cands, cand{start: start, end: end, kind: k})
}

func (sc *scanner) run() {
	s := sc.s
	for i := 0; i < len(s); {
		c := s[i]
		if isAlnum(c) {
			j := i + 1
			for j < len(s) && isAlnum(s[j]) {
				j++
			}
			sc.word(i, j)
			i = j
			continue
		}
		switch c {
		case '=':
			sc.assignment(i)
		case ':':
			sc.assignment(i)
			sc.userinfo(i)
		case '-':
			sc.pem(i)
		}
		i++
	}
}

// word tries the prefix rules at the word s[i:j] (a run of letters and
// digits). Every prefix ends with a letter or digit followed by a fixed
// byte ('_', '-', '.', ':') or has a fixed length, so most words are
// refused by their length alone.
func (sc *scanner) word(i, j int) {
	s := sc.s
	var next byte
	if j < len(s) {
		next = s[j]
	}
	n := j - i
	switch lower(s[i]) {
	case 'a':
		if n == 20 {
			sc.awsAccessKeyID(i)
		}
		if n >= 4 {
			sc.googleAPIKey(i)
		}
	case 'b':
		switch {
		case n == 6:
			sc.bearer(i)
		case n == 5:
			sc.basic(i)
		case n >= 11 && n <= 13 && next == ':':
			sc.telegramBot(i)
		}
	case 'e':
		if n >= 3 {
			sc.jwt(i)
		}
	case 'g':
		switch {
		case (n == 3 || n == 6) && next == '_':
			sc.github(i)
		case n >= 4 && n <= 7 && next == '-':
			sc.gitlab(i)
		}
	case 'h':
		switch {
		case n == 2 && next == '_':
			sc.huggingface(i)
		case n == 5 && next == '.':
			sc.slackWebhook(i)
		}
	case 'n':
		if n == 3 && next == '_' {
			sc.npm(i)
		}
	case 'r':
		if n == 2 && next == '_' {
			sc.stripe(i)
		}
	case 's':
		switch {
		case n == 2 && next == '_':
			sc.stripe(i)
		case n == 2 && next == '-':
			sc.skDash(i)
		case n == 2 && next == '.':
			sc.sendgrid(i)
		case n == 34:
			sc.twilio(i)
		}
	case 'x':
		if n == 4 && next == '-' {
			sc.slack(i)
		}
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if n >= 8 && n <= 10 && next == ':' {
			sc.telegramPlain(i)
		}
	}
}

// Character classes.

func isDigit(c byte) bool  { return c-'0' < 10 }
func isLetter(c byte) bool { return (c|0x20)-'a' < 26 }
func isAlnum(c byte) bool  { return alnumTable[c] != 0 }
func isUpper(c byte) bool  { return c-'A' < 26 }
func isLower(c byte) bool  { return c-'a' < 26 }
func isHex(c byte) bool    { return c-'0' < 10 || (c|0x20)-'a' < 6 }

func isLowerAlnum(c byte) bool { return c-'0' < 10 || c-'a' < 26 }

// alnumTable marks the ASCII letters and digits: one load per byte on the
// hot path of the scan. A constant, so nothing can change it.
const alnumTable = "" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00" +
	"\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00" +
	"\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

// isWord is [A-Za-z0-9_].
func isWord(c byte) bool { return isAlnum(c) || c == '_' }

// isB64URL is the base64url alphabet [A-Za-z0-9_-].
func isB64URL(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

// isB64 is the standard base64 alphabet without padding [A-Za-z0-9+/].
func isB64(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

func lower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether s starts with p, ignoring ASCII case; p is
// lower case.
func hasPrefixFold(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for k := 0; k < len(p); k++ {
		if lower(s[k]) != p[k] {
			return false
		}
	}
	return true
}

// runEnd returns the end of the run of bytes in class starting at i,
// reading at most limit bytes (so the result is at most i+limit).
func runEnd(s string, i, limit int, in func(byte) bool) int {
	j := i
	for j < len(s) && j-i < limit && in(s[j]) {
		j++
	}
	return j
}

// exact reports whether s[i:] starts with exactly n bytes of class followed
// by a byte outside it (or the end), and returns the end.
func exact(s string, i, n int, in func(byte) bool) (int, bool) {
	j := runEnd(s, i, n+1, in)
	return j, j-i == n
}

// aws_access_key_id: AKIA or ASIA, then 16 of the base32 alphabet [A-Z2-7]
// with at least one digit (a 20-letter word after ASIA is not a key), 20
// characters in all, not followed by a letter or digit. Also all in lower
// case (akia…). The unique identifiers of other IAM objects (AIDA, AROA…)
// are not credentials, nor are the documentation's examples, which end in
// EXAMPLE.
func (sc *scanner) awsAccessKeyID(i int) {
	s := sc.s
	if len(s)-i < 20 {
		return
	}
	var upper bool
	switch s[i : i+4] {
	case "AKIA", "ASIA":
		upper = true
	case "akia", "asia":
	default:
		return
	}
	digit := false
	for k := i + 4; k < i+20; k++ {
		c := s[k]
		switch {
		case c >= '2' && c <= '7':
			digit = true
		case upper && isUpper(c), !upper && isLower(c):
		default:
			return
		}
	}
	if !digit || (i+20 < len(s) && isAlnum(s[i+20])) || strings.HasSuffix(s[i:i+20], "EXAMPLE") {
		return
	}
	sc.add(kAWSAccessKeyID, i, i+20)
}

// google_api_key: AIza (or aiza) and 35 of [A-Za-z0-9_-].
func (sc *scanner) googleAPIKey(i int) {
	s := sc.s
	if !strings.HasPrefix(s[i:], "AIza") && !strings.HasPrefix(s[i:], "aiza") {
		return
	}
	if end, ok := exact(s, i+4, 35, isB64URL); ok {
		sc.add(kGoogleAPIKey, i, end)
	}
}

// fixedBody adds a finding for prefix s[i:body] followed by exactly n bytes
// of class. With wrap, the body may also be split in two non-empty parts by
// one space, tab or line break (a token wrapped by a terminal or a mail).
func (sc *scanner) fixedBody(k kind, i, body, n int, in func(byte) bool, wrap bool) {
	s := sc.s
	j := runEnd(s, body, n+1, in)
	r := j - body
	if r == n {
		sc.add(k, i, j)
		return
	}
	if !wrap || r == 0 || r > n || j >= len(s) {
		return
	}
	switch {
	case s[j] == '\r' && j+1 < len(s) && s[j+1] == '\n':
		j += 2
	case s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r':
		j++
	default:
		return
	}
	if end, ok := exact(s, j, n-r, in); ok {
		sc.add(k, i, end)
	}
}

// github_token: ghp_, gho_, ghu_, ghs_ or ghr_ and 36 of [A-Za-z0-9];
// github_pat_ and 82 of [A-Za-z0-9_]. Either may be wrapped once by a space
// or a line break.
func (sc *scanner) github(i int) {
	s := sc.s
	if len(s)-i < 5 {
		return
	}
	if lower(s[i+1]) == 'h' && s[i+3] == '_' && strings.IndexByte("pousr", lower(s[i+2])) >= 0 {
		sc.fixedBody(kGitHubToken, i, i+4, 36, isAlnum, true)
		return
	}
	if hasPrefixFold(s[i:], "github_pat_") {
		sc.fixedBody(kGitHubToken, i, i+11, 82, isWord, true)
	}
}

// gitlab_token: a documented GitLab prefix (glpat-, gloas-, gldt-, glrt-,
// glrtr-, glcbt-, glptt-, glft-, glimt-, glagent-, glsoat-, glffct-) and
// either the legacy body of exactly 20 of [A-Za-z0-9_-] (optionally after a
// short partition or type part such as "64_" or "t1_"), 64 for an OAuth
// application secret, or a routable token: 27 to 300 of [A-Za-z0-9_-], a
// dot, optionally 2 lower-case letters or digits and a dot (the version),
// and 9 lower-case letters or digits.
func (sc *scanner) gitlab(i int) {
	s := sc.s
	if len(s)-i < 25 || lower(s[i+1]) != 'l' {
		return
	}
	var body int
	for _, p := range [...]string{"glpat-", "gloas-", "gldt-", "glrt-", "glrtr-", "glcbt-", "glptt-", "glft-", "glimt-", "glagent-", "glsoat-", "glffct-"} {
		if hasPrefixFold(s[i:], p) {
			body = i + len(p)
			break
		}
	}
	if body == 0 {
		return
	}
	j := runEnd(s, body, 301, isB64URL)
	r := j - body
	// The routable forms: a payload, '.', and 9 lower-case letters and
	// digits (length and CRC), or 2 (a version), '.' and those 9.
	if r >= 27 && r <= 300 && j < len(s) && s[j] == '.' {
		dot := j
		e := runEnd(s, dot+1, 10, isLowerAlnum)
		if e-dot-1 == 2 && e < len(s) && s[e] == '.' {
			dot, e = e, runEnd(s, e+1, 10, isLowerAlnum)
		}
		if e-dot-1 == 9 && (e == len(s) || !isB64URL(s[e])) {
			sc.add(kGitLabToken, i, e)
			return
		}
	}
	switch {
	case r == 20, r == 64 && strings.HasPrefix(strings.ToLower(s[i:body]), "gloas-"):
		sc.add(kGitLabToken, i, j)
	case r >= 22 && r <= 25:
		if u := strings.IndexByte(s[body:j], '_'); u >= 1 && u <= 4 && r-u-1 == 20 {
			for k := body; k < body+u; k++ {
				if !isAlnum(s[k]) {
					return
				}
			}
			sc.add(kGitLabToken, i, j)
		}
	}
}

// npm_token: npm_ and 36 of [A-Za-z0-9].
func (sc *scanner) npm(i int) {
	if hasPrefixFold(sc.s[i:], "npm_") {
		sc.fixedBody(kNPMToken, i, i+4, 36, isAlnum, false)
	}
}

// huggingface_token: hf_ (lower case only) and 34 of [A-Za-z0-9].
func (sc *scanner) huggingface(i int) {
	if strings.HasPrefix(sc.s[i:], "hf_") {
		sc.fixedBody(kHuggingFaceToken, i, i+3, 34, isAlnum, false)
	}
}

// slack_token: xoxb-, xoxp-, xoxa-, xoxr- or xoxe- and the structure of a
// Slack token: groups separated by '-', every group but the last 1–13
// digits, the last at least 20 letters and digits, at least 24 characters
// after the prefix. A rotating token's "xoxe." in front is included.
func (sc *scanner) slack(i int) {
	s := sc.s
	if len(s)-i < 29 || !hasPrefixFold(s[i:], "xox") || s[i+4] != '-' || strings.IndexByte("bpare", lower(s[i+3])) < 0 {
		return
	}
	body := i + 5
	j := runEnd(s, body, 513, func(c byte) bool { return isAlnum(c) || c == '-' })
	if j-body < 24 || j-body > 512 {
		return
	}
	groups := strings.Split(s[body:j], "-")
	if len(groups) < 2 {
		return
	}
	for _, g := range groups[:len(groups)-1] {
		if len(g) < 1 || len(g) > 13 {
			return
		}
		for k := 0; k < len(g); k++ {
			if !isDigit(g[k]) {
				return
			}
		}
	}
	if len(groups[len(groups)-1]) < 20 {
		return
	}
	start := i
	if i >= 5 && hasPrefixFold(s[i-5:], "xoxe.") {
		start = i - 5
	}
	sc.add(kSlackToken, start, j)
}

// slack_token, webhook form: hooks.slack.com/services/ then T and 8–12
// letters or digits, '/', B and 8–12 letters or digits, '/', and 24 letters
// and digits.
func (sc *scanner) slackWebhook(i int) {
	s := sc.s
	const host = "hooks.slack.com/services/"
	if !hasPrefixFold(s[i:], host) {
		return
	}
	j := i + len(host)
	for _, lead := range [...]byte{'t', 'b'} {
		if j >= len(s) || lower(s[j]) != lead {
			return
		}
		e := runEnd(s, j+1, 13, isAlnum)
		if n := e - j - 1; n < 8 || n > 12 || e >= len(s) || s[e] != '/' {
			return
		}
		j = e + 1
	}
	if end, ok := exact(s, j, 24, isAlnum); ok {
		sc.add(kSlackToken, i, end)
	}
}

// stripe_key: the secret and restricted keys sk_live_, sk_test_, rk_live_,
// rk_test_ and 24 to 247 letters and digits. Publishable keys (pk_) are
// meant to be public and are not reported.
func (sc *scanner) stripe(i int) {
	s := sc.s
	if len(s)-i < 32 || lower(s[i+1]) != 'k' || s[i+2] != '_' {
		return
	}
	if !hasPrefixFold(s[i+3:], "live_") && !hasPrefixFold(s[i+3:], "test_") {
		return
	}
	j := runEnd(s, i+8, 248, isAlnum)
	if n := j - i - 8; n >= 24 && n <= 247 {
		sc.add(kStripeKey, i, j)
	}
}

// openaiMarker is base64 of "OpenAI", which every OpenAI key carries.
const openaiMarker = "t3blbkfj"

// skDash reads the keys that start with sk-:
//
// anthropic_api_key: sk-ant-api03- or sk-ant-admin01- and exactly 95 of
// [A-Za-z0-9_-] ending in AA.
//
// openai_api_key: every OpenAI key carries the marker T3BlbkFJ at a fixed
// place. Current keys: sk-proj-, sk-svcacct- or sk-admin-, then 58 or 74 of
// [A-Za-z0-9_-], the marker, and 58 or 74 of [A-Za-z0-9_-]. Older keys:
// sk-, an optional name and '-' (sk-proj-, sk-None-…), then 20 letters and
// digits, the marker and 20 letters and digits. sk- followed by words has
// no marker and is not a key.
func (sc *scanner) skDash(i int) {
	s := sc.s
	if len(s)-i < 51 || !hasPrefixFold(s[i:], "sk-") {
		return
	}
	for _, p := range [...]string{"sk-ant-api03-", "sk-ant-admin01-"} {
		if hasPrefixFold(s[i:], p) {
			b := i + len(p)
			if end, ok := exact(s, b, 95, isB64URL); ok && lower(s[end-1]) == 'a' && lower(s[end-2]) == 'a' {
				sc.add(kAnthropicAPIKey, i, end)
			}
			return
		}
	}
	const maxRun = 32 + 74 + 8 + 74 // a name and the longest body
	b := i + 3
	j := runEnd(s, b, maxRun+1, isB64URL)
	if j-b > maxRun {
		return
	}
	run := s[b:j]
	m := indexFold(run, openaiMarker)
	if m < 0 {
		return
	}
	head, tail := run[:m], run[m+len(openaiMarker):]
	switch len(tail) {
	case 20:
		// [name-]20 + marker + 20, letters and digits around the marker.
		if len(head) < 20 || !all(head[len(head)-20:], isAlnum) || !all(tail, isAlnum) {
			return
		}
		if name := head[:len(head)-20]; name != "" && (len(name) < 2 || name[len(name)-1] != '-') {
			return
		}
	case 58, 74:
		var body string
		for _, p := range [...]string{"proj-", "svcacct-", "admin-"} {
			if hasPrefixFold(head, p) {
				body = head[len(p):]
				break
			}
		}
		if len(body) != 58 && len(body) != 74 {
			return
		}
	default:
		return
	}
	sc.add(kOpenAIAPIKey, i, j)
}

// indexFold returns the first index of p (lower case) in s ignoring ASCII
// case, or -1.
func indexFold(s, p string) int {
	for k := 0; k+len(p) <= len(s); k++ {
		if hasPrefixFold(s[k:], p) {
			return k
		}
	}
	return -1
}

// twilio_key: an API key SID, SK and 32 hexadecimal digits with at least one
// digit and one letter. Account SIDs (AC…) identify an account and are not
// secrets; auth tokens have no prefix and cannot be told from a hash.
func (sc *scanner) twilio(i int) {
	s := sc.s
	if len(s)-i < 34 || (s[i:i+2] != "SK" && s[i:i+2] != "sk") {
		return
	}
	end, ok := exact(s, i+2, 32, isHex)
	if !ok || (end < len(s) && isAlnum(s[end])) {
		return
	}
	digit, letter := false, false
	for k := i + 2; k < end; k++ {
		if isDigit(s[k]) {
			digit = true
		} else {
			letter = true
		}
	}
	if digit && letter {
		sc.add(kTwilioKey, i, end)
	}
}

// sendgrid_api_key: SG. and 22 of [A-Za-z0-9_-], a dot, and 43 of
// [A-Za-z0-9_-].
func (sc *scanner) sendgrid(i int) {
	s := sc.s
	if len(s)-i < 69 || !hasPrefixFold(s[i:], "sg.") {
		return
	}
	j := runEnd(s, i+3, 23, isB64URL)
	if j-i-3 != 22 || s[j] != '.' {
		return
	}
	if end, ok := exact(s, j+1, 43, isB64URL); ok {
		sc.add(kSendGridAPIKey, i, end)
	}
}

// telegramToken adds a finding for a bot token at i: 8 to 10 digits, ':' and
// exactly 35 of [A-Za-z0-9_-].
func (sc *scanner) telegramToken(i int) {
	s := sc.s
	d := runEnd(s, i, 11, isDigit)
	if n := d - i; n < 8 || n > 10 || d >= len(s) || s[d] != ':' {
		return
	}
	if end, ok := exact(s, d+1, 35, isB64URL); ok {
		sc.add(kTelegramBotToken, i, end)
	}
}

// telegram_bot_token, URL form: bot then the token (api.telegram.org/bot…).
func (sc *scanner) telegramBot(i int) {
	if hasPrefixFold(sc.s[i:], "bot") {
		sc.telegramToken(i + 3)
	}
}

// telegram_bot_token, plain form: the token alone, with its exact lengths.
func (sc *scanner) telegramPlain(i int) { sc.telegramToken(i) }

// jwt: three (or, encrypted, five) base64url segments separated by dots,
// the header starting with eyJ and decoding to a JSON object that has an
// "alg" member; the last segment may be empty (an unsecured JWT). The
// token must not be glued to other base64url text.
func (sc *scanner) jwt(i int) {
	s := sc.s
	if !strings.HasPrefix(s[i:], "eyJ") || (i > 0 && (isB64URL(s[i-1]) || s[i-1] == '.')) {
		return
	}
	h := runEnd(s, i, len(s), isB64URL)
	if h-i > maxJWTHeader || h >= len(s) || s[h] != '.' {
		return
	}
	p := runEnd(s, h+1, len(s), isB64URL)
	if p == h+1 || p >= len(s) || s[p] != '.' {
		return
	}
	end := runEnd(s, p+1, len(s), isB64URL)
	// An encrypted token has two more segments.
	if end < len(s) && s[end] == '.' {
		e4 := runEnd(s, end+1, len(s), isB64URL)
		if e4 < len(s) && s[e4] == '.' {
			end = runEnd(s, e4+1, len(s), isB64URL)
		}
	}
	if !jwtHeader(s[i:h]) {
		return
	}
	sc.add(kJWT, i, end)
}

// jwtHeader reports whether seg is base64url of a JSON object with "alg".
func jwtHeader(seg string) bool {
	raw, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return false
	}
	var hdr map[string]json.RawMessage
	if json.Unmarshal(raw, &hdr) != nil {
		return false
	}
	_, ok := hdr["alg"]
	return ok
}

// afterKeyword returns where the token after an authorization scheme word
// of length n at i starts: one to four spaces, tabs or '+' (a form-encoded
// space; %20 is decoded before). plus reports a '+' separator, after which
// '+' ends the token too.
func (sc *scanner) afterKeyword(i, n int) (start int, plus, ok bool) {
	s := sc.s
	j := i + n
	for j < len(s) && j-i-n < maxSepBytes && (s[j] == ' ' || s[j] == '\t' || s[j] == '+') {
		plus = plus || s[j] == '+'
		j++
	}
	if j == i+n || j >= len(s) || j < sc.tokenEnd {
		return 0, false, false
	}
	return j, plus, true
}

// isToken68 is the token68 alphabet of RFC 9110 plus '%' for escapes that
// the normaliser left as they were.
func isToken68(c byte) bool {
	return isAlnum(c) || strings.IndexByte("-._~+/=%", c) >= 0
}

// bearer_token: the word bearer (any case), a separator, and a token of at
// least 20 token68 characters with a letter and a digit. "Bearer and a
// phrase" has no such token.
func (sc *scanner) bearer(i int) {
	if !hasPrefixFold(sc.s[i:], "bearer") {
		return
	}
	t, plus, ok := sc.afterKeyword(i, 6)
	if !ok {
		return
	}
	s := sc.s
	in := isToken68
	if plus {
		in = func(c byte) bool { return c != '+' && isToken68(c) }
	}
	e := runEnd(s, t, maxTokenBytes+1, in)
	sc.tokenEnd = e
	if e-t > maxTokenBytes {
		return
	}
	for e > t && (s[e-1] == '.' || s[e-1] == ',') {
		e--
	}
	if e-t < 20 {
		return
	}
	digit, letter := false, false
	for k := t; k < e; k++ {
		digit = digit || isDigit(s[k])
		letter = letter || isLetter(s[k])
	}
	if digit && letter {
		sc.add(kBearerToken, t, e)
	}
}

// basic_auth: the word basic (any case, as in Authorization: Basic), a
// separator, and standard base64 that decodes to printable UTF-8 text of the
// form user:password with both parts non-empty.
func (sc *scanner) basic(i int) {
	if !hasPrefixFold(sc.s[i:], "basic") {
		return
	}
	t, plus, ok := sc.afterKeyword(i, 5)
	if !ok {
		return
	}
	s := sc.s
	in := isB64
	if plus {
		in = isAlnumOrSlash
	}
	e := runEnd(s, t, maxTokenBytes+1, in)
	sc.tokenEnd = e
	if e-t > maxTokenBytes || e-t < 4 {
		return
	}
	pad := runEnd(s, e, 3, func(c byte) bool { return c == '=' })
	if pad-e > 2 || (pad > e && pad < len(s) && isB64(s[pad])) {
		return
	}
	tok := s[t:pad]
	var raw []byte
	var err error
	if pad > e || len(tok)%4 == 0 {
		raw, err = base64.StdEncoding.DecodeString(tok)
	} else {
		raw, err = base64.RawStdEncoding.DecodeString(tok)
	}
	if err != nil || !userPass(raw) {
		return
	}
	sc.add(kBasicAuth, t, pad)
}

func isAlnumOrSlash(c byte) bool { return isAlnum(c) || c == '/' }

// userPass reports whether b is printable UTF-8 text "user:password" with
// both parts non-empty.
func userPass(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	colon := -1
	for k, r := range string(b) {
		if r < 0x20 || r == 0x7F || r == utf8.RuneError {
			return false
		}
		if r == ':' && colon < 0 {
			colon = k
		}
	}
	return colon > 0 && colon < len(b)-1
}

// keyClass is what a name before = or : asks of its value.
type keyClass uint8

const (
	keyNone keyClass = iota
	keyAWSSecret
	keyAzure
	keyPassword
	keyPwd
)

// keyEndsWith reports whether the name ends with word (lower case),
// ignoring case and the separators '_', '-' and '.' inside the name.
func keyEndsWith(name, word string) bool {
	k := len(name)
	for w := len(word) - 1; w >= 0; w-- {
		for k > 0 && (name[k-1] == '_' || name[k-1] == '-' || name[k-1] == '.') {
			k--
		}
		if k == 0 || lower(name[k-1]) != word[w] {
			return false
		}
		k--
	}
	return true
}

func isKeyChar(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' }

// classify returns the class of the name that ends at the assignment at op
// (after optional spaces and a closing quote).
func (sc *scanner) classify(op int) keyClass {
	s := sc.s
	k := op
	for n := 0; k > 0 && n < maxSepBytes && (s[k-1] == ' ' || s[k-1] == '\t'); n++ {
		k--
	}
	if k > 0 && isQuote(s[k-1]) {
		k--
	}
	if k == 0 {
		return keyNone
	}
	// Every name below ends in d, t or y: most assignments stop here.
	if last := lower(s[k-1]); last != 'd' && last != 't' && last != 'y' {
		return keyNone
	}
	end := k
	for k > 0 && end-k < maxKeyBytes && isKeyChar(s[k-1]) {
		k--
	}
	name := s[k:end]
	switch {
	case keyEndsWith(name, "secretaccesskey"):
		return keyAWSSecret
	case keyEndsWith(name, "accountkey"):
		return keyAzure
	case keyEndsWith(name, "password"), keyEndsWith(name, "passwd"),
		keyEndsWith(name, "secret"), keyEndsWith(name, "secretkey"):
		return keyPassword
	case keyEndsWith(name, "pwd"):
		return keyPwd
	}
	return keyNone
}

// isValueEnd ends an unquoted value.
func isValueEnd(c byte) bool {
	return isSpace(c) || c >= utf8.RuneSelf || strings.IndexByte("&,;\"'`()[]{}<>|", c) >= 0
}

// assignment reads the value given to a name at '=' or ':' (also :=, =>,
// and their %3D / %3A forms, decoded before):
//
// aws_secret_access_key: a name ending in secret_access_key (any case and
// separators: aws_secret_access_key, AWS_SECRET_ACCESS_KEY,
// SecretAccessKey) and a value of exactly 40 of [A-Za-z0-9/+], except the
// documentation's example, which ends in EXAMPLEKEY.
//
// azure_account_key: AccountKey and a value of 86 of [A-Za-z0-9/+] and ==.
//
// password_value: a name ending in password, passwd, pwd, secret (so also
// client_secret) or secret_key, and a value of at least 8 characters with a
// digit or an ASCII symbol other than - _ . ("password=configuration"
// passes).
// Placeholders, labels, sentences and code pass: a value starting with
// $ < { [, made of one repeated character, holding a space (quoted prose),
// a word and a colon ("Password:"), or followed by ( or [ (a call or an
// index). After "name: " (a colon, a space and no quote, as in prose) the
// value needs a digit and either a symbol or both cases. A pwd value that
// starts like a path (/ ~ .) is a working directory, not a password. The
// value ends at white space, a non-ASCII character or one of & , ; quotes
// ( ) [ ] { } < > |; a quoted value ends at its quote or the line's end.
func (sc *scanner) assignment(op int) {
	if op < sc.longValueEnd {
		return
	}
	class := sc.classify(op)
	if class == keyNone {
		return
	}
	s := sc.s
	v := op + 1
	if v < len(s) && ((s[op] == ':' && s[v] == '=') || (s[op] == '=' && s[v] == '>')) {
		v++
	} else if v < len(s) && s[v] == '=' {
		return // a comparison
	}
	spaced := false
	for n := 0; v < len(s) && n < maxSepBytes && (s[v] == ' ' || s[v] == '\t'); n++ {
		v++
		spaced = true
	}
	var quote byte
	if v < len(s) && isQuote(s[v]) {
		quote = s[v]
		v++
	}
	e := v
	for e < len(s) && e-v <= maxValueBytes {
		c := s[e]
		if quote != 0 && (c == quote || c == '\n' || c == '\r') || quote == 0 && isValueEnd(c) {
			break
		}
		e++
	}
	if e-v > maxValueBytes {
		sc.longValueEnd = e
		return
	}
	if e == v {
		return
	}
	if quote == 0 && e < len(s) && (s[e] == '(' || s[e] == '[') {
		return // an expression such as os.getenv("X") or env["X"]
	}
	val := s[v:e]
	switch class {
	case keyAWSSecret:
		if len(val) == 40 && all(val, isB64) && !strings.HasSuffix(val, "EXAMPLEKEY") {
			sc.add(kAWSSecretAccessKey, v, e)
		}
	case keyAzure:
		if len(val) == 88 && strings.HasSuffix(val, "==") && all(val[:86], isB64) {
			sc.add(kAzureAccountKey, v, e)
		}
	case keyPwd:
		if strings.IndexByte("/~.", val[0]) >= 0 {
			return
		}
		fallthrough
	case keyPassword:
		if passwordLike(val, s[op] == ':' && spaced && quote == 0) {
			sc.add(kPasswordValue, v, e)
		}
	}
}

func all(s string, in func(byte) bool) bool {
	for k := 0; k < len(s); k++ {
		if !in(s[k]) {
			return false
		}
	}
	return true
}

// passwordLike is the value test of password_value; prose is the stricter
// test after "name: ".
func passwordLike(v string, prose bool) bool {
	// Words with spaces are a sentence, and a trailing colon ends a label
	// ("Password:").
	if strings.ContainsAny(v, " \t") {
		return false
	}
	v = strings.TrimSuffix(v, ":")
	if utf8.RuneCountInString(v) < 8 || strings.IndexByte("$<{[", v[0]) >= 0 {
		return false
	}
	if strings.Count(v, v[:1]) == len(v) {
		return false
	}
	var digit, symbol, upper, lowerCase bool
	for k := 0; k < len(v); k++ {
		c := v[k]
		switch {
		case isDigit(c):
			digit = true
		case isUpper(c):
			upper = true
		case isLower(c):
			lowerCase = true
		case c == '-' || c == '_' || c == '.' || c >= utf8.RuneSelf:
		default:
			symbol = true
		}
	}
	if prose {
		return digit && (symbol || upper && lowerCase)
	}
	return digit || symbol
}

// userinfo reads the URL at "://" (the colon at i): url_password is a
// password in the user information of a URL with a scheme,
// scheme://user:password@host, that passes urlPasswordLike.
// host.example:8080@mirror has no scheme and passes; so does a user that
// looks like a host name followed by a port-like number
// (https://host.example:8080@mirror), a host-and-port mistake, not a
// password.
func (sc *scanner) userinfo(i int) {
	s := sc.s
	if i+3 >= len(s) || s[i+1] != '/' || s[i+2] != '/' {
		return
	}
	k := i
	for k > 0 && i-k < 32 && (isAlnum(s[k-1]) || s[k-1] == '+' || s[k-1] == '.' || s[k-1] == '-') {
		k--
	}
	if k == i || !isLetter(s[k]) {
		return
	}
	a := i + 3
	at := -1
	e := a
	for ; e < len(s) && e-a < maxAuthBytes; e++ {
		c := s[e]
		if c == '/' || c == '?' || c == '#' || c == '\\' || c <= ' ' || c == 0x7F || strings.IndexByte("<>\"`", c) >= 0 {
			break
		}
		if c == '@' {
			at = e
		}
	}
	if at < 0 || e-a >= maxAuthBytes {
		return
	}
	colon := strings.IndexByte(s[a:at], ':')
	if colon < 0 {
		return
	}
	user, pw := s[a:a+colon], s[a+colon+1:at]
	if !urlPasswordLike(pw) {
		return
	}
	if strings.IndexByte(user, '.') >= 0 && len(pw) <= 5 && all(pw, isDigit) {
		return
	}
	sc.add(kURLPassword, a+colon+1, at)
}

// urlPasswordLike is the test of a URL password: not a placeholder or a
// format verb (a first character among $ { [ % * or one repeated
// character; "user:password@" and "user:pass@" in documentation), and a
// digit, an ASCII symbol other than - _ ., or both cases.
func urlPasswordLike(pw string) bool {
	if pw == "" || strings.IndexByte("${[%*", pw[0]) >= 0 || strings.Count(pw, pw[:1]) == len(pw) {
		return false
	}
	var up, lo bool
	for k := 0; k < len(pw); k++ {
		c := pw[k]
		switch {
		case isDigit(c):
			return true
		case isUpper(c):
			up = true
		case isLower(c):
			lo = true
		case c == '-' || c == '_' || c == '.' || c >= utf8.RuneSelf:
		default:
			return true
		}
	}
	return up && lo
}

// pem: private_key is a PEM header -----BEGIN … PRIVATE KEY----- (any
// label, e.g. RSA, EC, OPENSSH, ENCRYPTED; also PGP PRIVATE KEY BLOCK), any
// case. The finding covers the header, the body lines that follow (base64
// and the Proc-Type / DEK-Info headers) and the END line when present.
func (sc *scanner) pem(i int) {
	s := sc.s
	const begin = "-----begin "
	if (i > 0 && s[i-1] == '-') || !hasPrefixFold(s[i:], begin) {
		return
	}
	l := i + len(begin)
	close := strings.Index(s[l:min(len(s), l+64)], "-----")
	if close < 0 {
		return
	}
	label := strings.ToLower(s[l : l+close])
	if !strings.HasSuffix(label, "private key") && !strings.HasSuffix(label, "private key block") {
		return
	}
	if !all(label, func(c byte) bool { return isAlnum(c) || c == ' ' }) {
		return
	}
	end := l + close + 5
	for j := end; j < len(s); {
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		if hasPrefixFold(s[j:], "-----end ") {
			if c := strings.Index(s[j+9:min(len(s), j+9+64)], "-----"); c >= 0 {
				end = j + 9 + c + 5
			}
			break
		}
		t := j
		for t < len(s) && (isB64(s[t]) || strings.IndexByte("=:,-", s[t]) >= 0) && !strings.HasPrefix(s[t:], "-----") {
			t++
		}
		if t == j || !pemLine(s[j:t]) {
			break
		}
		end, j = t, t
	}
	sc.add(kPrivateKey, i, end)
}

// pemLine reports whether a word after a PEM header belongs to the block:
// base64 or a header such as Proc-Type: 4,ENCRYPTED, told from prose by a
// digit, a base64 symbol, or both cases.
func pemLine(w string) bool {
	if strings.HasPrefix(w, "-----") {
		return false
	}
	var digit, sym, up, lo bool
	for k := 0; k < len(w); k++ {
		c := w[k]
		switch {
		case isDigit(c):
			digit = true
		case isUpper(c):
			up = true
		case isLower(c):
			lo = true
		default:
			sym = true
		}
	}
	return digit || sym || up && lo
}
