package htmlx

import (
	"strconv"
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
	checkText(t, p.Markdown, []string{"The Super Pack", "Balm Dotcom Trio", "Regular price £48"}, []string{"ethos of skin first"})
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
	checkText(t, p.Markdown, []string{"Bike lock model 1", "Bike lock model 8", "$24.98"}, []string{"Keyed alike", "Laminated steel"})
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
	checkText(t, p.Markdown, []string{"USB-C adapter 1", "USB-C adapter 8"}, []string{"Webcams", "Keyboards"})
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
	checkText(t, p.Markdown, []string{"Garden kneeler model 6"}, []string{"Add to Compare"})
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
	checkText(t, p.Markdown, []string{"Video game console bundle 6"}, []string{"Loading"})
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

// TestShopControlsOfCards: the controls a shop sets on each card ("Add to
// cart", "Quick view", "Compare"), each on a line of its own, are left
// out; the same words inside a sentence, and a longer label, stay.
func TestShopControlsOfCards(t *testing.T) {
	var cards strings.Builder
	for _, name := range []string{"Walnut desk lamp", "Brass floor lamp", "Linen pendant shade", "Oak table lamp"} {
		cards.WriteString(`<li class="card"><a href="/p/1"><img src="l.jpg" alt=""></a><h3><a href="/p/1">` + name +
			`</a></h3><span class="price">$89</span><button class="qv">Quick View</button>` +
			`<label><input type="checkbox"> Compare</label><a href="/cart/add" class="add">Add to Cart</a></li>`)
	}
	page := `<html><head><meta property="og:type" content="website"><title>Lamps</title></head><body>
<main><h1>Lamps</h1><ul class="grid">` + cards.String() + `</ul>
<p>Compare our lamps side by side and add to cart the ones you like; every lamp ships free.</p></main></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, p.Markdown, []string{"Walnut desk lamp", "Oak table lamp", "$89", "Compare our lamps side by side"}, []string{"Quick View", "Add to Cart", "\nCompare\n", "- Compare"})
}

// TestShoppersReviewsBesideGrid: in a grid of products, the shop's
// customer reviews and the rating line of each card ("4.8 (120)") are what
// shoppers say, and go; a list of reviews that are the page's stories,
// each under its title, stays.
func TestShoppersReviewsBesideGrid(t *testing.T) {
	var grid strings.Builder
	for k := 0; k < 12; k++ {
		n := string(rune('a' + k))
		grid.WriteString(`<div class="product-card"><a href="/p/` + n + `"><img src="p.jpg" alt=""></a><h3><a href="/p/` + n + `">Chess set model ` + n +
			`</a></h3><span class="price">$12` + n + `</span><div class="product-reviews-summary">4.8 (120)</div></div>`)
	}
	page := `<html><head><title>Chess sets</title></head><body>
<header><nav><a href="/">Home</a> <a href="/sets">Sets</a></nav></header>
<main><h1>Chess sets</h1><p>Our chess sets are made by hand from boxwood and ebony, weighted for a steady game, and come with a board of the matching size.</p>
<p>Tournament sets follow the sizes the federations ask for, with a king of three and three quarter inches and squares of two and a quarter.</p>
<div class="results">` + grid.String() + `</div>
<div class="customer-reviews"><div class="review"><p>The board arrived quickly and the pieces are heavier than I expected, a lovely set for the price.</p><p>Margaret, Leeds</p></div>
<div class="review"><p>Beautiful craftsmanship and fast delivery; my son plays with it every evening after school.</p><p>Tom, Bath</p></div></div></main>
<footer><p>Copyright Chess Shop. All rights reserved.</p></footer></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, p.Markdown, []string{"Chess set model a", "Chess set model l", "$12a"}, []string{"heavier than I expected", "Margaret", "4.8 (120)"})
	// the reviews a site publishes are its stories, each with a title
	var stories strings.Builder
	for k := 0; k < 6; k++ {
		n := string(rune('a' + k))
		stories.WriteString(`<div class="app-review"><a href="/r/` + n + `"><img src="a.jpg" alt=""></a><span>Review:</span><h2><a href="/r/` + n + `">Puzzle app number ` + n + ` tested</a></h2></div>`)
	}
	list := `<html><head><title>App reviews</title></head><body><main><h1>App reviews</h1><div class="reviews-list">` + stories.String() + `</div></main></body></html>`
	p, err = ExtractHTML(list, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Markdown, "Puzzle app number a tested") || !strings.Contains(p.Markdown, "Puzzle app number f tested") {
		t.Errorf("dropped the reviews that are the page's stories:\n%s", p.Markdown)
	}
}

