package htmlx

import (
	"strings"
	"testing"
)

// TestTabWidgetIsNotChrome: an element named role=tablist around the tab
// panels themselves is the tab widget, not a bar of tabs; the grid in its
// panel is the page's content.
func TestTabWidgetIsNotChrome(t *testing.T) {
	var grid strings.Builder
	for _, name := range []string{"Frozen pizza stars - 9oz", "Chicken meatballs - 16oz", "Fish sticks - 8oz",
		"Broccoli bites - 10oz", "Ribbed cardigan, yellow", "Piped sports bra, red", "High-rise leggings, brown"} {
		grid.WriteString(`<div class="grid-item"><a href="/sku/1"><img src="p.jpg" alt=""></a><span class="desc">` + name + `</span></div>`)
	}
	page := `<html><head><title>Storefront</title></head><body>
<header><a href="/">Shop</a> <a href="/help">Help</a></header>
<main><div role="tablist" class="tabs"><input type="radio" role="tab" aria-label="Products" checked>
<div role="tabpanel"><section><h2>My favourites</h2><div class="grid">` + grid.String() + `</div></section></div>
</div></main>
<footer><p>Copyright Shop. All rights reserved.</p></footer></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Frozen pizza stars", "Fish sticks", "High-rise leggings"} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("missing %q in:\n%s", want, p.Markdown)
		}
	}
	// a bar of tabs is still chrome
	bar := `<html><body><main><div role="tablist"><a href="/a">Overview</a> <a href="/b">Specifications</a> <a href="/c">Reviews</a></div>
<p>The kettle boils a litre of water in three minutes and switches itself off when the water boils.</p></main></body></html>`
	p, err = ExtractHTML(bar, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Markdown, "Specifications") {
		t.Errorf("kept the bar of tabs in:\n%s", p.Markdown)
	}
}

// TestSharedLineOfCards: a line that the cards of a grid share (the same
// feature on two models) is written on each card; the cloned slides of a
// carousel, which start alike, are written once (see also
// TestRepeatedBlocksOnceOutsideArticles).
func TestSharedLineOfCards(t *testing.T) {
	shared := "Modular post system that holds up to six monitors on one desk clamp"
	var cards strings.Builder
	for _, m := range []string{"M2 Single Arm", "M8 Single Arm", "M10 Dual Arm", "M12 Quad Arm"} {
		cards.WriteString(`<div class="card"><h3>` + m + `</h3><p>For monitors up to 20 lbs</p><p>` + shared + `</p><p>From $434</p></div>`)
	}
	slide := `<div class="card"><h3>Spring sale</h3><p>Save up to forty percent on every arm and stand until the end of April.</p></div>`
	page := `<html><head><meta property="og:type" content="website"><title>Monitor arms</title></head><body>
<main><h1>Monitor arms</h1><div class="grid">` + slide + slide + cards.String() + `</div></main></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(p.Markdown, shared); n != 4 {
		t.Errorf("the cards' shared line appears %d times, want 4:\n%s", n, p.Markdown)
	}
	if n := strings.Count(p.Markdown, "forty percent"); n != 1 {
		t.Errorf("a cloned slide appears %d times, want 1:\n%s", n, p.Markdown)
	}
}

