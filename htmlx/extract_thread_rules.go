package htmlx

import "bytes"

// posterStats: the figures forum software prints beside every post about
// its author ("Join Date: Aug 2008", "Posts: 1,077", "Registered:
// 2012-09-03", "Reputation: 7") say who wrote, not what the post says:
// an element made of such figures alone goes, wherever the root is (a
// thread read as many blocks keeps its chrome, and these figures are
// seldom classed).
// Without it, TestREQ_PAGE_002_PosterStatsLeftOut fails.
func (p *pruner) posterStats(i int32, nd *node, s *nodeStats) bool {
	if s.chars < minStatChars || s.chars > maxStatChars || !p.x.posterStats(i) {
		return false
	}
	p.drop[i] = true
	return true
}

// minStatChars and maxStatChars bound the text of an element of a post
// author's figures ("Posts: 7" to four or five labelled figures).
const (
	minStatChars = 7
	maxStatChars = 100
	// maxStatValue bounds one figure's value ("Feb 2019", "73,365")
	maxStatValue = 24
)

// statLabel is a label of a post author's figures. A strong one names a
// figure only forum software gives (a count or a date, so its value
// holds a digit); a weak one ("Location") says where the author is and
// is a figure only beside a strong one, since a page of any kind may
// say "Location: Main Street".
type statLabel struct {
	s      string
	strong bool
}

// statLabels are the labels, lower-cased, a longer one before any
// other it starts with.
var statLabels = [...]statLabel{
	{"posts", true}, {"post count", true}, {"total posts", true}, {"messages", true},
	{"threads", true}, {"topics", true}, {"join date", true}, {"joined", true},
	{"member since", true}, {"registered", true}, {"reputation", true},
	{"reaction score", true}, {"likes received", true}, {"karma", true},
	{"last active", true}, {"last seen", true},
	{"location", false}, {"from", false}, {"age", false}, {"gender", false},
}

// posterStats reports an element whose text, lower-cased with its white
// space collapsed, is one "label: value" pair of statLabels or several
// one after another, at least one of them strong.
func (x *extractor) posterStats(i int32) bool {
	a, b := x.leadPair(i)
	lead := false
	for _, l := range statLabels {
		lead = lead || leadIn(a, b, l.s)
	}
	if !lead {
		return false
	}
	var buf [2 * maxStatChars]byte
	t, ok := x.collapsedText(i, buf[:])
	return ok && statPairs(t)
}

// statPairs reports a text, lower-cased with its white space collapsed,
// made of "label: value" pairs of statLabels alone, at least one of them
// strong.
func statPairs(t []byte) bool {
	if len(t) == 0 || !statLead(t[0]) {
		return false
	}
	strong := false
	for len(t) > 0 {
		l, n := statLabelAt(t)
		if n == 0 {
			return false
		}
		t = t[n:]
		end := nextStatLabel(t)
		v := trimSpaces(t[:end])
		if len(v) == 0 || len(v) > maxStatValue {
			return false
		}
		if l.strong {
			if !hasDigit(v) {
				return false
			}
			strong = true
		}
		t = t[end:]
	}
	return strong
}

// statLead reports a byte a label of statLabels may start with, to pass
// over the other short elements at once.
func statLead(c byte) bool {
	switch c {
	case 'a', 'f', 'g', 'j', 'k', 'l', 'm', 'p', 'r', 't':
		return true
	}
	return false
}

// statLabelAt matches a label of statLabels at the start of t, followed
// by a colon (a space before it allowed), and returns it and the length
// up to and with the colon; n is 0 when none is there.
func statLabelAt(t []byte) (l statLabel, n int) {
	for _, c := range statLabels {
		if len(t) <= len(c.s) || string(t[:len(c.s)]) != c.s {
			continue
		}
		k := len(c.s)
		if t[k] == ' ' {
			k++
		}
		if k < len(t) && t[k] == ':' {
			return c, k + 1
		}
	}
	return statLabel{}, 0
}

// nextStatLabel returns where the next "label:" of statLabels starts in
// t, after a space, or len(t).
func nextStatLabel(t []byte) int {
	for k := 1; k < len(t); k++ {
		if t[k-1] == ' ' && statLead(t[k]) {
			if _, n := statLabelAt(t[k:]); n > 0 {
				return k
			}
		}
	}
	return len(t)
}

// collapsedText gathers the text below element i into buf, lower-cased
// (ASCII), its runs of white space one space, without space at either
// end; ok is false when it does not fit.
func (x *extractor) collapsedText(i int32, buf []byte) (t []byte, ok bool) {
	nodes := x.t.nodes
	n := 0
	space := false
	for k, end := i+1, subtreeEnd(nodes, i); k < end; k++ {
		if nodes[k].kind != kindText {
			continue
		}
		s := nodes[k].text
		for j := 0; j < len(s); j++ {
			c := s[j]
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' {
				space = n > 0
				continue
			}
			if space {
				if n == len(buf) {
					return nil, false
				}
				buf[n] = ' '
				n++
				space = false
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if n == len(buf) {
				return nil, false
			}
			buf[n] = c
			n++
		}
		space = n > 0
	}
	return buf[:n], true
}

