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
// Each kind covers every token family its provider issues, as public
// references list them (prefix, length, alphabet); each rule below names
// its families.
//
// "In lower case": prefixes that are upper case in the real format (AKIA,
// ASIA, ABIA, ACCA, A3T, AIza, SK, SG., GR1348941) are also found written
// in lower case, with a body in the same case where the real body is upper
// case only (AWS). Prefixes that are lower case in the real format (ghp_,
// glpat-, npm_, xoxb-, xapp-, sk_live_, sk-ant-, bearer, basic, bot…) are
// found in any case, except hf_ and api_org_, whose upper-case forms are
// prefixes of ordinary environment names.

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
	// b64End is where the last text read as a base64-encoded JWT ended: a
	// line inside it starts no second read.
	b64End int
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
			if ruleStart[c] != 0 {
				sc.word(i, j)
			}
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
			if i+1 < len(s) && s[i+1] == '-' {
				sc.pem(i)
			}
		}
		i++
	}
}

// ruleStart marks the bytes a word must start with for word to try a rule
// (a b e g h n r s x in either case, Z, and the digits): most words of
// prose start elsewhere and cost no call. A constant, so nothing can
// change it.
const ruleStart = "" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00" +
	"\x00\x01\x01\x00\x00\x01\x00\x01\x01\x00\x00\x00\x00\x00\x01\x00" + // @ A–O
	"\x00\x00\x01\x01\x00\x00\x00\x00\x01\x00\x01\x00\x00\x00\x00\x00" + // P–Z
	"\x00\x01\x01\x00\x00\x01\x00\x01\x01\x00\x00\x00\x00\x00\x01\x00" + // ` a–o
	"\x00\x00\x01\x01\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00" + // p–z
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

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
		switch {
		case n == 20:
			sc.awsAccessKeyID(i)
		case n == 3 && next == '_':
			sc.huggingfaceOrg(i)
		}
		if n >= 4 && lower(s[i+1]) == 'i' {
			sc.googleAPIKey(i)
		}
	case 'b':
		switch {
		case n == 6 && lower(s[i+1]) == 'e':
			sc.bearer(i)
		case n == 5 && lower(s[i+1]) == 'a':
			sc.basic(i)
		case n >= 11 && n <= 13 && next == ':':
			sc.telegramBot(i)
		}
	case 'e':
		if n >= 3 && s[i+1] == 'y' && s[i+2] == 'J' {
			sc.jwt(i)
		}
	case 'g':
		switch {
		case (n == 3 || n == 6) && next == '_':
			sc.github(i)
			if n == 6 {
				sc.gitlabSession(i)
			}
		case n >= 4 && n <= 7 && next == '-':
			sc.gitlab(i)
		case n >= 9 && s[i+2] == '1':
			sc.gitlabRunnerRegistration(i)
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
	case 'z':
		if n >= 4 && s[i+1] == 'X' {
			sc.jwtBase64(i)
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

// decimalDigits is the set of the decimal digits, for strings.IndexAny.
const decimalDigits = "0123456789"

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

// aws_access_key_id: one of the prefixes of an access key id, then 16 of
// the base32 alphabet [A-Z2-7], 20 characters in all, not followed by a
// letter or digit. The prefixes: AKIA (a long-term key), ASIA (a temporary
// key of STS), ABIA (an STS service bearer token), ACCA (a context-specific
// credential) and A3T with one more letter or digit (the oldest keys).
// After a prefix of letters the body must hold a digit (a 20-letter word
// after ASIA is not a key). Also all in lower case (akia…). The unique
// identifiers of other IAM objects (AIDA, AROA…) are not credentials, nor
// are the documentation's examples, which end in EXAMPLE.
func (sc *scanner) awsAccessKeyID(i int) {
	s := sc.s
	if len(s)-i < 20 {
		return
	}
	var upper, a3t bool
	switch p := s[i : i+4]; p {
	case "AKIA", "ASIA", "ABIA", "ACCA":
		upper = true
	case "akia", "asia", "abia", "acca":
	default:
		switch {
		case p[:3] == "A3T" && (isUpper(p[3]) || isDigit(p[3])):
			upper, a3t = true, true
		case p[:3] == "a3t" && (isLower(p[3]) || isDigit(p[3])):
			a3t = true
		default:
			return
		}
	}
	digit := a3t
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

// gitlabFamilies are the GitLab token prefixes, each with the length of
// the body that family has besides the forms common to all (see gitlab).
var gitlabFamilies = [...]struct {
	prefix string
	body   int  // a further body length of this family, 0 for none
	hex    bool // that body is hexadecimal
}{
	{"glpat-", 0, false},    // personal, project, group and impersonation tokens
	{"gloas-", 64, false},   // OAuth application secret
	{"gldt-", 0, false},     // deploy token
	{"glrt-", 0, false},     // runner authentication token
	{"glrtr-", 0, false},    // runner registration token
	{"glcbt-", 0, false},    // CI/CD job token
	{"glptt-", 40, true},    // pipeline trigger token
	{"glft-", 0, false},     // feed token
	{"glimt-", 25, false},   // incoming mail token
	{"glagent-", 50, false}, // agent for Kubernetes token
	{"glsoat-", 0, false},   // SCIM token
	{"glffct-", 0, false},   // feature flags client token
}

// gitlab_token: a GitLab prefix (gitlabFamilies) and either the legacy
// body of exactly 20 of [A-Za-z0-9_-] (optionally after a partition or
// type part of 1 to 5 letters and digits and '_', such as "64_" or "t1_"),
// the body of the family's own length (64 for an OAuth application secret,
// 40 hexadecimal digits for a pipeline trigger token, 25 for an incoming
// mail token, 50 for an agent token), or a routable token: 27 to 300 of
// [A-Za-z0-9_-], a dot, optionally 2 lower-case letters or digits and a
// dot (the version), and 9 lower-case letters or digits.
func (sc *scanner) gitlab(i int) {
	s := sc.s
	if len(s)-i < 25 || lower(s[i+1]) != 'l' {
		return
	}
	body, fam := 0, -1
	for f, p := range gitlabFamilies {
		if hasPrefixFold(s[i:], p.prefix) {
			body, fam = i+len(p.prefix), f
			break
		}
	}
	if fam < 0 {
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
	f := gitlabFamilies[fam]
	switch {
	case r == 20:
		sc.add(kGitLabToken, i, j)
	case f.body > 0 && r == f.body && (!f.hex || all(s[body:j], isHex)):
		sc.add(kGitLabToken, i, j)
	case r >= 22 && r <= 26:
		if u := strings.IndexByte(s[body:j], '_'); u >= 1 && u <= 5 && r-u-1 == 20 && all(s[body:body+u], isAlnum) {
			sc.add(kGitLabToken, i, j)
		}
	}
}

// gitlab_token, runner registration token of the legacy form: GR1348941
// (or gr1348941) and exactly 20 of [A-Za-z0-9_-].
func (sc *scanner) gitlabRunnerRegistration(i int) {
	s := sc.s
	if len(s)-i < 29 || s[i+2] != '1' || (!strings.HasPrefix(s[i:], "GR1348941") && !strings.HasPrefix(s[i:], "gr1348941")) {
		return
	}
	if end, ok := exact(s, i+9, 20, isB64URL); ok {
		sc.add(kGitLabToken, i, end)
	}
}

// gitlab_token, session cookie: the value of _gitlab_session=, 32
// lower-case letters and digits. The finding covers the value.
func (sc *scanner) gitlabSession(i int) {
	s := sc.s
	const p = "gitlab_session="
	if len(s)-i < len(p)+32 || !hasPrefixFold(s[i:], p) {
		return
	}
	v := i + len(p)
	end := runEnd(s, v, 33, isWord)
	if end-v == 32 && all(s[v:end], isLowerAlnum) {
		sc.add(kGitLabToken, v, end)
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

// huggingface_token, organization API token: api_org_ (lower case only,
// as hf_) and 34 of [A-Za-z0-9].
func (sc *scanner) huggingfaceOrg(i int) {
	if strings.HasPrefix(sc.s[i:], "api_org_") {
		sc.fixedBody(kHuggingFaceToken, i, i+8, 34, isAlnum, false)
	}
}

// slack_token: a Slack prefix and the structure of a Slack token, groups
// separated by '-'. The prefixes: xoxb- (bot), xoxp- (user), xoxe-
// (rotating and refresh), xoxa- and xoxr- (workspace), xoxo- and xoxs-
// (legacy) and xapp- (app-level).
//
// After xox?-: every group but the last 1–14 digits, the last at least 18
// letters and digits, at least 24 characters after the prefix; a legacy
// xoxo- or xoxs- token has three groups of digits and a hexadecimal last
// group. A rotating token's "xoxe." in front is included. A workspace token
// may also be short: xoxa- or xoxr-, optionally a digit and '-', then 8 to
// 48 letters and digits with a digit among them ("xoxr-refreshes" is a
// word).
//
// After xapp-: a digit, the app's id (letters and digits), a number, and at
// least 18 letters and digits.
//
// Hyphenated words after a prefix ("xoxb-this-is-not-a-token") are not a
// token: a group of letters may only come last.
func (sc *scanner) slack(i int) {
	s := sc.s
	if len(s)-i < 13 || s[i+4] != '-' {
		return
	}
	var fam byte
	switch {
	case hasPrefixFold(s[i:], "xapp"):
		fam = '@'
	case hasPrefixFold(s[i:], "xox") && strings.IndexByte("bpareos", lower(s[i+3])) >= 0:
		fam = lower(s[i+3])
	default:
		return
	}
	body := i + 5
	j := runEnd(s, body, 513, func(c byte) bool { return isAlnum(c) || c == '-' })
	if j-body > 512 {
		return
	}
	// The groups, read without allocating: the first three, the last, how
	// many, and whether every group but the last is 1–14 digits.
	var g [3]string
	var last string
	n, numbered := 0, true
	for rest := s[body:j]; ; n++ {
		k := strings.IndexByte(rest, '-')
		grp := rest
		if k >= 0 {
			grp = rest[:k]
		}
		if n < len(g) {
			g[n] = grp
		}
		if k < 0 {
			last = grp
			n++
			break
		}
		numbered = numbered && len(grp) >= 1 && len(grp) <= 14 && all(grp, isDigit)
		rest = rest[k+1:]
	}
	var ok bool
	switch fam {
	case '@':
		ok = n == 4 && len(g[0]) == 1 && isDigit(g[0][0]) &&
			g[1] != "" && len(g[1]) <= 32 &&
			len(g[2]) >= 1 && len(g[2]) <= 20 && all(g[2], isDigit) &&
			len(last) >= 18
	default:
		ok = j-body >= 24 && n >= 2 && numbered && len(last) >= 18
		if fam == 'o' || fam == 's' {
			ok = ok && n >= 4 && all(last, isHex)
		}
		if !ok && (fam == 'a' || fam == 'r') {
			// The short workspace form: one group, or a digit and one.
			short := n == 1 || n == 2 && len(g[0]) == 1 && isDigit(g[0][0])
			ok = short && len(last) >= 8 && len(last) <= 48 && strings.IndexAny(last, decimalDigits) >= 0 && (j == len(s) || s[j] != '_')
		}
	}
	if !ok {
		return
	}
	start := i
	if i >= 5 && hasPrefixFold(s[i-5:], "xoxe.") {
		start = i - 5
	}
	sc.add(kSlackToken, start, j)
}

// slack_token, webhook forms: hooks.slack.com/, then services/ and T and
// 8–12 letters or digits, '/', B and 8–12 letters or digits, '/', and 24
// letters and digits (an incoming webhook); or workflows/ or triggers/ and
// a path of at least 43 characters in at least three segments of letters
// and digits, the first T and 8–12 letters or digits (the workspace), the
// last at least 20 (the secret).
func (sc *scanner) slackWebhook(i int) {
	s := sc.s
	const host = "hooks.slack.com/"
	if !hasPrefixFold(s[i:], host) {
		return
	}
	j := i + len(host)
	switch {
	case hasPrefixFold(s[j:], "services/"):
		j += len("services/")
	case hasPrefixFold(s[j:], "workflows/"):
		sc.slackWorkflowHook(i, j+len("workflows/"))
		return
	case hasPrefixFold(s[j:], "triggers/"):
		sc.slackWorkflowHook(i, j+len("triggers/"))
		return
	default:
		return
	}
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

// maxHookPath bounds the path of a workflow webhook.
const maxHookPath = 256

// slackWorkflowHook reads the path at p of a workflow or trigger webhook
// whose host starts at i.
func (sc *scanner) slackWorkflowHook(i, p int) {
	s := sc.s
	e := runEnd(s, p, maxHookPath+1, isAlnumOrSlash)
	if e-p > maxHookPath || (e < len(s) && isWord(s[e])) {
		return
	}
	for e > p && s[e-1] == '/' {
		e--
	}
	if e-p < 43 || lower(s[p]) != 't' {
		return
	}
	// At least three segments, none empty, the first T and 8–12, the last
	// at least 20.
	path := s[p:e]
	first := strings.IndexByte(path, '/')
	lastSlash := strings.LastIndexByte(path, '/')
	if first < 9 || first > 13 || first == lastSlash || len(path)-lastSlash-1 < 20 || strings.Contains(path, "//") {
		return
	}
	sc.add(kSlackToken, i, e)
}

// stripe_key: the secret and restricted keys, sk_ or rk_ then live_,
// test_ or prod_, and 24 to 247 letters and digits. Publishable keys (pk_)
// are meant to be public and are not reported.
func (sc *scanner) stripe(i int) {
	s := sc.s
	if len(s)-i < 32 || lower(s[i+1]) != 'k' || s[i+2] != '_' {
		return
	}
	if !hasPrefixFold(s[i+3:], "live_") && !hasPrefixFold(s[i+3:], "test_") && !hasPrefixFold(s[i+3:], "prod_") {
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
	if i > 0 && (isB64URL(sc.s[i-1]) || sc.s[i-1] == '.') {
		return
	}
	if end, ok := jwtSpan(sc.s, i); ok {
		sc.add(kJWT, i, end)
	}
}

// jwtSpan reports whether s[i:] starts with a JWT and returns its end.
func jwtSpan(s string, i int) (int, bool) {
	if !strings.HasPrefix(s[i:], "eyJ") {
		return 0, false
	}
	h := runEnd(s, i, len(s), isB64URL)
	if h-i > maxJWTHeader || h >= len(s) || s[h] != '.' {
		return 0, false
	}
	p := runEnd(s, h+1, len(s), isB64URL)
	if p == h+1 || p >= len(s) || s[p] != '.' {
		return 0, false
	}
	end := runEnd(s, p+1, len(s), isB64URL)
	// An encrypted token has two more segments.
	if end < len(s) && s[end] == '.' {
		e4 := runEnd(s, end+1, len(s), isB64URL)
		if e4 < len(s) && s[e4] == '.' {
			end = runEnd(s, e4+1, len(s), isB64URL)
		}
	}
	return end, jwtHeader(s[i:h])
}

// maxJWTBase64 bounds the text read as a base64-encoded JWT.
const maxJWTBase64 = 16 << 10

// jwt, base64-encoded: base64 text starting with ZXlK (the encoding of
// "eyJ"), with or without padding, whose decoded text is a JWT as above and
// nothing more but trailing white space. The base64 of a JWT holds only
// letters and digits (every byte of a JWT is below '>'), so the text is
// letters and digits, optionally wrapped into lines whose lengths are
// multiples of 4, then up to two '='. It must not be glued to other base64.
func (sc *scanner) jwtBase64(i int) {
	s := sc.s
	if i < sc.b64End || !strings.HasPrefix(s[i:], "ZXlK") || (i > 0 && isB64(s[i-1])) {
		return
	}
	var b strings.Builder
	e := i
	for {
		r := runEnd(s, e, maxJWTBase64+1-b.Len(), isAlnum)
		b.WriteString(s[e:r])
		e = r
		if b.Len() > maxJWTBase64 {
			sc.b64End = e
			return
		}
		brk := 0
		switch {
		case strings.HasPrefix(s[e:], "\r\n"):
			brk = 2
		case strings.HasPrefix(s[e:], "\n"):
			brk = 1
		}
		if brk == 0 || b.Len()%4 != 0 || e+brk >= len(s) || !isAlnum(s[e+brk]) {
			break
		}
		e += brk
	}
	sc.b64End = e
	pad := runEnd(s, e, 3, func(c byte) bool { return c == '=' })
	if pad-e > 2 || (pad < len(s) && (isB64(s[pad]) || s[pad] == '=')) {
		return
	}
	raw, err := base64.RawStdEncoding.DecodeString(b.String())
	if err != nil {
		return
	}
	dec := strings.TrimRight(string(raw), " \t\r\n")
	if end, ok := jwtSpan(dec, 0); ok && end == len(dec) {
		sc.add(kJWT, i, pad)
	}
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
// starts like a path (/ ~ .) is a working directory, not a password; any
// value that is a relative or absolute file path (./pw.txt, ../x/pw,
// ~/pw, /run/secrets/pw) names a file, not a password. The
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
		if filePath(val) {
			return // a file that holds the password (--from-file=password=./pw.txt)
		}
		if passwordLike(val, s[op] == ':' && spaced && quote == 0) {
			sc.add(kPasswordValue, v, e)
		}
	}
}

// filePath reports whether v is a file path: it starts with ./ ../ or ~/,
// or with / and holds a second /.
func filePath(v string) bool {
	switch {
	case strings.HasPrefix(v, "./"), strings.HasPrefix(v, "../"), strings.HasPrefix(v, "~/"):
		return true
	case strings.HasPrefix(v, "/"):
		return strings.IndexByte(v[1:], '/') > 0
	}
	return false
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

// urlPasswordLike is the test of a URL password: any password but a
// template or a format verb (a first character among $ { [ % *) and a mask
// (one repeated character, as in "***" or "xxxx"). A password of words
// is a password: the book's own example, https://user:password@host/, is
// refused.
func urlPasswordLike(pw string) bool {
	return pw != "" && strings.IndexByte("${[%*", pw[0]) < 0 && strings.Count(pw, pw[:1]) != len(pw)
}

// maxPEMLabel bounds the label of a PEM header.
const maxPEMLabel = 128

// pem: private_key is a PEM header -----BEGIN … PRIVATE KEY----- (any
// label of letters, digits, spaces, '_' and '-', e.g. RSA, EC, OPENSSH,
// ENCRYPTED; also PGP PRIVATE KEY BLOCK), any case. The finding covers the header, the body lines that follow (base64
// and the Proc-Type / DEK-Info headers) and the END line when present.
func (sc *scanner) pem(i int) {
	s := sc.s
	const begin = "-----begin "
	if (i > 0 && s[i-1] == '-') || !hasPrefixFold(s[i:], begin) {
		return
	}
	l := i + len(begin)
	close := strings.Index(s[l:min(len(s), l+maxPEMLabel)], "-----")
	if close < 0 {
		return
	}
	label := strings.ToLower(s[l : l+close])
	if !strings.HasSuffix(label, "private key") && !strings.HasSuffix(label, "private key block") {
		return
	}
	if !all(label, func(c byte) bool { return isAlnum(c) || c == ' ' || c == '_' || c == '-' }) {
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
