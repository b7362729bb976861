package htmlx

import (
	"strconv"
	"strings"
	"testing"
)

// TestAltRestatingItsCardLeftOut: the picture of a shop's card is
// described by the product's name, with a colour of its own, and wrapped
// with a stock badge, so that the card's name is said a level above the
// nearest text: the description says the card again and goes.
// A picture described in words its item does not say stays.
func TestAltRestatingItsCardLeftOut(t *testing.T) {
	var grid strings.Builder
	for k := 1; k <= 10; k++ {
		n := strconv.Itoa(k)
		grid.WriteString(`<article class="card"><a href="/p/` + n + `">Trailmaker Fell Runner ` + n + `. On sale.</a>` +
			`<div class="media"><p class="badge">Low stock</p>` +
			`<figure><div class="frame"><picture><img src="/i/` + n + `.jpg" alt="Gray Trailmaker Fell Runner ` + n + `"></picture></div></figure></div>` +
			`<div class="info"><dl><dt>Brand</dt><dd>Trailmaker</dd><dt>Name</dt><dd>Fell Runner ` + n + `</dd></dl><span>$12` + n + `.00</span></div></article>`)
	}
	page := `<html><head><title>Trail shoes | Fellgear</title></head><body>
<header><nav><a href="/">Home</a> <a href="/men">Men</a> <a href="/women">Women</a></nav></header>
<main><h1>Trail shoes</h1><p>Shoes for mud, rock and scree, from light racers to boots for long days on the hill.</p>
<p><img src="/i/hero.jpg" alt="A runner crossing a stream below a ridge at dawn"></p>
<div class="grid">` + grid.String() + `</div></main>
<footer><p>Copyright Fellgear. All rights reserved.</p></footer></body></html>`
	md := extractMD(t, page)
	checkText(t, md, []string{"Fell Runner 1", "Fell Runner 10", "A runner crossing a stream below a ridge at dawn"},
		[]string{"Gray Trailmaker"})
}

// TestWordsRepeated: a text repeats when two thirds of its words are
// said around it, in any order and case.
func TestWordsRepeated(t *testing.T) {
	for _, c := range []struct {
		alt, text string
		want      bool
	}{
		{"Gray Topo Athletic ST-5", "Topo Athletic ST-5 Women's $108.00", true},
		{"Property at 12 Elm Ct, Sparks, 3 beds", "12 Elm Ct Sparks NV 3 beds 2 baths", true},
		{"A heron on a post at low tide", "The harbour at dawn", false},
		{"", "anything", false},
		{"---", "anything", false},
	} {
		if got := wordsRepeated(c.alt, c.text); got != c.want {
			t.Errorf("wordsRepeated(%q, %q) = %v, want %v", c.alt, c.text, got, c.want)
		}
	}
}

// TestREQ_PAGE_002_ExploreRelatedHeadingOnProductPage: on a product
// page, a heading that invites the shopper to explore related or similar
// items heads the shop's other products, as "You may also like" does, and
// goes with them.
func TestREQ_PAGE_002_ExploreRelatedHeadingOnProductPage(t *testing.T) {
	var items strings.Builder
	for _, n := range []string{"Ribbed crew top", "Cotton tee, three pack", "Knitted poncho"} {
		items.WriteString(`<li><h3><a href="/itm/` + n + `">` + n + `</a></h3><span>New</span><span>$9.32</span><span>+ $17.87 delivery</span></li>`)
	}
	for _, heading := range []string{"Explore related items", "Shop similar styles"} {
		doc := `<html><head><meta property="og:type" content="product"><title>Three pack ladies top</title></head><body><main>` +
			`<h1>Three pack ladies top</h1><p>Condition: new without tags. Three tops in black, white and green, size 6, soft cotton with a relaxed fit.</p>` +
			`<div class="recs"><h2>` + heading + `</h2><ul>` + items.String() + `</ul></div>` +
			`<h2>Item description</h2><p>Bought for a holiday and never worn; the labels are still on and they come from a smoke-free home.</p>` +
			`</main></body></html>`
		checkText(t, extractMD(t, doc), []string{"relaxed fit", "smoke-free home"}, []string{heading, "Knitted poncho"})
	}
}

