package htmlx

import (
	"strings"
	"testing"
)

// Rules found on documentation and product pages.

func TestAdFormsAtWordStart(t *testing.T) {
	for _, c := range []string{"Lead_container__m3L5f", "thread-wrapper", "head-wrapper", "upload-container"} {
		if classHints([]byte(c), new([]byte))&hintAd != 0 {
			t.Errorf("%q read as an advert", c)
		}
	}
	for _, c := range []string{"ad-container", "adContainer", "topAdUnit", "sidebar_ad-slot", "advert-box", "md:flex ad-wrapper"} {
		if classHints([]byte(c), new([]byte))&hintAd == 0 {
			t.Errorf("%q not read as an advert", c)
		}
	}
	// a lead paragraph classed as such stays in a documentation page
	doc := `<html><body><main><h1>Writing workflows</h1>` +
		`<div class="f2 Lead_container__x1"><p>Workflows can automate tasks throughout the software development lifecycle, from builds to releases.</p></div>` +
		`<div><h2>Using templates</h2><p>Templates for a variety of languages and tools help you start quickly, and you can adapt them to your needs.</p>` +
		`<h2>Choosing when it runs</h2><p>You can configure a workflow to run on events in the repository, on a schedule, or by hand when you need it.</p></div>` +
		`</main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if !strings.Contains(page.Markdown, "automate tasks throughout") {
		t.Errorf("the lead paragraph left out:\n%s", page.Markdown)
	}
}

func TestListIntroducedByASentence(t *testing.T) {
	section := func(name string) string {
		return `<h2>` + name + `</h2><p>The ` + name + ` type stores values in the order they arrive and lets you read them back in constant time. For more information, see:</p>` +
			`<ul><li><a href="/` + name + `">Overview of ` + name + `</a></li><li><a href="/cmd/` + name + `">` + name + ` command reference</a></li></ul>`
	}
	doc := `<html><body><main><h1>Data types</h1>` + section("lists") + section("streams") + section("hashes") +
		`<p>To extend the types the server provides, write functions of your own and load them when the server starts.</p>` +
		`<h3>Elsewhere</h3><ul><li><a href="/blog">Blog</a></li><li><a href="/jobs">Careers</a></li></ul>` +
		`</main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	for _, want := range []string{"Overview of lists", "streams command reference", "Overview of hashes"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out:\n%s", want, page.Markdown)
		}
	}
	if strings.Contains(page.Markdown, "Careers") {
		t.Errorf("a list of links after a heading kept:\n%s", page.Markdown)
	}
}

func TestCardsFollowedByProseStay(t *testing.T) {
	card := func(name string) string {
		return `<div class="card"><h3><a href="/guide/` + name + `">` + name + `</a></h3><p>Learn ` + name + ` step by step.</p></div>`
	}
	para := `<p>Start with the basics of the platform, then build a small app of your own and publish it for your users to try out.</p>`
	cards := `<div class="cards">` + card("Compose") + card("Kotlin") + card("Jetpack") + `</div>`
	long := strings.Repeat(`<p>The build tools compile your code, package it with its resources and sign it, so that a device can install it safely.</p>`, 4)
	doc := `<html><body><main><h1>Get started</h1>` + para + cards + `<h2>Build your app</h2>` + long + `</main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if !strings.Contains(page.Markdown, "Learn Jetpack step by step") {
		t.Errorf("cards between the sections left out:\n%s", page.Markdown)
	}
	// the same cards closing the text are related items
	doc = `<html><body><main><h1>Get started</h1>` + para + long + cards + `</main></body></html>`
	page, _ = ExtractHTML(doc, nil, Limits{})
	if strings.Contains(page.Markdown, "Learn Jetpack step by step") {
		t.Errorf("cards closing the text kept:\n%s", page.Markdown)
	}
}

func TestRelatedItemsHeadingOnProductPage(t *testing.T) {
	item := func(name string) string {
		return `<div class="tile"><a href="/p/` + name + `"><img src="/i/` + name + `.jpg" alt=""></a><h4>` + name + `</h4><span>$19.99</span></div>`
	}
	doc := `<html><head><meta property="og:type" content="product"><title>Steel Tumbler 20 oz</title></head><body><main>` +
		`<h1>Steel Tumbler 20 oz</h1><p>A go-to for coffee on the go. Double-wall insulation keeps drinks hot or cold for hours, and it fits most cupholders.</p>` +
		`<ul><li>Dishwasher safe</li><li>Splash resistant lid</li></ul>` +
		`<section class="carousel"><h2>You may also like</h2><div class="row">` + item("Camp Mug") + item("Wine Tumbler") + item("Water Bottle") + `</div></section>` +
		`<h2>Care</h2><p>Wash the lid by hand now and then, and let the gasket dry before you put it back, so that it keeps sealing well.</p>` +
		`</main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if !strings.Contains(page.Markdown, "Double-wall insulation") {
		t.Errorf("the description left out:\n%s", page.Markdown)
	}
	for _, bad := range []string{"You may also like", "Wine Tumbler"} {
		if strings.Contains(page.Markdown, bad) {
			t.Errorf("related item %q kept:\n%s", bad, page.Markdown)
		}
	}
}

func TestOutlineItemsWithAnnotatedLinks(t *testing.T) {
	arg := func(name, typ string) string {
		return `<li><a href="/docs/resource#` + name + `"><code>` + name + `</code></a> ` + typ + `</li>`
	}
	doc := `<html><body><main><h1>resource block reference</h1>` +
		`<p>A resource block declares an object that the provider manages, with the arguments that configure it and the blocks nested in it.</p>` +
		`<ul><li><a href="/docs/resource#connection"><code>connection</code></a> block<ul>` + arg("type", "string") + arg("user", "string") + arg("password", "string") + arg("host", "string") + `</ul></li>` +
		`<li><a href="/docs/resource#lifecycle"><code>lifecycle</code></a> block<ul>` + arg("create_before_destroy", "boolean") + arg("prevent_destroy", "boolean") + `</ul></li></ul>` +
		`<p>Each argument is described in its own section below, with the values it accepts and an example of its use in a configuration.</p>` +
		`</main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	for _, want := range []string{"password", "prevent_destroy"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out:\n%s", want, page.Markdown)
		}
	}
}

func TestCodeLanguageLabelOnce(t *testing.T) {
	doc := `<html><body><main><h1>Using promises</h1>` +
		`<p>A promise is an object that stands for the eventual completion of an asynchronous operation, or for its failure.</p>` +
		`<div class="code-example"><div class="example-header"><span class="language-name">js</span></div>` +
		`<pre class="brush: js notranslate"><code>doSomething().then((result) =&gt; doSomethingElse(result));</code></pre></div>` +
		`<div><span>Terminal</span></div><pre><code>npm install</code></pre>` +
		`<p>Each call returns a new promise, so the calls can be chained one after the other in the order they run.</p>` +
		`</main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if strings.Contains(page.Markdown, "\njs\n") || !strings.Contains(page.Markdown, "```js\ndoSomething()") {
		t.Errorf("the language label written beside the fence:\n%s", page.Markdown)
	}
	if !strings.Contains(page.Markdown, "Terminal") {
		t.Errorf("a label that is not the block's language left out:\n%s", page.Markdown)
	}
}