// leadPair returns the first two bytes of the text below element i,
// past white space, lower-cased (ASCII), 0 where there are none: the
// matchers of short texts look at them before they gather the text.
func (x *extractor) leadPair(i int32) (a, b byte) {
	nodes := x.t.nodes
	n := 0
	for k, end := i+1, subtreeEnd(nodes, i); k < end && n < 2; k++ {
		if nodes[k].kind != kindText || nodes[k].chars == 0 {
			continue
		}
		s := nodes[k].text
		for j := 0; j < len(s) && n < 2; j++ {
			c := s[j]
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' {
				if n > 0 {
					return a, ' '
				}
				continue
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if n == 0 {
				a = c
			} else {
				b = c
			}
			n++
		}
		if n == 1 {
			// the text goes on in the next text node, after a space
			// or not: either way a label may go on there
			return a, b
		}
	}
	return a, b
}

// leadIn reports whether the pair (a, b) starts one of the strings.
func leadIn(a, b byte, strs ...string) bool {
	for _, s := range strs {
		if len(s) >= 2 && s[0] == a && (b == 0 || s[1] == b) {
			return true
		}
	}
	return false
}

// trimSpaces trims the ASCII spaces at either end of b.
func trimSpaces(b []byte) []byte {
	for len(b) > 0 && b[0] == ' ' {
		b = b[1:]
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}

// replyPrompt: the prompts around a thread's reply box ("You must log in
// to answer this question", "By clicking “Post Your Answer”, you agree
// to our terms", "Start asking to get answers") and the notice of a
// thread that takes no more posts ("Not open for further replies") say
// what a visitor may do, not what the thread says: a block of its own
// whose short text opens with one of them goes.
// Without it, TestREQ_PAGE_002_ReplyPromptLeftOut fails.
func (p *pruner) replyPrompt(i int32, nd *node, s *nodeStats) bool {
	x := p.x
	if x.block[i] != i || s.chars < minPromptChars || s.chars > maxPromptChars || !x.replyPrompt(i) {
		return false
	}
	p.drop[i] = true
	return true
}

// minPromptChars and maxPromptChars bound the text of a reply prompt.
const (
	minPromptChars = 20
	maxPromptChars = 200
)

// replyPrompts are the openings of a reply box's prompts and of a closed
// thread's notice, lower-cased.
var replyPrompts = [...]string{
	"not open for further replies", "start asking to get answers",
	"by clicking “post your answer”", "by clicking \"post your answer\"",
}

// loginOpenings open a prompt to log in; loginPurposes say what for, a
// post, where a prompt names it ("You must log in to answer this
// question"); a sentence of a post that opens so ("You must log in
// before the office takes a booking") names none.
var (
	loginOpenings = [...]string{
		"you must log in", "you must be logged in", "you must sign in", "you must be signed in",
		"you need to log in", "you need to be logged in", "log in", "sign in", "login",
	}
	loginPurposes = [...]string{
		" to reply", " to answer", " to comment", " to post", " to participate",
		" to join the discussion", " to join the conversation", " or register", " or sign up",
	}
)

// maxPromptPurpose bounds how far into a prompt its purpose is looked
// for.
const maxPromptPurpose = 48

// replyPrompt reports an element whose text, lower-cased, opens with one
// of replyPrompts, or with one of loginOpenings and one of loginPurposes
// soon after.
func (x *extractor) replyPrompt(i int32) bool {
	if a, b := x.leadPair(i); !leadIn(a, b, replyPrompts[:]...) && !leadIn(a, b, loginOpenings[:]...) {
		return false
	}
	var buf [2 * maxPromptChars]byte
	t, ok := x.collapsedText(i, buf[:])
	if !ok {
		return false
	}
	for _, o := range replyPrompts {
		if bytes.HasPrefix(t, []byte(o)) {
			return true
		}
	}
	for _, o := range loginOpenings {
		if !bytes.HasPrefix(t, []byte(o)) {
			continue
		}
		head := t[len(o):]
		if len(head) > maxPromptPurpose {
			head = head[:maxPromptPurpose]
		}
		for _, w := range loginPurposes {
			if bytes.Contains(head, []byte(w)) {
				return true
			}
		}
	}
	return false
}

// threadNoise: in a thread of posts, an element inside a post named
// only as noise (the post's signature, its toolbar, a badge) is not what
// the post says, however much of the root's prose it holds: on a short
// thread one long signature can outweigh the posts, which the chrome
// rule's share would spare.
// Without it, TestREQ_PAGE_002_ThreadSignatureLeftOut fails.
func (p *pruner) threadNoise(i int32, nd *node, s *nodeStats) bool {
	if !p.thread || nd.hints&hintsNegative != hintNoise || s.good >= p.rootGood || !p.inPost(i) {
		return false
	}
	p.drop[i] = true
	return true
}

// inPost reports an element below a post of the thread: an ancestor
// below the root named as a comment alone (onlyComment).
func (p *pruner) inPost(i int32) bool {
	x := p.x
	nodes := x.t.nodes
	for q := nodes[i].parent; q != p.root && q != nilNode; q = nodes[q].parent {
		if x.negative[q] && x.onlyComment(q) {
			return true
		}
	}
	return false
}
