package robots

import (
	"strings"
	"testing"
)

// The cases below follow, one by one, the behaviours that Google's
// reference parser (github.com/google/robotstxt, robots_test.cc) tests,
// with files, agents and paths of our own. Each check states our answer
// and the answer Google's parser gives; where they differ, the case says
// why we answer otherwise, and the test fails if a difference is not
// explained (or an explained one has gone).

type refCheck struct {
	agent, path  string
	ours, google bool
}

// same is a check on which we answer as Google's parser does.
func same(agent, path string, want bool) refCheck { return refCheck{agent, path, want, want} }

// unlike is a check on which we answer ours and Google's parser the other.
func unlike(agent, path string, ours bool) refCheck { return refCheck{agent, path, ours, !ours} }

type refCase struct {
	mirrors string // the reference test the case follows
	name    string
	body    string
	checks  []refCheck
	differs string // why we answer otherwise than Google's parser, where we do
}

func runReference(t *testing.T, cases []refCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.mirrors+"/"+tc.name, func(t *testing.T) {
			r := Parse([]byte(tc.body))
			differs := false
			for _, c := range tc.checks {
				differs = differs || c.ours != c.google
				if got := r.Allowed(c.agent, c.path); got != c.ours {
					t.Errorf("Allowed(%q, %.40q) = %v, want %v", c.agent, c.path, got, c.ours)
				}
			}
			if differs != (tc.differs != "") {
				t.Errorf("the case differs from Google's parser: %v, but its reason is %q", differs, tc.differs)
			}
		})
	}
}

// TestREQ_CMP_005_PartialByteOrderMark: a UTF-8 byte order mark is skipped
// whole or when only its first one or two octets start the file; octets
// that only begin like one, and a mark after the start, are not skipped.
func TestREQ_CMP_005_PartialByteOrderMark(t *testing.T) {
	file := "User-Agent: mybot\nDisallow: /m/\n"
	runReference(t, []refCase{
		{"ID_UTF8ByteOrderMarkIsSkipped", "whole mark", "\xEF\xBB\xBF" + file, []refCheck{same("mybot", "/m/x", false), same("mybot", "/n", true)}, ""},
		{"ID_UTF8ByteOrderMarkIsSkipped", "first two octets", "\xEF\xBB" + file, []refCheck{same("mybot", "/m/x", false)}, ""},
		{"ID_UTF8ByteOrderMarkIsSkipped", "first octet", "\xEF" + file, []refCheck{same("mybot", "/m/x", false)}, ""},
		{"ID_UTF8ByteOrderMarkIsSkipped", "first two octets then CRLF file", "\xEF\xBBuser-agent: *\r\ndisallow: /m/\r\n", []refCheck{same("anybot", "/m/x", false)}, ""},
		// Only EF is skipped; the first line then starts with 0x2A 0xBF and
		// is no record, so the disallow line has no group.
		{"ID_UTF8ByteOrderMarkIsSkipped", "broken mark spoils the first line", "\xEF\x2A\xBF" + file, []refCheck{same("mybot", "/m/x", true)}, ""},
		{"ID_UTF8ByteOrderMarkIsSkipped", "two marks: the second spoils the first line", "\xEF\xBB\xBF\xEF\xBB\xBF" + file, []refCheck{same("mybot", "/m/x", true)}, ""},
		{"ID_UTF8ByteOrderMarkIsSkipped", "mark inside the file spoils its line", "User-Agent: mybot\n\xEF\xBB\xBFDisallow: /m/\nDisallow: /n/\n", []refCheck{same("mybot", "/m/x", true), same("mybot", "/n/x", false)}, ""},
		{"ID_UTF8ByteOrderMarkIsSkipped", "the last two octets alone are not a mark", "\xBB\xBF" + file, []refCheck{same("mybot", "/m/x", true)}, ""},
	})
}

