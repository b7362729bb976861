package robots

import (
	"strings"
	"testing"
	"time"
)

// verdicts is one robots.txt and the answers it must give.
type verdicts struct {
	name   string
	body   string
	checks []check
}

type check struct {
	product string
	path    string
	want    bool
}

func runVerdicts(t *testing.T, cases []verdicts) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Parse([]byte(tc.body))
			for _, c := range tc.checks {
				if got := r.Allowed(c.product, c.path); got != c.want {
					t.Errorf("Allowed(%q, %q) = %v, want %v", c.product, c.path, got, c.want)
				}
			}
		})
	}
}

// rfc9309Simple is the file of RFC 9309 §5.1.
const rfc9309Simple = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`

func TestREQ_CMP_005_RFC9309Examples(t *testing.T) {
	runVerdicts(t, []verdicts{
		{"5.1 simple example", rfc9309Simple, []check{
			// foobot: only the two allowed files.
			{"foobot", "/example/page.html", true},
			{"foobot", "/example/allowed.gif", true},
			{"foobot", "/example/other.html", false},
			{"foobot", "/", false},
			{"foobot", "/publications/", false},
			// barbot and bazbot share one group and never fall back to "*".
			{"barbot", "/example/page.html", false},
			{"bazbot", "/example/page.html", false},
			{"barbot", "/example/other.html", true},
			{"bazbot", "/picture.gif", true},
			// quxbot's group has no rules: everything is allowed.
			{"quxbot", "/example/page.html", true},
			{"quxbot", "/picture.gif", true},
			// Everyone else obeys "*".
			{Product, "/picture.gif", false},
			{Product, "/a/b/picture.gif", false},
			{Product, "/picture.gif?size=2", true},
			{Product, "/picture.gifs", true},
			{Product, "/example/", false},
			{Product, "/example/page.html", false},
			{Product, "/example", true},
			{Product, "/publications/", true},
			{Product, "/publications/cover.gif", true}, // 14 octets beat 6
			{Product, "/about", true},
		}},
		{"5.2 longest match", "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n", []check{
			{"foobot", "/example/page/", true},
			{"foobot", "/example/page/other.gif", true},
			{"foobot", "/example/page/disallowed.gif", false},
			{"foobot", "/example/page/disallowed.gifs", false},
		}},
	})
}

func TestREQ_CMP_005_MatchingGroupsAreMerged(t *testing.T) {
	runVerdicts(t, []verdicts{
		{"two groups for rypsok (RFC 9309 §2.2.1)", "user-agent: rypsok\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: other\ndisallow: /qux\n\nuser-agent: RYPSOK\ndisallow: /baz\n", []check{
			{Product, "/foo", false},
			{Product, "/bar", false},
			{Product, "/baz", false},
			{Product, "/qux", true},
			{"other", "/qux", false},
			{"other", "/foo", true},
		}},
		{"longest match across merged groups", "user-agent: rypsok\ndisallow: /a\n\nuser-agent: rypsok\nallow: /a/b\n", []check{
			{Product, "/a/b/c", true},
			{Product, "/a/c", false},
		}},
		{"allow wins a tie across merged groups", "user-agent: rypsok\ndisallow: /same\n\nuser-agent: rypsok\nallow: /same\n", []check{
			{Product, "/same", true},
		}},
		{"star groups are merged too", "user-agent: *\ndisallow: /one\n\nuser-agent: x\ndisallow: /two\n\nuser-agent: *\ndisallow: /three\n", []check{
			{Product, "/one", false},
			{Product, "/three", false},
			{Product, "/two", true},
		}},
		{"named group replaces star", "user-agent: *\ndisallow: /\n\nuser-agent: rypsok\ndisallow: /private\n", []check{
			{Product, "/public", true},
			{Product, "/private", false},
			{"otherbot", "/public", false},
		}},
		{"one group naming rypsok and star", "user-agent: rypsok\nuser-agent: *\ndisallow: /x\n\nuser-agent: rypsok\ndisallow: /y\n", []check{
			{Product, "/x", false},
			{Product, "/y", false},
			{"other", "/x", false},
			{"other", "/y", true},
		}},
		{"no group matches and no star", "user-agent: other\ndisallow: /\n", []check{
			{Product, "/", true},
			{Product, "/anything", true},
		}},
		{"empty file", "", []check{{Product, "/", true}}},
		{"only comments", "# nothing\n\n  # here\n", []check{{Product, "/x", true}}},
	})
}

func TestREQ_CMP_005_ProductTokenMatching(t *testing.T) {
	runVerdicts(t, []verdicts{
		{"case-insensitive token", "User-Agent: RypSok\nDisallow: /\n", []check{
			{Product, "/x", false},
			{"RYPSOK", "/x", false},
			{"other", "/x", true},
		}},
		{"version after the token", "user-agent: rypsok/1.2 (+https://example.com)\ndisallow: /\n", []check{
			{Product, "/x", false},
		}},
		{"longer tokens are other products", "user-agent: rypsok-beta\ndisallow: /a\n\nuser-agent: rypsokbot\ndisallow: /b\n\nuser-agent: *\ndisallow: /c\n", []check{
			{Product, "/a", true},
			{Product, "/b", true},
			{Product, "/c", false},
			{"rypsok-beta", "/a", false},
		}},
		{"a star with text after white space", "user-agent: *   \ndisallow: /a\n", []check{
			{Product, "/a", false},
		}},
		{"a star glued to a word is no star", "user-agent: *bot\ndisallow: /a\n", []check{
			{Product, "/a", true},
		}},
		{"an empty user-agent names nobody", "user-agent:\ndisallow: /a\n\nuser-agent: *\ndisallow: /b\n", []check{
			{Product, "/a", true},
			{Product, "/b", false},
		}},
	})
}

func TestREQ_CMP_005_LongestMatchWins(t *testing.T) {
	runVerdicts(t, []verdicts{
		{"allow longer than disallow", "user-agent: *\ndisallow: /\nallow: /p\n", []check{
			{Product, "/page", true},
			{Product, "/other", false},
		}},
		{"order in the file does not matter", "user-agent: *\nallow: /folder/page\ndisallow: /folder/\n", []check{
			{Product, "/folder/page", true},
			{Product, "/folder/other", false},
		}},
		{"end anchor is an octet", "user-agent: *\nallow: /$\ndisallow: /\n", []check{
			{Product, "/", true},
			{Product, "", true},
			{Product, "/page", false},
		}},
		{"the end anchor counts in a wildcard rule", "user-agent: *\nallow: /a*$\ndisallow: /abc\n", []check{
			{Product, "/abc", true}, // 4 octets each: allow wins the tie
		}},
		{"wildcard rule longer than literal", "user-agent: *\nallow: /*.html\ndisallow: /page\n", []check{
			{Product, "/page.html", true},
			{Product, "/page.php", false},
		}},
		{"anchored disallow", "user-agent: *\ndisallow: /*.php$\nallow: /page\n", []check{
			{Product, "/page.php", false},
			{Product, "/page.php5", true},
		}},
		{"length of the canonical pattern", "user-agent: *\nallow: /%7Eab\ndisallow: /~abcd\n", []check{
			// "/%7Eab" is "/~ab", 4 octets, shorter than "/~abcd".
			{Product, "/~abcdef", false},
			{Product, "/~abc", true},
		}},
	})
}

func TestREQ_CMP_005_AllowWinsTie(t *testing.T) {
	runVerdicts(t, []verdicts{
		{"allow first", "user-agent: *\nallow: /page\ndisallow: /page\n", []check{{Product, "/page", true}}},
		{"disallow first", "user-agent: *\ndisallow: /page\nallow: /page\n", []check{{Product, "/page", true}}},
		{"equal length, different patterns", "user-agent: *\ndisallow: /ab\nallow: /a*\n", []check{{Product, "/abc", true}}},
		{"equal after normalisation", "user-agent: *\ndisallow: /%7e\nallow: /~\n", []check{{Product, "/~x", true}}},
	})
}

func TestREQ_CMP_005_Wildcards(t *testing.T) {
	runVerdicts(t, []verdicts{
		{"star inside", "user-agent: *\ndisallow: /*/private/\n", []check{
			{Product, "/a/private/x", false},
			{Product, "/a/b/private/", false},
			{Product, "/private/", true},
		}},
		{"several stars in order", "user-agent: *\ndisallow: /a*b*c\n", []check{
			{Product, "/axxbyyc", false},
			{Product, "/abc", false},
			{Product, "/axxc", true},
			{Product, "/acb", true},
		}},
		{"runs of stars are one star", "user-agent: *\ndisallow: /**a\n", []check{
			{Product, "/xa", false},
			{Product, "/xb", true},
		}},
		{"star alone", "user-agent: *\ndisallow: *\n", []check{
			{Product, "/", false},
			{Product, "/x?y", false},
		}},
		{"trailing star is a prefix match", "user-agent: *\ndisallow: /fish*\n", []check{
			{Product, "/fish", false},
			{Product, "/fish.html", false},
			{Product, "/Fish", true},
		}},
		{"end anchor", "user-agent: *\ndisallow: /exact$\n", []check{
			{Product, "/exact", false},
			{Product, "/exact/", true},
			{Product, "/exact?q", true},
		}},
		{"suffix with star and anchor", "user-agent: *\ndisallow: /*.gif$\n", []check{
			{Product, "/a/b.gif", false},
			{Product, "/.gif", false},
			{Product, "/a.gif.html", true},
			{Product, "/a.GIF", true}, // matching is case-sensitive
		}},
		{"anchored literal after a star does not overlap the prefix", "user-agent: *\ndisallow: /a*ab$\n", []check{
			{Product, "/ab", true},
			{Product, "/aab", false},
			{Product, "/axab", false},
		}},
		{"anchor after star", "user-agent: *\ndisallow: /a*$\n", []check{
			{Product, "/a", false},
			{Product, "/abc", false},
			{Product, "/b", true},
		}},
		{"dollar inside is a character", "user-agent: *\ndisallow: /a$b\n", []check{
			{Product, "/a$b", false},
			{Product, "/a%24b", false},
			{Product, "/a", true},
		}},
		{"query strings", "user-agent: *\ndisallow: /*?sessionid=\ndisallow: /search?\n", []check{
			{Product, "/page?sessionid=1", false},
			{Product, "/page?a=1&sessionid=1", true},
			{Product, "/search?q=x", false},
			{Product, "/search", true},
		}},
		{"pattern without slash never matches", "user-agent: *\ndisallow: private\n", []check{
			{Product, "/private", true},
		}},
	})
}

func TestREQ_CMP_005_PercentEncodingNormalised(t *testing.T) {
	runVerdicts(t, []verdicts{
		{"hex case", "user-agent: *\ndisallow: /a%3cb\n", []check{
			{Product, "/a%3Cb", false},
			{Product, "/a%3cb", false},
			{Product, "/a<b", false},
			{Product, "/a%3Db", true},
		}},
		{"unreserved decoded in the pattern", "user-agent: *\ndisallow: /%7Efoo\n", []check{
			{Product, "/~foo", false},
			{Product, "/%7efoo", false},
		}},
		{"unreserved decoded in the path", "user-agent: *\ndisallow: /~foo\n", []check{
			{Product, "/%7Efoo", false},
			{Product, "/%7efoo/bar", false},
		}},
		{"RFC 9309 table: UTF-8 in the pattern", "user-agent: *\ndisallow: /foo/bar/ツ\n", []check{
			{Product, "/foo/bar/%E3%83%84", false},
			{Product, "/foo/bar/%e3%83%84", false},
			{Product, "/foo/bar/ツ", false},
			{Product, "/foo/bar/", true},
		}},
		{"RFC 9309 table: encoded in the pattern", "user-agent: *\ndisallow: /foo/bar/%E3%83%84\n", []check{
			{Product, "/foo/bar/ツ", false},
		}},
		{"RFC 9309 table: encoded letters", "user-agent: *\ndisallow: /foo/bar/%62%61%7A\n", []check{
			{Product, "/foo/bar/baz", false},
			{Product, "/foo/bar/bat", true},
		}},
		{"reserved characters stay encoded", "user-agent: *\ndisallow: /a%2Fb\ndisallow: /c/d\n", []check{
			{Product, "/a/b", true},
			{Product, "/a%2fb", false},
			{Product, "/c%2Fd", true},
		}},
		{"RFC 9309 §2.2.3: encoded star and dollar match verbatim", "user-agent: *\ndisallow: /path/file-with-a-%2A.html\ndisallow: /path/foo-%24\n", []check{
			{Product, "/path/file-with-a-*.html", false},
			{Product, "/path/file-with-a-%2a.html", false},
			{Product, "/path/file-with-a-x.html", true},
			{Product, "/path/foo-$", false},
			{Product, "/path/foo-", true},
		}},
		{"space and stray percent", "user-agent: *\ndisallow: /a b\ndisallow: /100%\n", []check{
			{Product, "/a%20b", false},
			{Product, "/100%25", false},
			{Product, "/100", true},
		}},
	})
}

func TestREQ_CMP_005_LineEndingsBOMCommentsWhitespace(t *testing.T) {
	lines := []string{"User-agent: *", "Disallow: /private", "Allow: /private/open", "", "User-agent: other", "Disallow: /"}
	checks := []check{
		{Product, "/private/x", false},
		{Product, "/private/open", true},
		{Product, "/public", true},
		{"other", "/public", false},
	}
	var cases []verdicts
	for name, eol := range map[string]string{"LF": "\n", "CRLF": "\r\n", "CR": "\r"} {
		cases = append(cases,
			verdicts{name, strings.Join(lines, eol) + eol, checks},
			verdicts{name + " without final end of line", strings.Join(lines, eol), checks},
			verdicts{name + " after a BOM", "\xEF\xBB\xBF" + strings.Join(lines, eol), checks},
		)
	}
	cases = append(cases,
		verdicts{"mixed ends of line", "User-agent: *\r\nDisallow: /private\rAllow: /private/open\n\r\nUser-agent: other\n\rDisallow: /", checks},
		verdicts{"comments and white space", "# head\n  User-Agent\t:  *  # all\n\tDisallow:\t/private  # keep out\n# Allow: /public\nALLOW : /private/open#\nuser-agent: other\ndisallow: /\n", append(checks, check{Product, "/private/open#", true})},
		verdicts{"BOM only at the start", "user-agent: *\n\xEF\xBB\xBFdisallow: /x\n", []check{{Product, "/x", true}}},
	)
	runVerdicts(t, cases)
}

func TestREQ_CMP_005_GroupStructure(t *testing.T) {
	runVerdicts(t, []verdicts{
		{"rules before any user-agent are ignored", "disallow: /\nallow: /x\nuser-agent: *\ndisallow: /y\n", []check{
			{Product, "/z", true},
			{Product, "/y", false},
		}},
		{"a user-agent after rules starts a group", "user-agent: rypsok\ndisallow: /a\nuser-agent: other\ndisallow: /b\n", []check{
			{Product, "/a", false},
			{Product, "/b", true},
		}},
		{"empty lines inside a group", "user-agent: x\n\nuser-agent: rypsok\n\ndisallow: /a\n\ndisallow: /b\n", []check{
			{Product, "/a", false},
			{Product, "/b", false},
			{"x", "/b", false},
		}},
		{"other records do not end a group", "user-agent: a\nsitemap: https://example.com/s.xml\nuser-agent: rypsok\ncrawl-delay: 10\ndisallow: /p\nsitemap: https://example.com/t.xml\nhost: example.com\ndisallow: /q\n", []check{
			{Product, "/p", false},
			{Product, "/q", false},
			{"a", "/q", false},
		}},
		{"an empty disallow matches nothing", "user-agent: *\ndisallow:\n", []check{
			{Product, "/", true},
			{Product, "/x", true},
		}},
		{"an empty disallow still forms the named group", "user-agent: rypsok\ndisallow:\n\nuser-agent: *\ndisallow: /\n", []check{
			{Product, "/x", true},
			{"other", "/x", false},
		}},
		{"an empty allow matches nothing", "user-agent: *\nallow:\ndisallow: /x\n", []check{
			{Product, "/x", false},
		}},
	})
}

func TestREQ_CMP_005_RobotsTxtAlwaysAllowed(t *testing.T) {
	runVerdicts(t, []verdicts{
		{"disallow all", "user-agent: *\ndisallow: /\ndisallow: /robots.txt$\n", []check{
			{Product, "/robots.txt", true},
			{Product, "/robots.txt?x=1", true},
			{Product, "/%72obots.txt", true},
			{Product, "/robots.txtx", false},
			{Product, "/ROBOTS.TXT", false},
			{Product, "/a/robots.txt", false},
		}},
	})
}

func TestREQ_CMP_005_LenientFieldNames(t *testing.T) {
	runVerdicts(t, []verdicts{
		{"misspelt names", "useragent: a\ndissallow: /a\n\nuser agent: b\ndisalow: /b\n\nUSER-AGENT: c\ndissalow: /c1\ndiasllow: /c2\ndisallaw: /c3\n", []check{
			{"a", "/a", false},
			{"b", "/b", false},
			{"c", "/c1", false},
			{"c", "/c2", false},
			{"c", "/c3", false},
		}},
		{"missing colon", "user-agent rypsok\ndisallow /a\nallow /a/b\n", []check{
			{Product, "/a/x", false},
			{Product, "/a/b", true},
		}},
		{"missing colon with two words is skipped", "user-agent: *\ndisallow /a /b\n", []check{
			{Product, "/a", true},
			{Product, "/a%20/b", true},
		}},
		{"unknown names are skipped", "user-agent: *\nnoindex: /a\ndisallowed: /b\n", []check{
			{Product, "/a", true},
			{Product, "/b", true},
		}},
	})
}

func TestREQ_CMP_005_OversizedFileIsCut(t *testing.T) {
	filler := func(size int) string {
		line := "# " + strings.Repeat("x", 97) + "\n" // 100 bytes
		return strings.Repeat(line, size/len(line)) + strings.Repeat("#", size%len(line))
	}
	head := "user-agent: *\ndisallow: /first\n"

	t.Run("rules beyond MaxBytes are not read", func(t *testing.T) {
		pad := filler(MaxBytes - len(head) - 1)
		body := head + pad + "\ndisallow: /beyond\n"
		r := Parse([]byte(body))
		if r.Allowed(Product, "/first") {
			t.Error("a rule inside the bound was not read")
		}
		if !r.Allowed(Product, "/beyond") {
			t.Error("a rule beyond the bound was read")
		}
	})
	t.Run("a rule ending at the bound is read", func(t *testing.T) {
		rule := "disallow: /last\n"
		pad := filler(MaxBytes - len(head) - len(rule) - 1)
		body := head + pad + "\n" + rule + "disallow: /beyond\n"
		if got := strings.Index(body, rule) + len(rule); got != MaxBytes {
			t.Fatalf("setup: rule ends at %d", got)
		}
		r := Parse([]byte(body))
		if r.Allowed(Product, "/last") {
			t.Error("the rule ending at the bound was not read")
		}
		if !r.Allowed(Product, "/beyond") {
			t.Error("a rule beyond the bound was read")
		}
	})
	t.Run("a line cut by the bound is dropped", func(t *testing.T) {
		// The bound falls right after "disallow: /": read as it is, the cut
		// rule would disallow everything.
		pad := filler(MaxBytes - len(head) - len("disallow: /") - 1)
		body := head + pad + "\ndisallow: /only-this-page\n"
		if body[MaxBytes-1] != '/' {
			t.Fatalf("setup: byte before the bound is %q", body[MaxBytes-1])
		}
		r := Parse([]byte(body))
		if !r.Allowed(Product, "/other") {
			t.Error("the cut line was read")
		}
		if r.Allowed(Product, "/first") {
			t.Error("a rule inside the bound was not read")
		}
	})
	t.Run("one line longer than the bound", func(t *testing.T) {
		body := "user-agent: * disallow: /" + strings.Repeat("a", MaxBytes)
		if r := Parse([]byte(body)); len(r.groups) != 0 {
			t.Errorf("groups = %d, want none", len(r.groups))
		}
	})
	t.Run("a short file without final end of line is whole", func(t *testing.T) {
		if Parse([]byte(head+"disallow: /end")).Allowed(Product, "/end") {
			t.Error("the last line was dropped")
		}
	})
}

func TestREQ_CMP_005_NilAndZeroRobotsAllow(t *testing.T) {
	var nilRobots *Robots
	for _, r := range []*Robots{nilRobots, {}} {
		if !r.Allowed(Product, "/x") {
			t.Errorf("%#v denies", r)
		}
	}
}

// A pattern with many wildcards against a long path that almost matches is
// where a backtracking matcher takes exponential time.
func TestREQ_CMP_005_ManyWildcardsStayLinear(t *testing.T) {
	body := "user-agent: *\ndisallow: /" + strings.Repeat("*a", 5000) + "*b$\n"
	r := Parse([]byte(body))
	long := "/" + strings.Repeat("a", 20000)
	done := make(chan [2]bool, 1)
	go func() {
		done <- [2]bool{r.Allowed(Product, long), r.Allowed(Product, long+"b")}
	}()
	select {
	case got := <-done:
		if !got[0] || got[1] {
			t.Errorf("Allowed = %v, want [true false]", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("matching did not finish in 30 s")
	}
}