// TestREQ_PAGE_002_RelatedLabelOnProductPage: a styled line that is not
// a heading but names related items ("You may also like") labels the
// carousel after it, which goes with it; the prose after the carousel
// stays, and so does prose that follows such a line where no group of
// items does.
func TestREQ_PAGE_002_RelatedLabelOnProductPage(t *testing.T) {
	var cards strings.Builder
	for _, n := range []string{"Carbon wallet", "Titanium wallet", "Coin tray"} {
		cards.WriteString(`<div class="cell"><a href="/products/` + n + `"><img src="/i.jpg" alt=""></a><h3 class="cell-title"><a href="/products/` + n + `">` + n + `</a></h3><p>$76 USD</p></div>`)
	}
	doc := `<html><head><meta property="og:type" content="product"><title>Aluminium wallet</title></head><body><main>` +
		`<h1>Aluminium wallet</h1><p>A slim wallet machined from one block of aluminium that holds up to twelve cards and a few folded notes.</p>` +
		`<div class="slider-header"><div class="slider-title">You may also like</div><a href="/collections/all">Shop all</a></div>` +
		`<div class="slider">` + cards.String() + `</div>` +
		`<div class="note-title">Similar materials</div><p>Each plate is cut from the same alloy as our bike parts and anodised twice, so that the colour lasts for years of daily use.</p>` +
		`<h2>Care</h2><p>Wipe the plates with a dry cloth now and then; the elastic can be replaced at home with the spare in the box.</p>` +
		`</main></body></html>`
	checkText(t, extractMD(t, doc), []string{"twelve cards", "anodised twice", "spare in the box"},
		[]string{"You may also like", "Titanium wallet", "Shop all"})
}

// TestAltRestatingHeadlineLeftOut: a picture of a long story described
// by the story's title in other words says the headline again, and goes;
// a picture described otherwise stays.
func TestAltRestatingHeadlineLeftOut(t *testing.T) {
	doc := `<html><head><title>Trail shoes | Fellgear journal</title></head><body><article>` +
		`<h1>Ten trail shoes we tested on mud and rock</h1>` +
		`<p>We ran every pair for a month on the same loop of wet grass, limestone and loose scree, and weighed them before and after.</p>` +
		`<figure><img src="/lead.jpg" alt="Trail shoes tested on mud and rock"></figure>` +
		`<p>The lightest pair was not the fastest on the descents: grip mattered more than grams once the rock was wet.</p>` +
		`<figure><img src="/scree.jpg" alt="A runner crossing a scree slope at dusk"></figure>` +
		`<p>Our favourite overall kept its grip on every surface and still felt springy after two hundred miles.</p>` +
		strings.Repeat(`<p>Each pair was laced the same way, worn with the same socks, and run by the same two testers, who kept notes after every run on comfort, grip, drainage and how the upper held the foot on off-camber ground.</p>`, 12) +
		`</article></body></html>`
	md := extractMD(t, doc)
	checkText(t, md, []string{"Ten trail shoes we tested", "A runner crossing a scree slope"}, []string{"Trail shoes tested on mud and rock"})
}

// TestREQ_PAGE_002_PageJumpsLeftOut: links that only move the reader
// about the page, classed as nothing in particular, go: the "Skip to main
// content" at its top and the "Back to top" after each section. A
// sentence that speaks of the top of a page stays.
func TestREQ_PAGE_002_PageJumpsLeftOut(t *testing.T) {
	var sections strings.Builder
	for _, s := range []string{"Shelving", "Desks", "Lighting"} {
		sections.WriteString(`<section><h2>` + s + `</h2><p>Our ` + s + ` range is built in our own workshop from solid oak and steel, finished by hand and delivered assembled by our own team.</p>` +
			`<div class="u-mt2"><a href="#top">Back to top ↑</a></div></section>`)
	}
	doc := `<html><head><title>Furniture | Oakline</title></head><body><div class="a11y"><a href="#main">Skip to main content</a></div>` +
		`<main id="main"><h1>Furniture</h1><p>Go back to the top of the page for the full list of showrooms and their opening hours this season.</p>` +
		sections.String() + `</main></body></html>`
	checkText(t, extractMD(t, doc), []string{"solid oak", "Lighting range", "back to the top of the page"},
		[]string{"Back to top", "Skip to main content"})
}
