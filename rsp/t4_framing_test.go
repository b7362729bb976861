package rsp

import "testing"

// The reference's T4: RFC 8259 allows exactly space, tab, carriage return
// and line feed around a value. An answer framed by any other white space
// (a no-break space, a vertical tab, a form feed, NEL, a line separator,
// a byte order mark) is malformed, wherever it stands; the four are not.
func TestT4_OnlyTheRFCsWhitespaceFramesAnAnswer(t *testing.T) {
	const answer = `{"verdict":"ALLOW"}`
	for _, ws := range []string{"\u00a0", "\v", "\f", "\u0085", "\u2028", "\u3000", "\ufeff"} {
		for _, framed := range []string{ws + answer, answer + ws, answer + "\n" + ws} {
			if _, class := parseAnswer([]byte(framed), "x"); class != FailMalformed {
				t.Errorf("%q: class %q, want malformed", framed, class)
			}
		}
	}
	for _, ws := range []string{" ", "\t", "\r", "\n", " \t\r\n"} {
		framed := ws + answer + ws
		if a, class := parseAnswer([]byte(framed), "x"); class != "" || a.Verdict != Allow {
			t.Errorf("%q: class %q verdict %q, want ALLOW", framed, class, a.Verdict)
		}
	}
}

// T4 with E1 and E2: a hundred thousand open brackets are about 200 KB,
// well under the answer cap, so only a bound on depth refuses them. The
// answer blocks the item as malformed; the test process is the host, so
// a parser that exhausted its stack would end the test.
func TestT4_AnAnswerNestedAHundredThousandDeepBlocks(t *testing.T) {
	defer noPluginLeft(t)
	for _, mode := range [][]string{
		{"deep", "100000", "[", "]", "bare"},
		{"deep", "100000", "[", "]"},
		{"deep", "100000", `{"a":`, "}"},
	} {
		h := newHost(t, PluginSpec{Name: "p", Command: chaos(mode...)})
		r := judgeOne(h, HookRetrieve, "ordinary text")
		if r.Verdict != Block || r.Failure != FailMalformed {
			t.Fatalf("%q: %+v, want BLOCK as malformed", mode, r)
		}
	}
}
