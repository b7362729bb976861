package htmlx

import "bytes"

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
// one after another, at least one of them strong; or only weak ones
// ("Location: Leith") beside a sibling that holds a strong one, in the
// same card.
func (x *extractor) posterStats(i int32) bool {
	pairs, strong := x.statElement(i)
	if strong || !pairs {
		return strong
	}
	nodes := x.t.nodes
	seen := 0
	for c := nodes[nodes[i].parent].first; c != nilNode && seen < maxStatSiblings; c = nodes[c].next {
		if c == i || nodes[c].kind != kindElement {
			continue
		}
		seen++
		if cs := x.st[c].chars; cs >= minStatChars && cs <= maxStatChars {
			if _, strong := x.statElement(c); strong {
				return true
			}
		}
	}
	return false
}

// maxStatSiblings bounds the siblings of a weak figure asked for a
// strong one.
const maxStatSiblings = 12

// statElement reads element i's text as statPairs does.
func (x *extractor) statElement(i int32) (pairs, strong bool) {
	a, b := x.leadPair(i)
	if !statLead(a) {
		return false, false
	}
	lead := false
	for _, l := range statLabels {
		lead = lead || leadIn(a, b, l.s)
	}
	if !lead {
		return false, false
	}
	var buf [2 * maxStatChars]byte
	t, ok := x.collapsedText(i, buf[:])
	if !ok {
		return false, false
	}
	return statPairs(t)
}

// statPairs reports whether a text, lower-cased with its white space
// collapsed, is made of "label: value" pairs of statLabels alone, and
// whether one of them is strong.
func statPairs(t []byte) (pairs, strong bool) {
	if len(t) == 0 || !statLead(t[0]) {
		return false, false
	}
	for len(t) > 0 {
		l, n := statLabelAt(t)
		if n == 0 {
			return false, false
		}
		t = t[n:]
		end := nextStatLabel(t)
		v := trimSpaces(t[:end])
		if len(v) == 0 || len(v) > maxStatValue {
			return false, false
		}
		if l.strong {
			if !hasDigit(v) {
				return false, false
			}
			strong = true
		}
		t = t[end:]
	}
	return true, strong
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

// inPost reports an element below a post of a thread whose root is
// root: an ancestor below the root named as a comment alone
// (onlyComment).
func (x *extractor) inPost(i, root int32) bool {
	nodes := x.t.nodes
	for q := nodes[i].parent; q != root && q != nilNode; q = nodes[q].parent {
		if x.negative[q] && x.onlyComment(q) {
			return true
		}
	}
	return false
}
