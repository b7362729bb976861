package htmlx

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestStructuredTextKinds(t *testing.T) {
	blocks := []string{
		// a question with an accepted and a suggested answer
		`{"@context":"https://schema.org","@type":"QAPage","mainEntity":{"@type":"Question",
		  "name":"Why does my sourdough collapse?","text":"It rises well and then falls in the oven.",
		  "acceptedAnswer":{"@type":"Answer","text":"It is over-proofed: shape it earlier."},
		  "suggestedAnswer":[{"@type":"Answer","text":"Try a colder &amp; longer rise."}]}}`,
		// a product inside a graph
		`{"@graph":[{"@type":"WebPage","name":"ignored"},{"@type":"Product","name":"Kettle","description":"<p>Boils a litre<br>in three minutes.</p>"}]}`,
		// the questions and answers of an FAQ
		`{"@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Do you ship abroad?","acceptedAnswer":{"@type":"Answer","text":"Yes, to the EU."}}]}`,
		// not JSON: skipped
		`{"@type":"Product", broken`,
		// markup escaped twice: soup once decoded, skipped
		`{"@type":"Article","articleBody":"&lt;div class=&quot;x&quot;&gt;Soup&lt;/div&gt;"}`,
	}
	l := structuredText(blocks)
	got := strings.Join(l.parts, "|")
	want := "It rises well and then falls in the oven.|It is over-proofed: shape it earlier.|Try a colder & longer rise.|" +
		"Boils a litre in three minutes.|Do you ship abroad?|Yes, to the EU."
	if got != want {
		t.Errorf("parts:\n got %q\nwant %q", got, want)
	}
	if l.headline != "Why does my sourdough collapse?" {
		t.Errorf("headline = %q", l.headline)
	}
	for i, p := range l.parts {
		if !l.complete[i] {
			t.Errorf("part %q should complete a page's text", p)
		}
	}
	art := structuredText([]string{`{"@type":"NewsArticle","headline":"H","articleBody":"Body text."}`})
	if len(art.parts) != 1 || art.complete[0] {
		t.Errorf("an article body stands in for an empty page only: %+v", art)
	}
}

func TestStructuredTextBounds(t *testing.T) {
	long := strings.Repeat("word ", maxLDTextChars/2)
	l := structuredText([]string{`{"@type":"Product","description":"` + long + `"}`, `{"@type":"Product","description":"` + long + `"}`})
	if l.chars > maxLDTextChars {
		t.Errorf("structured text holds %d characters, more than %d", l.chars, maxLDTextChars)
	}
	// a deeply nested block is walked to a bound only
	deep := strings.Repeat(`{"@type":"Comment","text":"x","comment":`, 200) + `{}` + strings.Repeat(`}`, 200)
	if l := structuredText([]string{deep}); len(l.parts) > maxLDDepth+2 {
		t.Errorf("walked %d levels, bound %d", len(l.parts), maxLDDepth)
	}
	// the parser keeps at most maxLDJSONBytes of script text
	big := `<script type="application/ld+json">{"@type":"Product","description":"` + strings.Repeat("a", maxLDJSONBytes) + `"}</script><p>Some text here.</p>`
	tr := parseHTML(big, defaultMaxNodes, defaultMaxDepth)
	if tr.ldjsonN > maxLDJSONBytes {
		t.Errorf("kept %d bytes of structured data, bound %d", tr.ldjsonN, maxLDJSONBytes)
	}
	for _, b := range tr.ldjson {
		if b != "" {
			t.Errorf("a block cut by the bound must be dropped, kept %d bytes", len(b))
		}
	}
}

