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
	checkText(t, page.Markdown, []string{"move their cars", "When will the road reopen?", "probably on Monday"}, []string{"Click to expand"})
}

func TestAuthorBoxAfterArticleLeftOut(t *testing.T) {
	box := `<div class="box"><img src="/ann.jpg" alt=""><div class="name"><a href="/author/ann-lee/">Ann Lee</a></div>` +
		`<div class="desc"><p>Ann Lee has covered the valley's weather and rivers for twenty years, and before that she taught geography.</p></div></div>`
	// a standfirst above the article that names its author stays
	intro := `<div class="intro"><div><a href="/author/ann-lee/">Ann Lee</a></div>` +
		`<p>The valley had its worst flood in fifty years, and the town is still counting the cost of it.</p></div>`
	page := extract(t, chromePage(intro+articleProse+box))
	checkText(t, page.Markdown, []string{"worst flood in fifty years", "recede over the weekend"}, []string{"taught geography"})
	// a paragraph of the article that names a writer in passing stays
	doc := chromePage(articleProse + `<p>Our reporter <a href="/author/ann-lee/">Ann Lee</a> spent the night with the crews who kept the pumps running along the lower streets.</p>`)
	if page := extract(t, doc); !strings.Contains(page.Markdown, "kept the pumps running") {
		t.Errorf("a paragraph naming its author left out:\n%s", page.Markdown)
	}
}

// siteDownReplies are the replies of a made-up thread ("Is the site
// down?"), for tests that need posts around what they look at.
var siteDownReplies = []string{"Same here, it came back after a restart of the router, and the app works again on the phone too.",
	"Mine too. Thanks for the tip, it works again after I logged out and back in with the new password!",
	"Did not work for me, the page is still offline here, and the status page says nothing about it.",
	"Try clearing the cache first, then log in again; that was what fixed it for me last time as well.",
	"That fixed it, cheers. The cache was the problem all along, and the old cookies with it, it seems.",
	"Works again since this morning, on both phones and the laptop, so it was on their side after all."}

