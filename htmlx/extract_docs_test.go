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
	checkText(t, page.Markdown, []string{"Overview of lists", "streams command reference", "Overview of hashes"}, []string{"Careers"})
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
	checkText(t, page.Markdown, []string{"Double-wall insulation"}, []string{"You may also like", "Wine Tumbler"})
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

func TestNextStepsPointersKept(t *testing.T) {
	long := strings.Repeat(`<p>The warehouse stores your tables in columns and runs each query on many machines at once, so that large scans finish quickly.</p>`, 3)
	doc := `<html><body><main><h1>Warehouse overview</h1>` + long +
		`<h2>What's next</h2><ul>` +
		`<li>For an overview of how tables are stored, see <a href="/storage">Overview of warehouse storage</a>.</li>` +
		`<li>For an overview of how queries are run, see <a href="/queries">Overview of warehouse queries</a>.</li>` +
		`</ul></main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	for _, want := range []string{"how tables are stored", "Overview of warehouse queries"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out:\n%s", want, page.Markdown)
		}
	}
	// items that are only links, or plug several, still go
	doc = `<html><body><main><h1>Warehouse overview</h1>` + long +
		`<ul><li><a href="/a">Our new pricing</a></li>` +
		`<li>Follow us on <a href="/x">X</a>, <a href="/f">Facebook</a> and <a href="/i">Instagram</a>.</li></ul></main></body></html>`
	page, _ = ExtractHTML(doc, nil, Limits{})
	if strings.Contains(page.Markdown, "Follow us") || strings.Contains(page.Markdown, "Our new pricing") {
		t.Errorf("closing links kept:\n%s", page.Markdown)
	}
}

func TestSeeAlsoLinksKept(t *testing.T) {
	long := strings.Repeat(`<p>A promise stands for a value that is not known yet: it settles later, and the handlers you attach run once it does.</p>`, 3)
	for _, seeAlso := range []string{
		// the heading inside the section with the list, the heading before the list
		`<section><h2><a href="#see_also">See also</a></h2><ul><li><a href="/async">async function</a></li><li><a href="/spec">Promises/A+ specification</a></li><li><a href="/guide">Using promises</a></li></ul></section>`,
		`<h2>See also</h2><ul><li><a href="/async">async function</a></li><li><a href="/spec">Promises/A+ specification</a></li><li><a href="/guide">Using promises</a></li></ul>`,
	} {
		doc := `<html><body><main><h1>Promise</h1>` + long + seeAlso + `</main></body></html>`
		page, _ := ExtractHTML(doc, nil, Limits{})
		for _, want := range []string{"async function", "Promises/A+ specification", "Using promises"} {
			if !strings.Contains(page.Markdown, want) {
				t.Errorf("%q left out:\n%s", want, page.Markdown)
			}
		}
	}
	// the same links under another heading are a list of related pages
	doc := `<html><body><main><h1>Promise</h1>` + long +
		`<section><h2>Popular</h2><ul><li><a href="/async">async function</a></li><li><a href="/spec">Promises/A+ specification</a></li><li><a href="/guide">Using promises</a></li></ul></section></main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if strings.Contains(page.Markdown, "Using promises") {
		t.Errorf("a link list kept:\n%s", page.Markdown)
	}
}