func TestStructuredDataFindsShellContent(t *testing.T) {
	// a page rendered by scripts: nothing visible but a loading line,
	// the thread stated as a QAPage
	shell := `<html><head><title>Boiler pressure drops overnight - Help</title>
<script type="application/ld+json">{"@type":"QAPage","mainEntity":{"@type":"Question","name":"Boiler pressure drops overnight",
"text":"Every morning the gauge reads 0.5 bar although I topped it up to 1.5 the evening before.",
"suggestedAnswer":[{"@type":"Answer","text":"Check the pressure relief valve pipe outside for drips; a worn valve lets water out slowly."}]}}</script>
<script>window.app.start()</script></head><body><div id="app">Loading…</div></body></html>`
	page, err := ExtractHTML(shell, nil, Limits{})
	if err != nil {
		t.Fatalf("ExtractHTML: %v", err)
	}
	checkText(t, page.Markdown, []string{"# Boiler pressure drops overnight", "the gauge reads 0.5 bar", "a worn valve lets water out slowly"}, []string{"window.app"})
	// the same shell without structured data has nothing to give: the
	// stated reason is that nothing could be extracted
	empty := `<html><head><title>App</title><script>window.app.start()</script></head><body><div id="app"></div></body></html>`
	if _, err := ExtractHTML(empty, nil, Limits{}); !errors.Is(err, ErrNothingExtracted) {
		t.Errorf("empty shell: err = %v, want ErrNothingExtracted", err)
	}
	// structured data inside a template is not read
	tmpl := `<body><template><script type="application/ld+json">{"@type":"Product","description":"Hidden in a template, never shown."}</script></template><p>Visible text of the page, a sentence long.</p></body>`
	page, _ = ExtractHTML(tmpl, nil, Limits{})
	if strings.Contains(page.Markdown, "Hidden in a template") {
		t.Errorf("structured data from a template was used:\n%s", page.Markdown)
	}
}

func TestStructuredDataCompletesHiddenDescription(t *testing.T) {
	doc := `<html><head><title>Walnut desk</title>
<script type="application/ld+json">{"@type":"Product","name":"Walnut desk","description":"Solid walnut top, oiled by hand, on a powder-coated steel frame that ships flat and assembles in ten minutes."}</script></head>
<body><main><h1>Walnut desk</h1><p>Our best-selling desk, made to order in the workshop, with a choice of three widths and two heights.</p>
<p>Delivery takes about three weeks from the day you order, and we will call you to arrange a day.</p></main></body></html>`
	page, err := ExtractHTML(doc, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.Markdown, "Solid walnut top, oiled by hand") {
		t.Errorf("the description stated only in structured data is missing:\n%s", page.Markdown)
	}
	// stated and visible: not repeated
	doc2 := strings.Replace(doc, "Our best-selling desk", "Solid walnut top, oiled by hand, on a powder-coated steel frame that ships flat and assembles in ten minutes. Our best-selling desk", 1)
	page, _ = ExtractHTML(doc2, nil, Limits{})
	if n := strings.Count(page.Markdown, "Solid walnut top"); n != 1 {
		t.Errorf("the description appears %d times:\n%s", n, page.Markdown)
	}
}