func TestPopoverIsNoContent(t *testing.T) {
	var posts strings.Builder
	for _, r := range siteDownReplies {
		posts.WriteString(`<div class="post"><a href="/members/someone">someone</a><div class="text"><p>` + r + `</p></div></div>`)
	}
	doc := `<html><body><div class="app-install-popover"><p>A full-screen app on your home screen, with push notifications, badges and more. Tap the share icon, then add it to the home screen.</p></div>` +
		`<main><h1>Is the site down?</h1><div class="posts">` + posts.String() + `</div></main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	checkText(t, page.Markdown, []string{"clearing the cache"}, []string{"push notifications"})
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

func TestTrailingBoxAfterBodyLeftOut(t *testing.T) {
	body := `<div class="a1">` + articleProse +
		`<p>The council met on Saturday to count the damage, street by street, and promised grants to the shops that lost their stock to the water.</p>` +
		`<p>Engineers will inspect the old stone bridge on Monday; until then it stays closed to cars, and buses take the long way round by the ring road.</p>` +
		`<p>Farmers upstream say the fields will need weeks to dry out, and some of the winter crop is lost already, which will raise prices at the market.</p>` +
		`<p>The school on the hill stays open as a shelter for as long as it is needed, and the town hall has opened a line for offers of help and of rooms.</p>` +
		`<p>Next week the river authority will publish its report on the flood, with a plan for a higher wall along the quay and new pumps.</p></div>`
	// a box below the body, in no class that says so: a disclaimer
	box := `<div class="a2"><p>The information in this story is for general guidance only and is not advice; always follow the instructions of the emergency services and of your insurer before you act.</p></div>`
	page := extract(t, chromePage(`<div class="a0">`+body+box+`</div>`))
	checkText(t, page.Markdown, []string{"offers of help"}, []string{"general guidance only"})
	// sections of a page with prose before the largest one are all its
	// content, the last one too
	intro := `<div class="a3"><p>Our crews have cleared flooded homes and shops across the valley for thirty years, and we are on call day and night, every day of the year, with pumps and dryers.</p></div>`
	page = extract(t, chromePage(`<div class="a0">`+intro+body+box+`</div>`))
	if !strings.Contains(page.Markdown, "general guidance only") {
		t.Errorf("the last section of a page of sections left out:\n%s", page.Markdown)
	}
}

func TestThreadOfMembersOnDeclaredArticle(t *testing.T) {
	thread := func(link string) string {
		var b strings.Builder
		b.WriteString(`<html><head><meta property="og:type" content="article"><title>Which host for a small server?</title></head><body><ol class="messageList">`)
		post := func(cls, name, text string) {
			b.WriteString(`<li class="message ` + cls + `"><div class="user"><a href="` + link + name + `.1/">` + name + `</a></div>` +
				`<article><blockquote class="messageText">` + text + `</blockquote></article></li>`)
		}
		post("threadAuthor", "pelle", `I have tried five hosts for a small modded server over the last two years. The cheapest one went down for a day every month, `+
			`and its support never answered. The second was fine until the price doubled. The third is what I use now: it has a panel that is easy to use, `+
			`backups every night and a location close to my players, and it costs about four dollars a month for four gigabytes of memory. `+
			`Which one would you pick, and why? I would like to move the server before the winter break, when most of my players are online.`)
		post("", "anna", "I have used the third one for a year and never had an outage. Their support answers within the hour, even at weekends.")
		post("", "bo", "Check the backup policy first: some hosts keep only one day, and you will want a week at least when a mod breaks the world.")
		post("", "cy", "Mine is on the second host and the price went up for me too, so I am moving to the third one next month as well.")
		b.WriteString(`</ol></body></html>`)
		return b.String()
	}
	page, _ := ExtractHTML(thread("members/"), nil, Limits{})
	for _, want := range []string{"five hosts", "never had an outage", "backup policy first", "moving to the third"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out of the thread:\n%s", want, page.Markdown)
		}
	}
	// entries whose names lead elsewhere are not taken for posts
	page, _ = ExtractHTML(thread("/tag/"), nil, Limits{})
	if strings.Contains(page.Markdown, "backup policy first") {
		t.Errorf("entries without members' links taken for a thread:\n%s", page.Markdown)
	}
}

func TestPostNumberLeftOut(t *testing.T) {
	post := func(n, text string) string {
		return `<div class="msg"><div class="head"><span>Aug 5, 2025</span> <a href="/threads/flood.9/post-` + n + `">#` + n + `</a></div><p>` + text + `</p></div>`
	}
	doc := chromePage(post("41", "The river rose through the night, and by morning the lower town was under water again, as it was in the spring.") +
		post("42", "Emergency crews moved families to the school on the hill, as they did last time, and the road stays closed.") +
		`<p>The bridge repair is tracked as issue <a href="/issues/20713">#20713</a>, which the council expects to close before the winter.</p>`)
	page := extract(t, doc)
	if strings.Contains(page.Markdown, "#41") || strings.Contains(page.Markdown, "#42") {
		t.Errorf("a post's number kept:\n%s", page.Markdown)
	}
	for _, want := range []string{"Aug 5, 2025", "#20713", "under water again"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out:\n%s", want, page.Markdown)
		}
	}
}

