package htmlx

import (
	"strconv"
	"strings"
	"testing"
)

func TestRoleButtonControlLeftOut(t *testing.T) {
	quote := func(text string) string {
		return `<blockquote class="quote"><div class="quote-content"><div class="quote-text">` + text + `</div>` +
			`<div class="quote-more"><a role="button" tabindex="0">Click to expand...</a></div></div></blockquote>`
	}
	doc := chromePage(`<p>The river rose above the wall on Friday night and water reached the lower streets before dawn.</p>` +
		quote("Residents were told to move their cars to higher ground.") +
		`<p>Officials expect the water to recede over the weekend, although more rain is forecast for Tuesday.</p>` +
		// the title of an accordion panel is a heading, not a control
		`<div class="accordion"><a role="button" class="accordion-heading" aria-controls="p1">When will the road reopen?</a>` +
		`<div id="p1"><p>The road reopens once engineers have checked the bridge, probably on Monday morning.</p></div></div>`)
	page := extract(t, doc)
	if strings.Contains(page.Markdown, "Click to expand") {
		t.Errorf("the control kept:\n%s", page.Markdown)
	}
	for _, want := range []string{"move their cars", "When will the road reopen?", "probably on Monday"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out:\n%s", want, page.Markdown)
		}
	}
}

func TestAuthorBoxAfterArticleLeftOut(t *testing.T) {
	box := `<div class="box"><img src="/ann.jpg" alt=""><div class="name"><a href="/author/ann-lee/">Ann Lee</a></div>` +
		`<div class="desc"><p>Ann Lee has covered the valley's weather and rivers for twenty years, and before that she taught geography.</p></div></div>`
	// a standfirst above the article that names its author stays
	intro := `<div class="intro"><div><a href="/author/ann-lee/">Ann Lee</a></div>` +
		`<p>The valley had its worst flood in fifty years, and the town is still counting the cost of it.</p></div>`
	page := extract(t, chromePage(intro+articleProse+box))
	if strings.Contains(page.Markdown, "taught geography") {
		t.Errorf("the author's box kept:\n%s", page.Markdown)
	}
	for _, want := range []string{"worst flood in fifty years", "recede over the weekend"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out:\n%s", want, page.Markdown)
		}
	}
	// a paragraph of the article that names a writer in passing stays
	doc := chromePage(articleProse + `<p>Our reporter <a href="/author/ann-lee/">Ann Lee</a> spent the night with the crews who kept the pumps running along the lower streets.</p>`)
	if page := extract(t, doc); !strings.Contains(page.Markdown, "kept the pumps running") {
		t.Errorf("a paragraph naming its author left out:\n%s", page.Markdown)
	}
}

func TestPopoverIsNoContent(t *testing.T) {
	var posts strings.Builder
	for _, r := range []string{"Same here, it came back after a restart of the router, and the app works again on the phone too.",
		"Mine too. Thanks for the tip, it works again after I logged out and back in with the new password!",
		"Did not work for me, the page is still offline here, and the status page says nothing about it.",
		"Try clearing the cache first, then log in again; that was what fixed it for me last time as well.",
		"That fixed it, cheers. The cache was the problem all along, and the old cookies with it, it seems.",
		"Works again since this morning, on both phones and the laptop, so it was on their side after all."} {
		posts.WriteString(`<div class="post"><a href="/members/someone">someone</a><div class="text"><p>` + r + `</p></div></div>`)
	}
	doc := `<html><body><div class="app-install-popover"><p>A full-screen app on your home screen, with push notifications, badges and more. Tap the share icon, then add it to the home screen.</p></div>` +
		`<main><h1>Is the site down?</h1><div class="posts">` + posts.String() + `</div></main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if strings.Contains(page.Markdown, "push notifications") {
		t.Errorf("the popover kept:\n%s", page.Markdown)
	}
	if !strings.Contains(page.Markdown, "clearing the cache") {
		t.Errorf("the thread left out:\n%s", page.Markdown)
	}
}

func TestThreadQuoteWrittenOnce(t *testing.T) {
	first := "I saved many routes on my laptop and I would like to see them on the tablet as well, is there a way to do it?"
	post := func(i int, body string) string {
		return `<li class="comment p` + strconv.Itoa(i) + `">` + body + `</li>`
	}
	doc := `<html><head><meta property="og:type" content="article"></head><body><div class="topic"><ul class="posts">` +
		post(1, `<p>`+first+`</p>`) +
		post(2, `<blockquote><p>`+first+`</p></blockquote><p>Open the menu, then the saved routes panel, and pick the one you want to see on the map.</p>`) +
		post(3, `<p>That panel is empty on my tablet, although the laptop shows all of them in the list, every one.</p>`) +
		post(4, `<p>Check that you are logged in with the same account on both, the routes are kept per account.</p>`) +
		`</ul></div></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if n := strings.Count(page.Markdown, "saved many routes"); n != 1 {
		t.Errorf("the quoted post written %d times:\n%s", n, page.Markdown)
	}
	if !strings.Contains(page.Markdown, "same account") {
		t.Errorf("the thread left out:\n%s", page.Markdown)
	}
}