func TestSlugLike(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{"receive-and-reply-to-an-sms", true},
		{"share_one_client_across_goroutines", true},
		{"comments", false},
		{"main-content", false},
		{"sidebar-widget-area", false},
		{"a b c d", false},
	} {
		if got := slugLike([]byte(tc.id)); got != tc.want {
			t.Errorf("slugLike(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
	// a section whose anchor is a heading's slug is not chrome
	doc := `<main><section id="share-the-client-between-workers"><h2>Share the client</h2>
<p>Build one client at start-up and pass it to every worker, since it is safe for concurrent use.</p></section>
<section><p>Another section with enough prose to read as the body of the page, and more of it.</p></section></main>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if !strings.Contains(page.Markdown, "Build one client at start-up") {
		t.Errorf("a section with a slug id was dropped:\n%s", page.Markdown)
	}
	// "secondary" among other classes names a colour, alone a column
	if classHints([]byte("text-dark-secondary lg:text-base"), new([]byte))&hintSidebar != 0 {
		t.Error("a colour class read as a sidebar")
	}
	if classHints([]byte("secondary"), new([]byte))&hintSidebar == 0 {
		t.Error(`id="secondary" not read as a sidebar`)
	}
	// "widget" leading a class name is a sidebar's part; inside one, a
	// page builder's block of content
	if classHints([]byte("widget widget_text"), new([]byte))&hintSidebar == 0 {
		t.Error(`class="widget widget_text" not read as a sidebar`)
	}
	if classHints([]byte("elementor-element elementor-widget elementor-widget-text-editor"), new([]byte))&hintSidebar != 0 {
		t.Error("a page builder's text block read as a sidebar")
	}
	// "with", "no" run together with a chrome word name a layout
	for _, c := range []string{"p-body-main p-body-main--withSidebar", "mainContainer_noSidebar", "page hasComments"} {
		if classHints([]byte(c), new([]byte))&hintsNegative != 0 {
			t.Errorf("class=%q read as chrome", c)
		}
	}
	if classHints([]byte("notice-sidebar"), new([]byte))&hintSidebar == 0 {
		t.Error(`class="notice-sidebar" not read as a sidebar`)
	}
}

func TestRepeatedBlocksOnceOutsideArticles(t *testing.T) {
	slide := "<p>I bought a linen blazer here and five people at the office asked me where it came from.</p>"
	carousel := `<html><head><meta property="og:type" content="website"></head><body><main><h1>Reviews</h1>` +
		`<div class="slides">` + slide + slide + slide + `</div><p>Every review is from a verified order placed in the last year.</p></main></body></html>`
	page, _ := ExtractHTML(carousel, nil, Limits{})
	if n := strings.Count(page.Markdown, "linen blazer"); n != 1 {
		t.Errorf("a cloned slide appears %d times:\n%s", n, page.Markdown)
	}
	// an article keeps the repeats its author wrote
	article := strings.Replace(carousel, `content="website"`, `content="article"`, 1)
	page, _ = ExtractHTML(article, nil, Limits{})
	if n := strings.Count(page.Markdown, "linen blazer"); n != 3 {
		t.Errorf("an article's repeated paragraph appears %d times, want 3:\n%s", n, page.Markdown)
	}
}

// A product page: the shop around the product (price, options, delivery,
// reviews, related products) is left out when the page names the
// product's description and the description holds most of its text.
func TestProductDescriptionRoot(t *testing.T) {
	review := `<div class="review"><p>Boils fast and quietly, exactly as described, and the handle stays cool.</p></div>`
	var colours strings.Builder
	for _, c := range []string{"Black", "White", "Red", "Blue", "Green", "Cream", "Copper", "Silver", "Graphite", "Sand"} {
		colours.WriteString("<li>" + c + " colour option</li>")
	}
	page := `<html><head><meta property="og:type" content="product"><title>Steel Kettle</title></head><body>
<nav><a href="/">Home</a> <a href="/kitchen">Kitchen</a></nav>
<main><div class="product">
<h1>Steel Kettle</h1>
<div class="buy"><span>$49.00</span><ul>` + colours.String() + `</ul><span>Quantity</span><span>Free delivery over $50</span><span>In stock, ships tomorrow</span></div>
<div class="product-description"><p>The steel kettle boils a litre of water in three minutes and switches itself off.</p>
<ul><li>Capacity: 1 litre of water</li><li>Power: 2200 W at 230 V</li><li>Cord length: 75 cm, stored in the base</li>
<li>Weight: 1.1 kg when empty</li><li>Filter: removable, washable limescale filter</li><li>Warranty: 2 years from purchase</li>
<li>Base: 360 degree rotating base</li><li>Lid: push button, opens wide</li></ul></div>
</div>
<div class="reviews"><h2>Reviews</h2>` + strings.Repeat(review, 2) + `</div>
<div class="related-products"><a href="/a">Copper Kettle $59</a> <a href="/b">Glass Kettle $39</a></div>
</main></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, p.Markdown, []string{"Steel Kettle", "boils a litre", "Power: 2200 W"}, []string{"$49.00", "Graphite colour", "Free delivery", "handle stays cool", "Copper Kettle"})
}

func TestProductSignals(t *testing.T) {
	for og, want := range map[string]bool{"product": true, "product.item": true, "og:product": true, "product.group": false, "article": false, "": false} {
		if productType(og) != want {
			t.Errorf("productType(%q) = %v", og, !want)
		}
	}
	for v, want := range map[string]bool{"https://schema.org/Product": true, " http://schema.org/Product/ ": true, "https://schema.org/ProductGroup": false, "https://schema.org/Offer": false} {
		if productItemType([]byte(v)) != want {
			t.Errorf("productItemType(%q) = %v", v, !want)
		}
	}
	one := parseHTML(`<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Kettle</span></div>`, defaultMaxNodes, defaultMaxDepth)
	if one.productItems != 1 {
		t.Errorf("productItems = %d, want 1", one.productItems)
	}
	l := structuredText([]string{`{"@type":"ItemList","itemListElement":[{"@type":"Product","name":"A"},{"@type":"Product","name":"B"}]}`, `{"@type":"ProductGroup","name":"Kettle"}`})
	if l.products != 1 {
		t.Errorf("products = %d, want 1 (the items of a list are not the page's product)", l.products)
	}
}

func TestRepeatedSetWithMarkedMember(t *testing.T) {
	long := strings.Repeat("The accepted answer explains the cause at length, with the reasons behind it. ", 6)
	short := func(s string) string {
		return "<p>" + s + " is another way to go about it, and it works well enough for most readers here.</p>"
	}
	doc := `<html><body><div class="question"><p>Why does the build fail after the upgrade, and what should I change?</p></div>` +
		`<div id="answers"><div class="answer accepted-answer"><div class="post-body"><p>` + long + `</p></div></div>` +
		`<div class="answer"><div class="post-body">` + short("Pinning the version") + `</div></div>` +
		`<div class="answer"><div class="post-body">` + short("Clearing the cache") + `</div></div></div></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	for _, want := range []string{"accepted answer explains", "Pinning the version", "Clearing the cache"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out:\n%s", want, page.Markdown)
		}
	}
	// sections of a page builder named after their kind are no run
	sec := func(kind, text string) string {
		return `<section class="section ` + kind + `"><p>` + text + `</p></section>`
	}
	doc = `<html><body><main>` + sec("story", long) +
		sec("promo", "Subscribe to the weekly letter for more stories like this one, every Friday morning.") +
		sec("teasers", "Read next: a visit to the workshop where the old machines are still running today.") +
		`</main></body></html>`
	page, _ = ExtractHTML(doc, nil, Limits{})
	if strings.Contains(page.Markdown, "weekly letter") {
		t.Errorf("a page builder's sections taken as a run:\n%s", page.Markdown)
	}
}

func TestConsentDialogIsNoContent(t *testing.T) {
	legal := strings.Repeat("<p>These cookies allow us to count visits and traffic sources, so we can measure and improve the performance of our site.</p>", 8)
	post := func(who, text string) string {
		return `<div class="post"><span>` + who + `</span><p>` + text + `</p></div>`
	}
	doc := `<html><body><div class="topic">` +
		post("ann", "Has anyone tried the new firmware on the older board?") +
		post("bob", "Yes, it works, but flash it twice.") +
		post("cy", "Mine bricked, so keep a backup image.") +
		`</div><div id="privacy-consent-center"><div class="pc-center"><h2>Privacy preferences</h2>` + legal + `</div></div></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	checkText(t, page.Markdown, []string{"flash it twice"}, []string{"cookies allow us"})
}

func TestThreadWithLongOpeningPost(t *testing.T) {
	opening := "<p>" + strings.Repeat("I have been weighing a move into consulting after my degree, and I would like to hear how it went for you. ", 14) + "</p>"
	reply := func(text string) string {
		// each reply classed by its place in the thread
		class := "comment c" + strconv.Itoa(len(text))
		return `<div class="` + class + `"><p>` + strings.Repeat(text+" ", 12) + `</p></div>`
	}
	doc := `<html><body><div class="thread"><div class="post">` + opening + `</div><div class="thread-body">` +
		reply("The hours were long in my first two years, but I learned more than anywhere else, and I do not regret it.") +
		reply("It depends on the firm: a boutique gave me far better balance than the large houses ever did for my friends.") +
		reply("I left after three years for industry, and the pay was the same with half of the travel, which suited me.") +
		`</div></div></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	for _, want := range []string{"weighing a move", "boutique gave me", "left after three years"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out of a thread:\n%s", want, page.Markdown)
		}
	}
	// reviews below a product are not a thread's posts
	review := func(text string) string {
		return `<div class="review r` + strconv.Itoa(len(text)) + `"><p>` + strings.Repeat(text+" ", 12) + `</p></div>`
	}
	doc = `<html><body><div class="product"><div class="description">` + opening + `</div>` +
		review("The hours were long in my first two years, but I learned more than anywhere else, and I do not regret it.") +
		review("It depends on the firm: a boutique gave me far better balance than the large houses ever did for my friends.") +
		review("I left after three years for industry, and the pay was the same with half of the travel, which suited me.") +
		`</div></body></html>`
	page, _ = ExtractHTML(doc, nil, Limits{})
	if strings.Contains(page.Markdown, "boutique gave me") {
		t.Errorf("a product's reviews taken as posts:\n%s", page.Markdown)
	}
}

func TestDeclaredArticleThreadList(t *testing.T) {
	post := func(i int, text string) string {
		// each post classed by its place (owner, reply)
		return `<li class="comment p` + strconv.Itoa(i) + `"><p>` + strings.Repeat(text+" ", 3) + `</p></li>`
	}
	doc := `<html><head><meta property="og:type" content="article"></head><body><div class="topic"><h1>How do I show a saved route?</h1>` +
		`<div class="topic-meta"><p>Asked in Help and support, by a new member, four replies so far.</p></div><ul class="posts">` +
		post(1, "I saved many routes on my laptop and I would like to see them on the tablet as well, is there a way?") +
		post(2, "Open the menu, then the saved routes panel, and pick the one you want to see on the map.") +
		post(3, "That panel is empty on my tablet, although the laptop shows all of them in the list.") +
		post(4, "Check that you are logged in with the same account on both, the routes are kept per account.") +
		`</ul></div></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	for _, want := range []string{"saved many routes", "saved routes panel", "panel is empty", "same account"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out of a thread:\n%s", want, page.Markdown)
		}
	}
	// an article's own comment section stays out, short as the article is
	article := strings.Replace(doc, `<ul class="posts">`, `<div class="comments-area"><ul>`, 1)
	article = strings.Replace(article, `</ul>`, `</ul></div>`, 1)
	page, _ = ExtractHTML(article, nil, Limits{})
	if strings.Contains(page.Markdown, "same account") {
		t.Errorf("an article's comment section taken as a thread:\n%s", page.Markdown)
	}
}