// TestCardBadges: the badges on the cards of a grid ("New", "Sale",
// "Top Rated") are the items' status, and go; a name that starts with
// such a word stays, and so does the word in an article's prose.
func TestCardBadges(t *testing.T) {
	var grid strings.Builder
	for k, badge := range []string{"New", "Sale", "Top Rated", "New", "Sold out", "Sale"} {
		n := string(rune('a' + k))
		grid.WriteString(`<li class="tile"><a href="/p/` + n + `"><img src="s.jpg" alt=""></a><div class="tile-flag">` + badge +
			`</div><h3><a href="/p/` + n + `">New Balance runner ` + n + `</a></h3><div class="price">$9` + n + `</div></li>`)
	}
	page := `<html><head><title>Running shoes</title></head><body>
<main><h1>Running shoes</h1><ul class="grid">` + grid.String() + `</ul></main></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, p.Markdown, []string{"New Balance runner a", "New Balance runner f", "$9a"}, []string{"Sale", "Top Rated", "Sold out", "\nNew\n"})
	article := `<html><head><title>Winter sales</title></head><body><article><h1>Winter sales</h1>
<p>Shops cut their prices in January, when the winter stock has to go before the spring collections arrive in the stores.</p>
<p>Sale</p>
<p>The best bargains are in the first week, before the sizes run out and the rails are picked over by the early shoppers.</p></article></body></html>`
	p, err = ExtractHTML(article, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Markdown, "\nSale\n") {
		t.Errorf("dropped a word of an article:\n%s", p.Markdown)
	}
}

// TestRepeatedFieldLabels: the <dt> labels every card of a grid repeats
// ("Brand Name", "Price") are the card's template and go, their values
// stay; the terms of a definition list outside cards stay however often
// they repeat.
func TestRepeatedFieldLabels(t *testing.T) {
	var grid strings.Builder
	for k := 0; k < 12; k++ {
		n := string(rune('a' + k))
		grid.WriteString(`<article class="item"><a href="/p/` + n + `"><img src="s.jpg" alt=""><dl><dt>Brand Name</dt><dd>Trailmaker</dd>` +
			`<dt>Product Name</dt><dd>Ridge runner ` + n + `</dd><dt>Price</dt><dd>$8` + n + `</dd></dl></a></article>`)
	}
	page := `<html><head><title>Sneakers</title></head><body><main><h1>Sneakers</h1><div class="results">` + grid.String() + `</div></main></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, p.Markdown, []string{"Ridge runner a", "Ridge runner l", "Trailmaker", "$8a"}, []string{"Brand Name", "Product Name", "Price"})
	var defs strings.Builder
	for k := 0; k < 12; k++ {
		n := string(rune('a' + k))
		defs.WriteString(`<h3>option_` + n + `</h3><dl><dt>Type</dt><dd>integer, the number of retries before the client gives up</dd><dt>Default</dt><dd>` + n + `</dd></dl>`)
	}
	doc := `<html><head><title>Client options</title></head><body><main><h1>Client options</h1>
<p>Every option of the client is listed below with its type and its default value, in the order the constructor reads them.</p>` + defs.String() + `</main></body></html>`
	p, err = ExtractHTML(doc, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(p.Markdown, "Default") < 12 {
		t.Errorf("dropped the terms of a definition list:\n%s", p.Markdown)
	}
}