func TestLongParagraphWrittenOnce(t *testing.T) {
	long := "<p>The council met on Thursday evening and agreed, after a long debate about the cost and the timing of the works, " +
		"to raise the flood wall along the lower streets by half a metre before next winter, and to pay for it from the reserve " +
		"that was set aside after the last flood, without raising the local tax this year.</p>"
	refrain := "<p>Keep the emergency number close at hand, always.</p>"
	doc := `<html><head><meta property="og:type" content="article"></head><body><article><h1>Flood wall to rise</h1>` +
		articleProse + refrain + `<div class="desktop">` + long + `</div>` + refrain + `<div class="mobile">` + long + `</div></article></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if n := strings.Count(page.Markdown, "raise the flood wall"); n != 1 {
		t.Errorf("the long paragraph written %d times:\n%s", n, page.Markdown)
	}
	// a short line an article repeats on purpose stays
	if n := strings.Count(page.Markdown, "emergency number"); n != 2 {
		t.Errorf("the repeated line written %d times:\n%s", n, page.Markdown)
	}
}

func TestCodeCommentTokensKept(t *testing.T) {
	code := `<pre><code class="language-go"><span class="hljs-comment">// flash the board twice, keep the old image</span>
<span class="hljs-keyword">func</span> flash() { <span class="token comment">/* retry once */</span> }</code></pre>`
	page := extract(t, chromePage(articleProse+code+articleProse))
	for _, want := range []string{"keep the old image", "retry once", "func flash()"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out of the code:\n%s", want, page.Markdown)
		}
	}
}

func TestTableOfContentsLeftOut(t *testing.T) {
	section := func(id, title, text string) string {
		return `<h2 id="` + id + `">` + title + `</h2><p>` + text + ` Crews worked through the night to keep the lower streets open for the buses.</p>`
	}
	toc := `<div class="box"><p>Contents</p><ul><li><a href="#rise">How the river rose</a></li>` +
		`<li><a href="#help">Where to find help</a></li><li><a href="#next">What comes next</a></li></ul></div>`
	doc := chromePage(articleProse + toc + section("rise", "How the river rose", "It rose by a metre in six hours.") +
		section("help", "Where to find help", "The school on the hill is open all week.") +
		section("next", "What comes next", "The council meets on Monday to count the damage."))
	page := extract(t, doc)
	for _, h := range []string{"How the river rose", "Where to find help", "What comes next"} {
		if n := strings.Count(page.Markdown, h); n != 1 {
			t.Errorf("%q written %d times:\n%s", h, n, page.Markdown)
		}
	}
	if strings.Contains(page.Markdown, "Contents") {
		t.Errorf("the table of contents' title kept:\n%s", page.Markdown)
	}
	// in-page links that name no heading (notes, sources) stay
	notes := `<ul><li><a href="#n1">See the council's notice of 12 May</a></li><li><a href="#n2">See the map of closed roads</a></li>` +
		`<li><a href="#n3">See the list of shelters</a></li></ul>`
	page = extract(t, chromePage(articleProse+notes+section("n1", "Notes", "The notice is posted at the town hall.")))
	if !strings.Contains(page.Markdown, "map of closed roads") {
		t.Errorf("a list of in-page links naming no heading left out:\n%s", page.Markdown)
	}
}

func TestTeaserCardsAfterArticleOnly(t *testing.T) {
	cards := func(names ...string) string {
		var b strings.Builder
		b.WriteString(`<div class="row">`)
		for _, n := range names {
			b.WriteString(`<div class="card"><h3><a href="/p/` + n + `">` + n + `</a></h3><p>Read what our testers found after a month of use.</p></div>`)
		}
		return b.String() + `</div>`
	}
	more := `<p>The pumps held through the second night, and the engineers say the wall will be raised before the next winter comes.</p>
<p>Shops on the lower streets reopened on Monday, though many are still drying out their stock and counting what was lost.</p>`
	// cards with the article's text after them are its own picks
	page := extract(t, chromePage(articleProse+cards("The first pump we tested this year", "The second pump we tested this year", "The third pump we tested this year")+more))
	if !strings.Contains(page.Markdown, "second pump") {
		t.Errorf("cards inside the article left out:\n%s", page.Markdown)
	}
	// after the article they are related stories
	page = extract(t, chromePage(articleProse+more+cards("Storm four reaches the northern coast", "Storm five closes the mountain roads", "Storm six floods the harbour again")))
	if strings.Contains(page.Markdown, "Storm five") {
		t.Errorf("teasers after the article kept:\n%s", page.Markdown)
	}
}