// TestREQ_CMP_005_GoogleReferenceCases: parsing and matching, case by
// case against the behaviours of Google's reference parser.
func TestREQ_CMP_005_GoogleReferenceCases(t *testing.T) {
	longRule := "/x/" + strings.Repeat("a", 20000)
	runReference(t, []refCase{
		{"GoogleOnly_SystemTest", "empty file allows", "", []refCheck{same("mybot", "/", true), same("mybot", "", true), same("", "", true)}, ""},
		{"GoogleOnly_SystemTest", "empty path is the root", "user-agent: mybot\ndisallow: /\n", []refCheck{same("mybot", "", false), same("", "/", true)}, ""},

		{"ID_LineSyntax_Line", "colon separated", "user-agent: mybot\ndisallow: /\n", []refCheck{same("mybot", "/a/b", false)}, ""},
		{"ID_LineSyntax_Line", "unknown names", "agent: mybot\nrule: /\n", []refCheck{same("mybot", "/a/b", true)}, ""},
		{"ID_LineSyntax_Line", "missing colon read", "user-agent mybot\ndisallow /\n", []refCheck{same("mybot", "/a/b", false)}, ""},

		{"ID_LineSyntax_Groups", "groups, rules outside groups, blank lines", "allow: /early/\n\nuser-agent: mybot\ndisallow: /\nallow: /m/\nuser-agent: otherbot\ndisallow: /\nallow: /o/\n\n\nallow: /late/\nuser-agent: thirdbot\n\nuser-agent: mybot\nallow: /z/\ndisallow: /\n", []refCheck{
			same("mybot", "/m/1", true), same("mybot", "/z/1", true), same("mybot", "/o/1", false),
			same("otherbot", "/o/1", true), same("otherbot", "/late/1", true), same("otherbot", "/z/1", false),
			same("thirdbot", "/z/1", true),
			same("mybot", "/early/", false), same("otherbot", "/early/", false), same("thirdbot", "/early/", false),
		}, ""},
		{"ID_LineSyntax_Groups_OtherRules", "sitemap does not end a group", "user-agent: otherbot\nsitemap: https://example.net/map.xml\nuser-agent: *\ndisallow: /\n", []refCheck{same("mybot", "/", false), same("otherbot", "/", false)}, ""},
		{"ID_LineSyntax_Groups_OtherRules", "unknown line does not end a group", "user-agent: mybot\nsome-extension: value\nuser-agent: *\ndisallow: /\n", []refCheck{same("mybot", "/", false), same("otherbot", "/", false)}, ""},

		{"ID_REPLineNamesCaseInsensitive", "upper case names", "USER-AGENT: mybot\nALLOW: /m/\nDISALLOW: /\n", []refCheck{same("mybot", "/m/1", true), same("mybot", "/n/1", false)}, ""},
		{"ID_REPLineNamesCaseInsensitive", "mixed case names", "UsEr-AgEnT: mybot\naLlOw: /m/\nDiSaLlOw: /\n", []refCheck{same("mybot", "/m/1", true), same("mybot", "/n/1", false)}, ""},

		{"ID_VerifyValidUserAgentsToObey", "the product token is the leading letters, - and _", "user-agent: my_bot-x/3.1 (more)\ndisallow: /\nuser-agent: ok*bot\ndisallow: /\n", []refCheck{
			same("my_bot-x", "/", false), same("my_bot-x/3.1", "/", true), same("ok", "/", false), same("okbot", "/", true),
		}, ""},
		{"ID_UserAgentValueCaseInsensitive", "agent value in any case", "User-Agent: MYBOT EXTRA\nAllow: /m/\nDisallow: /\n", []refCheck{
			same("mybot", "/m/1", true), same("MyBot", "/m/1", true), same("mybot", "/n/1", false), same("MYBOT", "/n/1", false),
		}, ""},
		{"GoogleOnly_AcceptUserAgentUpToFirstSpace", "value read to the first space", "User-Agent: *\nDisallow: /\nUser-Agent: My Bot\nAllow: /m/\nDisallow: /\n", []refCheck{
			same("My", "/m/1", true), same("My Bot", "/m/1", false),
		}, ""},
		{"GoogleOnly_AcceptUserAgentUpToFirstSpace", "a star followed by more is global", "User-Agent: * (everyone)\nDisallow: /g/\n", []refCheck{same("mybot", "/g/1", false)}, ""},

		{"ID_GlobalGroups_Secondary", "star group when no group names the agent", "user-agent: *\nallow: /\nuser-agent: mybot\ndisallow: /\n", []refCheck{same("mybot", "/a", false), same("otherbot", "/a", true)}, ""},
		{"ID_GlobalGroups_Secondary", "no group applies", "user-agent: mybot\nallow: /\nuser-agent: otherbot\ndisallow: /\nuser-agent: thirdbot\ndisallow: /\n", []refCheck{same("fourthbot", "/a", true)}, ""},

		{"ID_AllowDisallow_Value_CaseSensitive", "paths are case-sensitive", "user-agent: mybot\ndisallow: /q/\n", []refCheck{same("mybot", "/q/1", false), same("mybot", "/Q/1", true)}, ""},

		{"ID_LongestMatch", "longer disallow", "user-agent: mybot\ndisallow: /d/file.htm\nallow: /d/\n", []refCheck{same("mybot", "/d/file.htm", false)}, ""},
		{"ID_LongestMatch", "longer allow", "user-agent: mybot\nallow: /d/file.htm\ndisallow: /d/\n", []refCheck{same("mybot", "/d/file.htm", true), same("mybot", "/d/", false)}, ""},
		{"ID_LongestMatch", "empty patterns", "user-agent: mybot\ndisallow:\nallow:\n", []refCheck{same("mybot", "/d/file.htm", true)}, ""},
		{"ID_LongestMatch", "equal patterns: allow", "user-agent: mybot\ndisallow: /\nallow: /\n", []refCheck{same("mybot", "/d/file.htm", true)}, ""},
		{"ID_LongestMatch", "one octet longer", "user-agent: mybot\ndisallow: /d\nallow: /d/\n", []refCheck{same("mybot", "/d", false), same("mybot", "/d/", true)}, ""},
		{"ID_LongestMatch", "equal long patterns: allow", "user-agent: mybot\ndisallow: /d/file.htm\nallow: /d/file.htm\n", []refCheck{same("mybot", "/d/file.htm", true)}, ""},
		{"ID_LongestMatch", "wildcard longer than literal", "user-agent: mybot\nallow: /doc\ndisallow: /*.htm\n", []refCheck{same("mybot", "/doc.htm", false), same("mybot", "/doc", true)}, ""},
		{"ID_LongestMatch", "literal longer than wildcard", "user-agent: mybot\nallow: /d/file.\ndisallow: /*.htm\n", []refCheck{same("mybot", "/d/file.htm", true), same("mybot", "/d/x.htm", false)}, ""},
		{"ID_LongestMatch", "the named group alone", "User-agent: *\nDisallow: /g/\nUser-agent: mybot\nDisallow: /m/\n", []refCheck{same("mybot", "/g/1", true), same("mybot", "/m/1", false)}, ""},
		{"ID_LongestMatch", "a run of stars counts as written", "user-agent: mybot\nallow: /a**\ndisallow: /a*b\n", []refCheck{unlike("mybot", "/ab", false)},
			"we rank a rule by the octets of its canonical pattern, in which a run of stars is one star, so that two spellings of one pattern rank alike"},

		{"ID_Encoding", "reserved characters of a query kept", "User-agent: mybot\nDisallow: /\nAllow: /s/t?a=b&u=http://host.example?c&d\n", []refCheck{same("mybot", "/s/t?a=b&u=http://host.example?c&d", true)}, ""},
		{"ID_Encoding", "UTF-8 in the pattern, encoded path", "User-agent: mybot\nDisallow: /\nAllow: /s/\u00e9t\u00e9\n", []refCheck{same("mybot", "/s/%C3%A9t%C3%A9", true)}, ""},
		{"ID_Encoding", "UTF-8 in the pattern, raw path", "User-agent: mybot\nDisallow: /\nAllow: /s/\u00e9t\u00e9\n", []refCheck{unlike("mybot", "/s/\u00e9t\u00e9", true)},
			"RFC 9309 §2.2.2 encodes the octets outside ASCII of the path too before comparing; Google leaves that to its caller"},
		{"ID_Encoding", "encoded pattern, raw path", "User-agent: mybot\nDisallow: /\nAllow: /s/%C3%A9t%C3%A9\n", []refCheck{same("mybot", "/s/%C3%A9t%C3%A9", true), unlike("mybot", "/s/\u00e9t\u00e9", true)},
			"as above: the path's octets outside ASCII are encoded before comparing"},
		{"ID_Encoding", "encoded unreserved letters", "User-agent: mybot\nDisallow: /\nAllow: /s/%71%72\n", []refCheck{same("mybot", "/s/%71%72", true), unlike("mybot", "/s/qr", true)},
			"RFC 9309's table of §2.2.2 matches an encoded unreserved character with the character itself; Google compares the escapes verbatim"},
		{"TestMaybeEscapePattern", "escape hex in either case", "User-agent: mybot\nDisallow: /%aa/\n", []refCheck{same("mybot", "/%AA/1", false)}, ""},

		{"ID_SpecialCharacters", "star inside", "User-agent: mybot\nDisallow: /p/q/r\nAllow: /p/*/s\n", []refCheck{
			same("mybot", "/p/q/r", false), same("mybot", "/p/r", true), same("mybot", "/p//r", true), same("mybot", "/p/x/r", true),
		}, ""},
		{"ID_SpecialCharacters", "end anchor", "User-agent: mybot\nDisallow: /p/q$\nAllow: /p/q/s\n", []refCheck{
			same("mybot", "/p/q", false), same("mybot", "/p/q/s", true), same("mybot", "/p/q/", true), same("mybot", "/p/q/t", true),
		}, ""},
		{"ID_SpecialCharacters", "comments", "User-agent: mybot\n# Disallow: /\nDisallow: /p/r#s\nAllow: /\n", []refCheck{same("mybot", "/p/q", true), same("mybot", "/p/r", false)}, ""},

		{"GoogleOnly_IndexHTMLisDirectory", "index.html", "User-Agent: *\nAllow: /open/index.html\nDisallow: /\n", []refCheck{
			unlike("mybot", "/open/", false), same("mybot", "/open/index.htm", false), same("mybot", "/open/index.html", true), same("mybot", "/closed", false),
		}, "RFC 9309 has no such equivalence; allowing the directory for its index page allows a URL the site did not name"},

		{"GoogleOnly_LineTooLong", "a line past 16663 octets", "user-agent: mybot\ndisallow: " + longRule + "/tail\n", []refCheck{
			unlike("mybot", longRule+"/other", true), same("mybot", longRule+"/tail", false), same("mybot", "/y", true),
		}, "RFC 9309 sets no line length; cutting a rule changes it (a cut allow allows more than written), and the file as a whole is bounded by MaxBytes"},

		{"GoogleOnly_DocumentationChecks", "a prefix", "user-agent: mybot\ndisallow: /\nallow: /cod\n", codChecks(true), ""},
		{"GoogleOnly_DocumentationChecks", "a trailing star is the same prefix", "user-agent: mybot\ndisallow: /\nallow: /cod*\n", codChecks(true), ""},
		{"GoogleOnly_DocumentationChecks", "a directory", "user-agent: mybot\ndisallow: /\nallow: /cod/\n", []refCheck{
			same("mybot", "/other", false), same("mybot", "/cod/", true), same("mybot", "/cod/hake", true), same("mybot", "/cod/?hake", true),
			same("mybot", "/cod/hake.html", true), same("mybot", "/cod/?id=1", true),
			same("mybot", "/cod", false), same("mybot", "/cod.html", false), same("mybot", "/Cod/Hake.html", false),
		}, ""},
		{"GoogleOnly_DocumentationChecks", "a suffix anywhere", "user-agent: mybot\ndisallow: /\nallow: /*.php\n", []refCheck{
			same("mybot", "/other", false), same("mybot", "/f.php", true), same("mybot", "/d/f.php", true), same("mybot", "/d/f.php?p", true),
			same("mybot", "//d/any.php.file.html", true), same("mybot", "/f.php/", true), same("mybot", "/index?f=f.php/", true),
			same("mybot", "/php/", false), same("mybot", "/index?php", false), same("mybot", "/w.PHP", false),
		}, ""},
		{"GoogleOnly_DocumentationChecks", "an anchored suffix", "user-agent: mybot\ndisallow: /\nallow: /*.php$\n", []refCheck{
			same("mybot", "/other", false), same("mybot", "/f.php", true), same("mybot", "/d/f.php", true),
			same("mybot", "/f.php?p", false), same("mybot", "/f.php/", false), same("mybot", "/f.php5", false), same("mybot", "/php/", false),
			same("mybot", "/f?php", false), same("mybot", "/aphpa", false), same("mybot", "//w.PHP", false),
		}, ""},
		{"GoogleOnly_DocumentationChecks", "prefix, star, suffix", "user-agent: mybot\ndisallow: /\nallow: /cod*.php\n", []refCheck{
			same("mybot", "/other", false), same("mybot", "/cod.php", true), same("mybot", "/codheads/catcod.php?p", true), same("mybot", "/Cod.PHP", false),
		}, ""},
		{"GoogleOnly_DocumentationChecks", "precedence: longer allow", "user-agent: mybot\nallow: /p\ndisallow: /\n", []refCheck{same("mybot", "/page", true)}, ""},
		{"GoogleOnly_DocumentationChecks", "precedence: equal rules", "user-agent: mybot\nallow: /folder\ndisallow: /folder\n", []refCheck{same("mybot", "/folder/page", true)}, ""},
		{"GoogleOnly_DocumentationChecks", "precedence: longer wildcard", "user-agent: mybot\nallow: /page\ndisallow: /*.htm\n", []refCheck{same("mybot", "/page.htm", false)}, ""},
		{"GoogleOnly_DocumentationChecks", "precedence: the root alone", "user-agent: mybot\nallow: /$\ndisallow: /\n", []refCheck{same("mybot", "/", true), same("mybot", "/page.html", false)}, ""},

		{"ID_LinesNumbersAreCountedCorrectly", "mixed ends of line, no final one", "User-Agent: otherbot\r\nAllow: /some/path\rUser-Agent: mybot\n\r\n\rDisallow: /", []refCheck{same("mybot", "/a", false), same("mybot", "/some/path", false), same("otherbot", "/a", true), same("otherbot", "/some/path", true)}, ""},
		{"ID_NonStandardLineExample_Sitemap", "sitemap lines anywhere are no rule", "Sitemap: https://example.net/map.xml\nUser-Agent: mybot\nAllow: /some/path\nSitemap: https://example.net/other.xml\nDisallow: /\n", []refCheck{same("mybot", "/some/path", true), same("mybot", "/a", false)}, ""},
		{"TestGetPathParamsQuery", "query and parameters belong to the path", "user-agent: mybot\ndisallow: /?q\ndisallow: /a;b\n", []refCheck{
			same("mybot", "?q", false), same("mybot", "/a;b", false), same("mybot", "/a", true),
		}, ""},

		// Google reads a record whose name only starts with a known one
		// ("disallowed", "allowance"), which the reference tests do not
		// cover but its parser does.
		{"KeyIsAllow (parser)", "names that only start like a record", "user-agent: mybot\ndisallow: /\nallow-listed: /c\ndisallowed: /d\n", []refCheck{unlike("mybot", "/c", false), same("mybot", "/d", false)},
			"RFC 9309 names its records exactly; reading a prefix would turn other records (an \"allow-listed\" of some extension) into rules"},
	})
}

// codChecks are the answers of the documentation's prefix example, for a
// file that disallows everything and allows the prefix /cod.
func codChecks(cod bool) []refCheck {
	return []refCheck{
		same("mybot", "/other", false),
		same("mybot", "/cod", cod), same("mybot", "/cod.html", cod), same("mybot", "/cod/hake.html", cod),
		same("mybot", "/codheads", cod), same("mybot", "/codheads/fried.html", cod), same("mybot", "/cod.html?id=anything", cod),
		same("mybot", "/Cod.asp", false), same("mybot", "/catcod", false), same("mybot", "/?id=cod", false),
	}
}