func TestPostAuthorCardLeftOut(t *testing.T) {
	post := func(who, text string) string {
		return `<article class="message"><div class="message-user"><h4>` + who + `</h4><h5 class="userTitle">Senior Member</h5>` +
			`<div class="message-userExtras"><dl><dt>Joined</dt><dd>Jun 29, 2016</dd></dl><dl><dt>Messages</dt><dd>4,726</dd></dl></div></div>` +
			`<div class="message-body"><p>` + text + `</p></div></article>`
	}
	doc := `<html><body><div class="thread">` +
		post("ann", "Has anyone tried the new firmware on the older board, and did it keep the settings?") +
		post("bob", "Yes, it works on mine, but flash it twice and keep the old image somewhere safe.") +
		post("cy", "Mine lost the network settings, so write them down before you start the update.") +
		`</div></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	checkText(t, page.Markdown, []string{"flash it twice"}, []string{"Joined", "4,726", "Senior Member"})
}

func TestArticleBodyOfLinkLists(t *testing.T) {
	var items strings.Builder
	for i := 0; i < 12; i++ {
		items.WriteString(`<li><a href="https://example.org/pull/` + strconv.Itoa(i) + `">Fix the handling of nested replies in the federation queue</a></li>`)
	}
	doc := `<html><body><div class="post-listing"><div class="post-body">` +
		`<p>Here is our regular update that explains what we have been working on for the past two weeks, for everyone who follows along.</p>` +
		`<h2>Changes</h2><ul>` + items.String() + `</ul>` +
		`<h2>Support development</h2><p>Thanks to all contributors who sent patches, reviews and translations.</p>` +
		`</div></div></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	for _, want := range []string{"regular update", "Thanks to all contributors"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out of the article body:\n%s", want, page.Markdown)
		}
	}
}