// TestArticleBodyOfCards: a theme's "entry-content" around a blurb and a
// grid of cards is not an article; the cards are its content.
func TestArticleBodyOfCards(t *testing.T) {
	var grid strings.Builder
	for c, cat := range []string{"Apartment", "Bar", "Hotel", "Office", "Retail", "Restaurant", "School", "Spa"} {
		grid.WriteString(`<h3>` + cat + `</h3><ul class="post-cards">`)
		for k, award := range []string{"Winner", "Honoree", "Honoree", "Honoree", "Honoree", "Honoree"} {
			name := cat + " project " + string(rune('A'+c)) + string(rune('a'+k))
			grid.WriteString(`<li class="post-card"><a href="/p/` + name + `"><img src="p.jpg" alt=""></a><p class="type">` + award +
				`</p><a href="/p/` + name + `"><h4>` + name + `</h4></a><p>Studio ` + name + `</p></li>`)
		}
		grid.WriteString(`</ul>`)
	}
	page := `<html><head><title>Best of Year Award Winners</title></head><body>
<nav><a href="/">Home</a> <a href="/awards">Awards</a></nav>
<main><h1>Best of Year Award Winners</h1><div class="entry-content">
<p>Explore this year's winners and honorees, chosen by our jury from more than two thousand entries in thirty categories across the world.</p>
` + grid.String() + `</div></main>
<footer><p>Copyright Design Magazine. All rights reserved.</p></footer></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Apartment project Aa", "Studio Spa project Hf", "Honoree"} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("missing %q in:\n%s", want, p.Markdown)
		}
	}
}

// TestCarouselWithNavButtons: a class naming the buttons of a carousel
// ("nav-btns", "nav-arrows") says the element has navigation controls,
// not that it is a navigation; its cards are content.
func TestCarouselWithNavButtons(t *testing.T) {
	var rows strings.Builder
	for _, cat := range []string{"Treadmills", "Exercise bikes", "Home gyms"} {
		rows.WriteString(`<section><h2>` + cat + ` sale</h2><p>Save up to $800 on selected ` + cat + ` this month, with free delivery and assembly.</p>` +
			`<div class="category-carousel dark-nav-btns">`)
		for k := 1; k <= 5; k++ {
			rows.WriteString(`<div class="c-item"><a href="/p/` + cat + `"><img src="p.jpg" alt=""></a><a href="/p/` + cat + `">` + cat + ` model ` + string(rune('0'+k)) +
				`</a><span>$1,299.00</span></div>`)
		}
		rows.WriteString(`</div></section>`)
	}
	page := `<html><head><title>Home fitness</title></head><body>
<header><nav><a href="/">Home</a> <a href="/sale">Sale</a></nav></header>
<main><h1>Home fitness</h1>` + rows.String() + `</main>
<footer><p>Copyright Fitness Store. All rights reserved.</p></footer></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Treadmills model 1", "Home gyms model 5", "$1,299.00"} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("missing %q in:\n%s", want, p.Markdown)
		}
	}
	if h := classHints([]byte("slider-nav dark-nav-btns"), new([]byte)); h&hintNav == 0 {
		t.Errorf("a navigation named beside the buttons lost its hint")
	}
}

// TestShortGridOverFooterBlurb: a page whose content is a grid of two
// products (little text) and whose footer holds the brand's blurb (the
// only prose) has the grid as its content.
func TestShortGridOverFooterBlurb(t *testing.T) {
	page := `<html><head><title>For the skincare enthusiast</title></head><body>
<header><nav><a href="/skincare">Skincare</a> <a href="/makeup">Makeup</a> <a href="/sets">Sets</a></nav></header>
<main><section><p>2 items</p><ul class="grid">
<li><article><a href="/p/super-pack">The Super Pack</a><p>All three serums</p><p>Sale price £88</p><p>Regular price £102</p></article></li>
<li><article><a href="/p/balm-trio">Balm Dotcom Trio</a><p>Original formula</p><p>Sale price £42</p><p>Regular price £48</p></article></li>
</ul></section></main>
<footer><div class="footer"><p>At our studio, we make products inspired by real life, embracing the ethos of skin first and makeup second. We believe beauty is about having fun, celebrating freedom and being yourself, every single day.</p>
<a href="/contact">Contact</a> <a href="/returns">Returns</a></div></footer></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The Super Pack", "Balm Dotcom Trio", "Regular price £48"} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("missing %q in:\n%s", want, p.Markdown)
		}
	}
	if strings.Contains(p.Markdown, "ethos of skin first") {
		t.Errorf("kept the footer's blurb in:\n%s", p.Markdown)
	}
}

// TestFiltersFormOfGrid: in content made of many blocks, the form of
// filters beside a grid of products is labels and choices, not content.
func TestFiltersFormOfGrid(t *testing.T) {
	var filters, grid strings.Builder
	for _, f := range []string{"Keyed alike", "Keyed different", "Resettable combination", "Weather resistant", "Hardened steel",
		"Indoors", "Severe weather", "Brass", "Laminated steel", "Zinc", "Under 4 inches", "Over 4 inches"} {
		filters.WriteString(`<div class="facet"><label><input type="checkbox"> ` + f + `</label></div>`)
	}
	for k := 1; k <= 8; k++ {
		n := string(rune('0' + k))
		grid.WriteString(`<div class="product"><a href="/p/` + n + `"><img src="p.jpg" alt=""></a><a href="/p/` + n + `">Bike lock model ` + n +
			`</a><p>Cable lock, 6 ft</p><p>$24.9` + n + `</p></div>`)
	}
	page := `<html><head><title>Bike locks</title></head><body>
<header><nav><a href="/">Home</a> <a href="/locks">Locks</a></nav></header>
<main><h1>Bike locks</h1><div class="results"><p>1 - 8 of 27 products</p>
<form class="facets"><h3>Category</h3>` + filters.String() + `</form>
<div class="grid">` + grid.String() + `</div></div></main>
<footer><p>Copyright Lock Company. All rights reserved.</p></footer></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Bike lock model 1", "Bike lock model 8", "$24.98"} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("missing %q in:\n%s", want, p.Markdown)
		}
	}
	for _, not := range []string{"Keyed alike", "Laminated steel"} {
		if strings.Contains(p.Markdown, not) {
			t.Errorf("kept the filter %q in:\n%s", not, p.Markdown)
		}
	}
}