// TestMoreControls: "+ More" on a card (its other colours) and the
// "Load more" button under a grid work the page; they are not content.
func TestMoreControls(t *testing.T) {
	var grid strings.Builder
	for k := 0; k < 6; k++ {
		n := string(rune('a' + k))
		grid.WriteString(`<li class="tile"><a href="/p/` + n + `"><img src="d.jpg" alt=""></a><h3><a href="/p/` + n + `">Standing desk frame ` + n +
			`</a></h3><div class="price">$59` + n + `</div><a class="swatch-more" href="/p/` + n + `#colors">+ More</a></li>`)
	}
	page := `<html><head><title>Standing desks</title></head><body>
<main><h1>Standing desks</h1><ul class="grid">` + grid.String() + `</ul><button class="load">Load more</button></main></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, p.Markdown, []string{"Standing desk frame f"}, []string{"More", "Load more"})
}

// TestEntryDates: the <time> of each teaser of a list is when it was
// published, and goes; the posts of a thread, under their writers'
// member links, keep their dates.
func TestEntryDates(t *testing.T) {
	var list strings.Builder
	for k := 0; k < 8; k++ {
		n := string(rune('a' + k))
		list.WriteString(`<div class="teaser"><a href="/news/` + n + `"><img src="t.jpg" alt=""></a><h3><a href="/news/` + n + `">Robot arm story ` + n +
			`</a></h3><time datetime="2025-03-0` + string(rune('1'+k)) + `">March ` + string(rune('1'+k)) + `, 2025</time></div>`)
	}
	page := `<html><head><title>Robotics news</title></head><body><main><h1>Robotics news</h1><div class="feed">` + list.String() + `</div></main></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Markdown, "Robot arm story a") || !strings.Contains(p.Markdown, "Robot arm story h") {
		t.Errorf("missing the teasers in:\n%s", p.Markdown)
	}
	if strings.Contains(p.Markdown, "March") {
		t.Errorf("kept the teasers' dates in:\n%s", p.Markdown)
	}
	var posts strings.Builder
	for k := 0; k < 4; k++ {
		n := string(rune('a' + k))
		posts.WriteString(`<div class="post"><a href="/members/user-` + n + `"><img src="u.png" alt=""></a><a href="/members/user-` + n + `">user_` + n +
			`</a><time datetime="2025-04-0` + string(rune('1'+k)) + `">April ` + string(rune('1'+k)) + `, 2025</time><p>My lathe stalls under load, ` + n + `.</p></div>`)
	}
	thread := `<html><head><title>Lathe stalls</title></head><body><main><h1>Lathe stalls</h1><div class="thread">` + posts.String() + `</div></main></body></html>`
	p, err = ExtractHTML(thread, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Markdown, "April 1, 2025") {
		t.Errorf("dropped the dates of a thread's posts:\n%s", p.Markdown)
	}
}

// TestPagedResultsAreNotAPager: an element named for pagination that
// holds the pictures and text of a grid ("filtering-and-pagination"
// around a shop's products) is the results a pager pages through, and
// stays; the bar of page numbers, named the same and short, goes.
func TestPagedResultsAreNotAPager(t *testing.T) {
	var grid strings.Builder
	for k := 1; k <= 12; k++ {
		n := strconv.Itoa(k)
		grid.WriteString(`<article class="product-card"><a href="/p/` + n + `"><img src="t` + n + `.jpg" alt="Trail tee ` + n + `"></a>` +
			`<h4><a href="/p/` + n + `">Trail tee ` + n + `</a></h4><p>relaxed fit, organic cotton jersey</p><p>Moss green</p><span>$2` + n + `</span></article>`)
	}
	page := `<html><head><title>Men's tees | Fellgear</title></head><body>
<header><nav><a href="/">Home</a> <a href="/men">Men</a> <a href="/women">Women</a></nav></header>
<main><h1>Tees and tops</h1><p>48 products</p>
<div class="filtering-and-pagination_page-container__x6fa1">
<div class="grid">` + grid.String() + `</div>
<div class="pagination"><a href="?page=1">1</a> <a href="?page=2">2</a> <a href="?page=3">3</a> <a href="?page=4">4</a> <a href="?page=2">Next page</a></div>
</div></main>
<footer><p>Copyright Fellgear. All rights reserved.</p></footer></body></html>`
	p, err := ExtractHTML(page, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, p.Markdown, []string{"Trail tee 1", "Trail tee 12", "Moss green"}, []string{"Next page"})
}
