package htmlx

import (
	"strings"
	"testing"
)

// threadPage is a thread of three posts; panel(n) is the card of the
// n-th post's author, beside the post.
func threadPage(panel func(n int) string) string {
	texts := []string{
		"We drove the old coast road last week and the bridge near the harbour is closed for repairs until spring, so plan a detour through the hills.",
		"Thanks, that detour adds about forty minutes, but the views over the valley are worth it if the weather holds and the road is dry.",
		"The ferry is another way round: it leaves every hour from the south pier and takes cars, though the queue gets long on summer weekends.",
	}
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><title>Coast road closed - Travel Forum</title></head><body>`)
	b.WriteString(`<div class="navbar"><a href="/">Forum</a> <a href="/travel">Travel</a></div><div id="posts">`)
	for n, text := range texts {
		b.WriteString(`<table class="tborder"><tr><td class="alt2"><a href="/member.php?u=` + string(rune('1'+n)) + `">member` + string(rune('1'+n)) + `</a>` +
			panel(n) + `</td><td class="alt1"><div id="post_message_` + string(rune('1'+n)) + `">` + text + `</div></td></tr></table>`)
	}
	b.WriteString(`</div><div class="footer">All times are GMT. Powered by a bulletin board.</div></body></html>`)
	return b.String()
}

func TestREQ_PAGE_002_PosterStatsLeftOut(t *testing.T) {
	shapes := map[string]func(n int) string{
		// one figure a line, the value in bold, under the author's rank:
		// the place stands beside the figures
		"lines": func(n int) string {
			return `<div class="smallfont"><div>Senior Member</div><div>Join Date: <b>Aug 2008</b></div><div>Location: <b>Leith</b></div><div>Posts: ` + string(rune('3'+n)) + `,077</div></div>`
		},
		// the figures one run of text, broken by <br>
		"run": func(n int) string {
			return `<div class="author_statistics">Posts: 11` + string(rune('0'+n)) + `<br>Threads: 23<br>Joined: Feb 2019<br>Reputation: <a href="/rep">7</a></div>`
		},
		// a definition list whose items carry the labels
		"list": func(n int) string {
			return `<dl><dd><span>Registered: 2012-09-0` + string(rune('1'+n)) + `</span></dd><dd><span>Posts: 73,365</span></dd></dl>`
		},
	}
	for name, panel := range shapes {
		t.Run(name, func(t *testing.T) {
			p := extract(t, threadPage(panel))
			checkText(t, p.Markdown,
				[]string{"bridge near the harbour", "views over the valley", "leaves every hour"},
				[]string{"Join Date", "Posts:", "Joined:", "Registered:", "Reputation", "Threads:", "Leith"})
		})
	}
}

func TestPosterStatsNeedAFigureOfAPoster(t *testing.T) {
	// the same labels in an article's own facts stay: a place alone
	// ("Location", no figure of a poster beside it), or a label with
	// prose after it
	p := extract(t, chromePage(articleProse+
		`<p>Location: Harbour Hall</p>`+
		`<p>Registered: the charity behind the appeal, with the county since the floods of the last decade.</p>`))
	checkText(t, p.Markdown, []string{"Location: Harbour Hall", "Registered: the charity"}, nil)
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Posts: 1,077", true},
		{"Join Date: Aug 2008 Location: Leith Posts: 3,077", true},
		{"posts : 96", true},
		{"Location: Leith", false},
		{"Posts: many", false},
		{"Posts: 12 and then some more words than a figure holds", false},
		{"Postscript: 12", false},
		{"Messages: 4 Gender: x", true},
	} {
		_, got := statPairs([]byte(strings.ToLower(c.text)))
		if got != c.want {
			t.Errorf("%q: posterStats = %v, want %v", c.text, got, c.want)
		}
	}
}

// FuzzStatPairs: any text, of any length, is read without a panic, and
// a text the matcher takes is made of labelled figures: it opens with a
// label of statLabels and its colon.
func FuzzStatPairs(f *testing.F) {
	for _, s := range []string{"posts: 1,077", "join date: aug 2008 location: leith posts: 3", "posts : ", "location: x", "joined:joined:1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 2*maxStatChars {
			return
		}
		if pairs, _ := statPairs([]byte(s)); pairs {
			if _, n := statLabelAt([]byte(s)); n == 0 {
				t.Fatalf("%q taken without a label", s)
			}
		}
	})
}

func TestREQ_PAGE_002_ReplyPromptLeftOut(t *testing.T) {
	p := extract(t, strings.Replace(threadPage(func(n int) string { return "" }), `</div><div class="footer">`,
		`<h2>You must log in to answer this question.</h2><p>Not open for further replies.</p>`+
			`<p>By clicking “Post Your Answer”, you agree to our terms of service and privacy policy.</p>`+
			`<p>You must log in or register to reply here.</p>`+
			`<p>You must log in before the ferry office takes a booking for a car, so do it the day before.</p></div><div class="footer">`, 1))
	checkText(t, p.Markdown,
		[]string{"bridge near the harbour", "leaves every hour", "You must log in before the ferry office"},
		[]string{"log in to answer", "further replies", "Post Your Answer", "to reply here"})
}

func TestREQ_PAGE_002_ThreadSignatureLeftOut(t *testing.T) {
	// a short thread: the first post's signature, long and written as
	// prose, holds more of the page's prose than the posts do
	sig := `<div class="signature"><p>I build lighting rigs for touring bands and small theatres across the north, and I have done so for twenty years now. ` +
		`Ask me anything about dimmers, cable runs and the safe rigging of trusses over an audience. ` +
		`My workshop takes repairs by post, and I write a long letter about the trade every month for anyone who asks for it. ` +
		`Tip of the week: label both ends of every cable before the show, never after it, and keep a spare of every fuse you use.</p></div>`
	doc := `<!DOCTYPE html><html><head><title>Dimmer hums at low levels - Stage Forum</title></head><body>` +
		`<div class="navbar"><a href="/">Forum</a> <a href="/stage">Stage</a></div><h1>Dimmer hums at low levels</h1><div class="comments">` +
		`<div class="comment" id="c1"><p>My new dimmer pack hums when the lamps sit below a third, and the hum goes away at full; is that normal for this kind of pack?</p>` + sig + `</div>` +
		`<div class="comment" id="c2"><p>It is normal for cheap packs: the chokes are small. A better pack, or lamps that stay above a third, will cure it.</p></div>` +
		`</div><div class="footer">Powered by a bulletin board.</div></body></html>`
	p := extract(t, doc)
	checkText(t, p.Markdown,
		[]string{"hums when the lamps sit below a third", "the chokes are small"},
		[]string{"touring bands", "Tip of the week"})
}