// TestFilterPanelIsFrame: an element named as the filters of a grid
// (facets, refinements), without pictures, frames the grid; an element
// so named that holds the pictured results is the content.
func TestFilterPanelIsFrame(t *testing.T) {
	var filters, grid strings.Builder
	for _, f := range []string{"Adapters", "Cables", "Chargers", "Docks", "Hubs", "Mounts", "Speakers", "Webcams", "Headsets", "Keyboards",
		"Under $25", "From $25 to $50", "From $50 to $100", "Over $100", "In stock", "On sale", "Black", "White", "Silver", "Blue"} {
		filters.WriteString(`<li class="filter-item"><label><input type="checkbox"> ` + f + ` (128)</label></li>`)
	}
	for k := 1; k <= 8; k++ {
		n := string(rune('0' + k))
		grid.WriteString(`<div class="item"><a href="/p/` + n + `"><img src="p.jpg" alt=""></a><h3><a href="/p/` + n + `">USB-C adapter ` + n +
			`</a></h3><p>Lowest price, every time</p></div>`)
	}
	page := `<html><head><title>Adapters and cables</title></head><body>
<header><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav></header>
<main><h1>Adapters and cables</h1><div class="shop">
<div class="product-filters"><h4 class="filter__header">Category</h4><ul>` + filters.String() + `</ul></div>
<div class="filter-results">` + grid.String() + `</div></div></main>
<footer><p>Copyright Adapter Shop. All rights reserved.</p></footer></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"USB-C adapter 1", "USB-C adapter 8"} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("missing %q in:\n%s", want, p.Markdown)
		}
	}
	for _, not := range []string{"Webcams", "Keyboards"} {
		if strings.Contains(p.Markdown, not) {
			t.Errorf("kept the filter %q in:\n%s", not, p.Markdown)
		}
	}
}

// TestLinkWithButtonRole: a link whose role is "button" ("Add to
// compare" on each card of a grid) is an action, not content.
func TestLinkWithButtonRole(t *testing.T) {
	var grid strings.Builder
	for k := 1; k <= 6; k++ {
		n := string(rune('0' + k))
		grid.WriteString(`<div class="product-item"><a href="/p/` + n + `">Garden kneeler model ` + n + `</a><p>Soft foam pad, folds flat</p><span>$29.9` + n +
			`</span><div class="actions"><a href="#" class="action tocompare" role="button">Add to Compare</a></div></div>`)
	}
	page := `<html><head><title>Garden accessories</title></head><body><main><h1>Garden accessories</h1><div class="grid">` + grid.String() + `</div></main></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Markdown, "Garden kneeler model 6") {
		t.Errorf("missing the products in:\n%s", p.Markdown)
	}
	if strings.Contains(p.Markdown, "Add to Compare") {
		t.Errorf("kept the button in:\n%s", p.Markdown)
	}
}