func TestDeclaredArticleWhoseProseIsAReply(t *testing.T) {
	post := func(kind, text string) string {
		return `<div><article class="post-box ` + kind + `"><div class="post-box-body"><p>` + text + `</p></div></article></div>`
	}
	doc := `<html><head><meta property="og:type" content="article"></head><body><main><div class="topic">` +
		post("original-topic", "Here is an idea to raise the tips on catering: add a line for a discretionary gratuity.") +
		post("reply-post-box", "That is a great idea, we started adding an automatic fifteen percent and nobody said a word.") +
		post("reply-post-box", strings.Repeat("We should not expect nor require a tip, ever; the price is the price and it should cover the work. ", 5)) +
		post("reply-post-box", "I add it only for events with more than fifty guests, and I say so in the proposal.") +
		`</div></main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	for _, want := range []string{"discretionary gratuity", "automatic fifteen percent", "price is the price", "fifty guests"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out of the thread:\n%s", want, page.Markdown)
		}
	}
}

func TestHeadlineRootWrittenOnce(t *testing.T) {
	title := "Regulator to Europe: if you restrict our satellite providers, we will ban yours here, the chair says."
	doc := `<html><head><title>` + title + `</title></head><body><main><div><a href="/r/tech">r/tech</a></div><h1>` + title + `</h1>` +
		`<div><a href="https://news.example/story">news.example</a></div></main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if n := strings.Count(page.Markdown, "satellite providers"); n != 1 {
		t.Errorf("the headline appears %d times:\n%s", n, page.Markdown)
	}
}