func TestUnpunctuatedRunIsNotProse(t *testing.T) {
	var towns []string
	for i := 0; i < 60; i++ {
		towns = append(towns, "Springfield", "Riverside", "9021"+string(rune('0'+i%10)))
	}
	doc := `<html><body><main><h1>Party rentals</h1>` +
		`<p>We deliver tables, chairs and tents to your event, set them up, and take them away when the party is over.</p>` +
		`<p>Every order is cleaned and checked before it leaves our depot, and our crew arrives at the time you choose.</p>` +
		`<div class="item"><h3>Tables</h3><p>Round, square and long tables</p></div>` +
		`<div class="item"><h3>Chairs</h3><p>Folding and padded chairs</p></div>` +
		`<div class="item"><h3>Tents</h3><p>Tents for any size of event</p></div></main>` +
		`<footer><div>` + strings.Join(towns, " ") + `</div></footer>` +
		`</body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if !strings.Contains(page.Markdown, "Folding and padded chairs") || strings.Contains(page.Markdown, "Riverside") {
		t.Errorf("a list of towns taken for the page's prose:\n%s", page.Markdown)
	}
	// a script that writes sentences without marks keeps its prose
	s := &nodeStats{ownChars: 400}
	if _, good := blockScore(&node{}, s, strings.Repeat("ภาษาไทย ", 60)); !good {
		t.Errorf("Thai text without punctuation not prose")
	}
	if _, good := blockScore(&node{}, s, strings.Repeat("Springfield ", 40)); good {
		t.Errorf("a run of names without punctuation read as prose")
	}
}

func TestProductDescriptionReworded(t *testing.T) {
	ld := `<script type="application/ld+json">{"@type":"Product","name":"Sunflower Seeds",` +
		`"description":"Organic sunflower seeds are nutritionally dense, with vitamins and minerals such as vitamin E and zinc, which protect the body from oxidative stress."}</script>`
	body := `<main><h1>Sunflower Seeds</h1><div class="description"><p>These organic seeds are nutritionally dense: vitamin E and zinc protect the body from oxidative stress, and the minerals they hold are hard to find elsewhere.</p>` +
		`<p>Try them in muesli, on porridge or in smoothies for added nutrition and flavour.</p></div></main>`
	doc := `<html><head><meta property="og:type" content="product">` + ld + `</head><body>` + body + `</body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if strings.Contains(page.Markdown, "Organic sunflower seeds are nutritionally dense") {
		t.Errorf("the description the page says in its own words added again:\n%s", page.Markdown)
	}
	// a description the page does not show is added
	ld = strings.Replace(ld, "Organic sunflower seeds are nutritionally dense, with vitamins and minerals such as vitamin E and zinc, which protect the body from oxidative stress.",
		"Harvested in late summer from fields in the Danube plain, dried slowly and hulled by hand before packing in compostable bags.", 1)
	doc = `<html><head><meta property="og:type" content="product">` + ld + `</head><body>` + body + `</body></html>`
	page, _ = ExtractHTML(doc, nil, Limits{})
	if !strings.Contains(page.Markdown, "Harvested in late summer") {
		t.Errorf("a description the page lacks not added:\n%s", page.Markdown)
	}
}

func TestCodeLinesApart(t *testing.T) {
	long := `<p>Start by creating a new project if you do not have one set up already, then install the plugin and add it to your configuration.</p>`
	after := `<p>Run your build process with the command your project configures, and start using the classes in your templates.</p>`
	for _, code := range []string{
		// a highlighter's line boxes with no line break between them
		`<pre class="shiki"><code><span class="line"><span style="color:red">npm</span><span> create vite@latest my-project</span></span><span class="line"><span>cd</span><span> my-project</span></span></code></pre>`,
		// blocks inside the code block
		`<pre><code><div class="ec-line"><div class="code">npm create vite@latest my-project</div></div><div class="ec-line"><div class="code">cd my-project</div></div></code></pre>`,
	} {
		doc := `<html><body><main><h1>Installation</h1>` + long + code + after + `</main></body></html>`
		page, _ := ExtractHTML(doc, nil, Limits{})
		if !strings.Contains(page.Markdown, "npm create vite@latest my-project\ncd my-project") {
			t.Errorf("the code's lines run together:\n%s", page.Markdown)
		}
	}
	// the spans of one line stay on it; a line break already there is not doubled
	doc := `<html><body><main><h1>Installation</h1>` + long +
		`<pre><code><span class="line"><span>npm</span><span> install</span></span>` + "\n" + `<span class="line">npm run dev</span></code></pre>` + after + `</main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	if !strings.Contains(page.Markdown, "npm install\nnpm run dev") {
		t.Errorf("the code's lines set apart wrongly:\n%s", page.Markdown)
	}
}

func TestOutlineAnnouncedBySentence(t *testing.T) {
	long := strings.Repeat(`<p>A form collects what the user types, checks it and hands the cleaned values to your view, which saves them or answers with the errors.</p>`, 3)
	outline := `<p>This covers the basics, but forms can do a whole lot more:</p><div class="toctree-wrapper"><ul>` +
		`<li><a href="/formsets/">Formsets</a><ul><li><a href="/formsets/#initial">Using initial data with a formset</a></li><li><a href="/formsets/#max">Limiting the maximum number of forms</a></li></ul></li>` +
		`<li><a href="/modelforms/">Creating forms from models</a><ul><li><a href="/modelforms/#modelform">ModelForm</a></li><li><a href="/modelforms/#inline">Inline formsets</a></li></ul></li>` +
		`</ul></div>`
	doc := `<html><body><main><h1>Working with forms</h1>` + long + outline + long + `</main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	for _, want := range []string{"Using initial data with a formset", "Inline formsets"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out:\n%s", want, page.Markdown)
		}
	}
	// a section that holds the sentence announcing its list
	section := `<section><h3>Data developer</h3><p>Task guidance to help if you need to do the following:</p><ul>` +
		`<li><a href="/load">Load data into the warehouse</a></li><li><a href="/samples">Use the code sample library</a></li><li><a href="/odbc">ODBC and JDBC integration</a></li></ul></section>`
	doc = `<html><head><meta property="og:type" content="article"></head><body><main><h1>Warehouse overview</h1>` + long + section + long + `</main></body></html>`
	page, _ = ExtractHTML(doc, nil, Limits{})
	if !strings.Contains(page.Markdown, "Use the code sample library") {
		t.Errorf("a section announcing its links left out:\n%s", page.Markdown)
	}
	// a flat list of stories in a wrapper, announced the same way, goes
	flat := `<p>You may also want to read these posts:</p><div class="posts"><ul><li><a href="/a">Ten tips for better forms</a></li>` +
		`<li><a href="/b">Why validation matters</a></li><li><a href="/c">Our new form builder</a></li></ul></div>`
	// (on a page declared an article: elsewhere a lone list of links
	// stays, linkSection)
	doc = `<html><head><meta property="og:type" content="article"></head><body><main><h1>Working with forms</h1>` + long + flat + long + `</main></body></html>`
	page, _ = ExtractHTML(doc, nil, Limits{})
	if strings.Contains(page.Markdown, "Why validation matters") {
		t.Errorf("a flat list of links kept:\n%s", page.Markdown)
	}
}