func TestShortThreadOfMembersTaken(t *testing.T) {
	var member func(id, name string) string
	post := func(id, name, date, text string) string {
		return `<div id="post` + id + `"><div>` + member(id, name) + `</div><div>` + date + `</div><div>` + text + `</div></div>`
	}
	page := func() string {
		return `<html><head><title>Wrong refresh rate - Video Forum</title></head><body>` +
			`<table><tr><td>Welcome to the Video Forum</td><td>Forum Rules</td><td>Members: 96,000</td><td>Threads: 186,000</td>` +
			`<td>Posts: 1,950,000</td><td>Newest member: someone</td><td>Users online: 3,200</td></tr></table>` +
			`<div>` +
			post("11", "microfast", "30th March 2025", `I have tested a new graphics card, and when I play a movie at the usual 23.976 rate the player shows a wrong rate of 23.951. `+
				`I tried to correct this with a custom resolution in the control panel, as I did with my old card, but nothing changes: the refresh rate stays locked `+
				`to this strange value. Has anybody seen this?`) +
			post("12", "geoffrey", "2nd April 2025", "Same here with the older card of that series; a newer driver fixed it for me.") +
			`</div>` +
			`<div><div>Posting Rules</div><div>You may not post new threads</div><div>You may not post replies</div>` +
			`<div>You may not post attachments</div><div>BB code is On</div><div>Smilies are On</div><div>HTML code is Off</div>` +
			`<div>All times are GMT +1</div><div>Powered by a bulletin board 3.8</div>` +
			`<div>Contact Us</div><div>Archive</div><div>Top</div><div>Privacy Statement</div><div>Terms of Service</div><div>Mark forums read</div></div>` +
			`</body></html>`
	}
	member = func(id, name string) string { return `<a href="member.php?u=` + id + `">` + name + `</a>` }
	got, _ := ExtractHTML(page(), nil, Limits{})
	checkText(t, got.Markdown, []string{"23.951", "newer driver fixed it"}, []string{"Welcome to the Video Forum", "may not post attachments"})
	// blocks alike whose names lead to no member's page are not taken
	// for posts: the page stays whole
	member = func(id, name string) string { return name }
	got, _ = ExtractHTML(page(), nil, Limits{})
	if !strings.Contains(got.Markdown, "Welcome to the Video Forum") {
		t.Errorf("two blocks without members' links taken for a thread:\n%s", got.Markdown)
	}
}

func TestPageBuilderWidgetsKept(t *testing.T) {
	row := func(item, price string) string {
		return `<div class="row"><span>` + item + `</span> <span>` + price + `</span></div>`
	}
	doc := chromePage(`<div class="cell">` +
		`<div class="panel widget widget-editor"><div class="textwidget">` + articleProse + `</div></div>` +
		`<div class="widget_text panel widget widget-html"><div class="textwidget"><h3>What the repairs cost</h3>` +
		row("Pumping out a cellar", "$149+") + row("Replacing a fuse board", "$1,595 - $3,000+") +
		row("Drying a room", "$89 - $249+") + row("New sockets", "$150 - $350+") + `</div></div>` +
		`<div class="panel widget widget-editor"><div class="textwidget"><p>The prices above are a guide; every flooded house is different, and we quote each one after a visit.</p></div></div>` +
		`</div>`)
	page := extract(t, doc)
	for _, want := range []string{"recede over the weekend", "Replacing a fuse board", "quote each one after a visit"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out:\n%s", want, page.Markdown)
		}
	}
}

func TestBadgeLeftOut(t *testing.T) {
	doc := chromePage(articleProse + `<h2>Where to stay <span class="badge badge-info">Updated</span></h2>` +
		`<p>The school on the hill takes families until the water goes down, and the hotel by the station has rooms at half price.</p>`)
	page := extract(t, doc)
	checkText(t, page.Markdown, []string{"Where to stay"}, []string{"Updated"})
}

func TestListOfButtonsLeftOut(t *testing.T) {
	var posts strings.Builder
	for i, r := range siteDownReplies[:4] {
		n := strconv.Itoa(i)
		posts.WriteString(`<div class="comment"><a href="/user/u` + n + `">u` + n + `</a><div class="text"><p>` + r + `</p></div>` +
			`<ul class="flat-list buttons"><li><a href="/c/` + n + `/">permalink</a></li><li><a href="/c/` + n + `/embed">embed</a></li>` +
			`<li><a href="/c/` + n + `/report">report</a></li></ul></div>`)
	}
	doc := `<html><body><main><h1>Is the site down?</h1><div class="comments">` + posts.String() + `</div></main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	checkText(t, page.Markdown, []string{"clearing the cache"}, []string{"permalink", "embed", "report"})
}