// TestGuideBesideGrid: a category page whose buying guide holds much of
// its text keeps the grid of products beside the guide; a page that
// declares itself an article keeps its prose alone.
func TestGuideBesideGrid(t *testing.T) {
	var grid strings.Builder
	for k := 0; k < 12; k++ {
		n := string(rune('a' + k))
		grid.WriteString(`<div class="product-card"><a href="/p/` + n + `"><img src="p.jpg" alt=""></a><h3><a href="/p/` + n + `">Trail shoe model ` + n +
			`</a></h3><span class="price">$12` + n + `</span></div>`)
	}
	guide := `<div class="seo-block"><h2>How to choose trail shoes</h2>
<p>Trail shoes grip loose ground with deep lugs, and a rock plate under the forefoot keeps sharp stones from bruising the foot on long descents.</p>
<p>Pick more cushioning for long days on hard-packed paths, and a lower, firmer shoe for technical terrain where you need to feel the ground.</p>
<p>Waterproof uppers keep feet dry in wet weather but breathe less in summer heat, so many runners keep a pair of each for the seasons.</p>
<p>Try shoes on in the afternoon, when feet are at their largest, and leave a thumb's width of room in front of the longest toe.</p></div>`
	page := func(og string) string {
		return `<html><head><title>Trail running shoes</title>` + og + `</head><body>
<header><nav><a href="/">Home</a> <a href="/shoes">Shoes</a></nav></header>
<main><div class="category"><h1>Trail running shoes</h1><div class="results">` + grid.String() + `</div>` + guide + `</div></main>
<footer><p>Copyright Shoe Shop. All rights reserved.</p></footer></body></html>`
	}
	p, err := ExtractHTML(page(""), nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Trail shoe model a", "Trail shoe model l", "rock plate under the forefoot"} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("missing %q in:\n%s", want, p.Markdown)
		}
	}
	p, err = ExtractHTML(page(`<meta property="og:type" content="article">`), nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Markdown, "rock plate under the forefoot") || strings.Contains(p.Markdown, "Trail shoe model") {
		t.Errorf("an article kept the cards beside it:\n%s", p.Markdown)
	}
}

// TestLoadingPlaceholders: the "Loading..." a script shows in a carousel
// until it fetches the cards is not content.
func TestLoadingPlaceholders(t *testing.T) {
	var grid, slots strings.Builder
	for k := 1; k <= 6; k++ {
		n := string(rune('0' + k))
		grid.WriteString(`<li class="card"><a href="/p/` + n + `"><img src="p.jpg" alt=""></a><h3><a href="/p/` + n + `">Video game console bundle ` + n + `</a></h3><span>$29` + n + `.99</span></li>`)
		slots.WriteString(`<li class="slot"><h3>Loading...</h3></li>`)
	}
	page := `<html><head><title>Video games</title></head><body><main><h1>Video games</h1>
<ul class="grid">` + grid.String() + `</ul><h2>Trending now</h2><ul class="carousel">` + slots.String() + `</ul></main></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Markdown, "Video game console bundle 6") {
		t.Errorf("missing the products in:\n%s", p.Markdown)
	}
	if strings.Contains(p.Markdown, "Loading") {
		t.Errorf("kept the placeholders in:\n%s", p.Markdown)
	}
}

// TestCardNameSpans: a card that writes its brand and its name in two
// spans with nothing between them ("La Sportiva", "Aragon") keeps them
// two words; a word styled in pieces and an identifier in highlighted
// code stay one.
func TestCardNameSpans(t *testing.T) {
	var grid strings.Builder
	for _, name := range []string{"Aragon", "Tarantulace", "Skwama", "Kubo", "Finale", "Mistral"} {
		grid.WriteString(`<li class="card"><a href="/p/` + name + `"><span class="brand">La Sportiva</span><span class="title">` + name +
			` Climbing Shoes</span></a><span class="price">$99.00</span></li>`)
	}
	page := `<html><head><title>Climbing shoes</title></head><body><main><h1>Climbing shoes</h1><ul class="grid">` + grid.String() + `</ul></main></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"La Sportiva Aragon Climbing Shoes", "La Sportiva Mistral"} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("missing %q in:\n%s", want, p.Markdown)
		}
	}
	prose := `<html><head><title>Sizing</title></head><body><main><h1>Sizing</h1>
<p><b>W</b>ide toe boxes suit long days on the wall, and a snug heel keeps the foot from slipping on steep ground.</p>
<p>To look a size up, call <code><span class="n">get</span><span class="n">Size</span>()</code> with the length of the foot in millimetres.</p></main></body></html>`
	p, err = ExtractHTML(prose, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Wide toe boxes", "getSize()"} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("missing %q in:\n%s", want, p.Markdown)
		}
	}
}