func TestSeeAlsoHeadingInAWrapper(t *testing.T) {
	long := strings.Repeat(`<p>The package manager keeps the system up to date by syncing the package lists with the master server and installing the newer versions.</p>`, 3)
	doc := `<html><body><main><h1>Package management</h1>` + long +
		`<div class="mw-heading mw-heading2"><h2 id="See_also">See also</h2></div><ul><li><a href="/man/libalpm.3">libalpm(3)</a></li>` +
		`<li><a href="/man/pacman.8">pacman(8)</a></li><li><a href="/man/repo-add.8">repo-add(8)</a></li></ul></main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	for _, want := range []string{"See also", "libalpm(3)", "repo-add(8)"} {
		if !strings.Contains(page.Markdown, want) {
			t.Errorf("%q left out:\n%s", want, page.Markdown)
		}
	}
}

func TestCodeSampleNamesKept(t *testing.T) {
	long := strings.Repeat(`<p>Ownership is a set of rules that govern how a program manages memory, and the compiler checks them before the program runs.</p>`, 3)
	doc := `<html><body><main><h1>What is ownership?</h1>` + long +
		`<figure class="listing"><pre><code class="language-rust">let x = 5;
let y = x;</code></pre><figcaption><a href="#listing-4-2">Listing 4-2</a>: Assigning the integer value of variable x to y</figcaption></figure>` +
		long + `<figure><img src="/trpl04-01.svg" alt="Two tables"><figcaption>Photo: the stack and the heap, by the author</figcaption></figure>` + long +
		`</main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	checkText(t, page.Markdown, []string{"Assigning the integer value"}, []string{"by the author"})
	// the tabs over code samples name them
	tabs := func(panel string) string {
		return `<div class="tabs"><div><ul role="tablist"><li><a role="tab" href="#npm">npm</a></li><li><a role="tab" href="#yarn">Yarn</a></li><li><a role="tab" href="#pnpm">pnpm</a></li></ul></div>` +
			`<div role="tabpanel" id="npm">` + panel + `</div></div>`
	}
	doc = `<html><body><main><h1>Create a project</h1>` + long + tabs(`<pre><code>npm create tauri-app@latest</code></pre>`) + long + `</main></body></html>`
	page, _ = ExtractHTML(doc, nil, Limits{})
	if !strings.Contains(page.Markdown, "Yarn") {
		t.Errorf("the tabs over code samples left out:\n%s", page.Markdown)
	}
	doc = `<html><body><main><h1>Create a project</h1>` + long + tabs(`<p>Run the installer and follow the steps it shows on the screen.</p>`) + long + `</main></body></html>`
	page, _ = ExtractHTML(doc, nil, Limits{})
	if strings.Contains(page.Markdown, "Yarn") {
		t.Errorf("the tabs over prose kept:\n%s", page.Markdown)
	}
}

func TestTrailingCodeBlockKept(t *testing.T) {
	doc := `<html><body><main><h1>Re-synchronizing the database</h1>` +
		`<p>Suppose that your local database is more up to date than the installed packages, after a partial rollback for example.</p>` +
		`<p>This method is then the one that re-synchronizes the root file system with the local database:</p>` +
		`<pre><code>for package in $(pacman -Qq); do
    pacman -S "$package" --noconfirm
done</code></pre><p><a href="/share">Share</a></p></main></body></html>`
	page, _ := ExtractHTML(doc, nil, Limits{})
	checkText(t, page.Markdown, []string{"--noconfirm"}, []string{"Share"})
}
