package htmlx

import (
	"strconv"
	"strings"
	"testing"
)

// Tests of single extraction rules: each page is the smallest shape in
// which the rule decides what is kept, and each test fails when that
// rule is taken out. The pages are made up; the comments name the kind
// of real page they stand for.

// rulePage wraps body in a document titled title; article declares the
// page an article (og:type), as news sites and blogs do.
func rulePage(title string, article bool, body string) string {
	head := `<!DOCTYPE html><html><head><title>` + title + `</title>`
	if article {
		head += `<meta property="og:type" content="article">`
	}
	return head + `</head><body>` + body + `</body></html>`
}

// checkText reports each of keep missing from md and each of gone
// present in it.
func checkText(t *testing.T, md string, keep, gone []string) {
	t.Helper()
	for _, s := range keep {
		if !strings.Contains(md, s) {
			t.Errorf("content %q missing from\n%s", s, md)
		}
	}
	for _, s := range gone {
		if strings.Contains(md, s) {
			t.Errorf("%q present in\n%s", s, md)
		}
	}
}

func TestREQ_PAGE_002_ReviewIsTheArticlesItemOrAReadersComment(t *testing.T) {
	// a product roundup (a declared article) names each reviewed item
	// "review": that is the article
	roundup := rulePage("The best camping stoves of the year | Trail Notes", true, `
<header><a href="/">Trail Notes</a></header>
<article><h1>The best camping stoves of the year</h1>
<p>We cooked breakfast on eleven stoves across three weekends in the Harrow hills, in wind, drizzle and one surprisingly warm afternoon.</p>
<p>Every stove boiled a litre of lake water twice, and we weighed the fuel left over after each test to compare how thrifty they were.</p>
<div class="review"><h2>Pellan Minibrew 2</h2><p>The Minibrew folds into its own mug and boiled our litre in just under four minutes. Its simmer control is the best we tried, although the pot supports wobble.</p></div>
<p>Whichever stove you choose, carry a spare lighter and test it at home before the first trip of the season.</p>
</article>`)
	checkText(t, extract(t, roundup).Markdown, []string{"Pellan Minibrew 2", "simmer control is the best"}, nil)

	// a recipe page (not an article) with a reader's "review" under it
	recipe := rulePage("Oat and apple crumble | Fenwick Kitchen", false, `
<header><a href="/">Fenwick Kitchen</a></header>
<main><h1>Oat and apple crumble</h1>
<p>Peel and slice six apples, toss them with a spoon of brown sugar and a pinch of cinnamon, and spread them in a buttered dish.</p>
<p>Rub the butter into the flour and oats until it looks like coarse sand, scatter it over the fruit and bake for forty minutes until golden.</p>
<div class="review"><p>Made this for my sister's birthday and it vanished in minutes. I added a handful of blackberries, which worked really well.</p><p>Ilse from Marrow Bay</p></div>
</main>`)
	checkText(t, extract(t, recipe).Markdown, []string{"Peel and slice six apples", "bake for forty minutes"}, []string{"blackberries"})
}

func TestREQ_PAGE_002_RelatedHeadingDropsItsTeasers(t *testing.T) {
	// a travel story with a "You might also like" block (the heading
	// classed as related, the teasers as paragraphs with prose) set
	// between two of its own sections
	doc := rulePage("A weekend on the Orlen coast | Wayfarer", true, `
<article><h1>A weekend on the Orlen coast</h1>
<p>The ferry from Dunmere takes two hours, and on a clear morning the cliffs of the Orlen coast appear long before the harbour does.</p>
<p>We stayed in a converted net loft above the quay, where the owner left fresh bread and a jar of bramble jam on the table every morning.</p>
<h2>Walks from the village</h2>
<p>The cliff path north of the village climbs gently for an hour to a ruined signal station, with seals on the rocks below most afternoons.</p>
<h3 class="related-heading">You might also like</h3>
<p><a href="/islands">Three quiet islands</a> Our writer spent a rainy week hopping between the smallest inhabited islands of the north.</p>
<p><a href="/lighthouses">Sleeping in lighthouses</a> Former keepers' cottages now rent by the night, and some still have their lamps.</p>
<h2>Getting there</h2>
<p>Trains run to Dunmere twice an hour, and the ferry leaves from the end of the station platform, so the connection is hard to miss.</p>
</article>`)
	checkText(t, extract(t, doc).Markdown,
		// the next heading of the related heading's rank or above ends
		// the block
		[]string{"ruined signal station", "## Getting there", "Trains run to Dunmere"},
		[]string{"You might also like", "rainy week", "keepers' cottages"})
}

func TestREQ_PAGE_002_HeadingIdGivesNoHint(t *testing.T) {
	// a heading's id is an anchor made of its words: a section titled
	// "Recommended walks" is the article's, not a related-items block
	doc := rulePage("A weekend on the Orlen coast | Wayfarer", true, `
<article><h1>A weekend on the Orlen coast</h1>
<p>The ferry from Dunmere takes two hours, and on a clear morning the cliffs of the Orlen coast appear long before the harbour does.</p>
<p>We stayed in a converted net loft above the quay, where the owner left fresh bread and a jar of bramble jam on the table every morning.</p>
<h2 id="recommended-walks">Recommended walks</h2>
<p>The cliff path north of the village climbs gently for an hour to a ruined signal station, with seals on the rocks below most afternoons.</p>
<h2>Getting there</h2>
<p>Trains run to Dunmere twice an hour, and the ferry leaves from the end of the station platform, so the connection is hard to miss.</p>
</article>`)
	checkText(t, extract(t, doc).Markdown, []string{"## Recommended walks", "ruined signal station"}, nil)
}

func TestREQ_PAGE_002_ReplyFormIsNotOneOfTheComments(t *testing.T) {
	// a blog post (declared article) with one reader's comment and the
	// "Leave a reply" form, both named as comments, beside the post in
	// one container: the form holds no prose and does not make the
	// comment and the form a thread of posts; the comment stays out.
	// (The lengths matter: the comment and the form hold half of the
	// article's text, the comment alone less than half of its prose.)
	doc := rulePage("Why our town clock stopped | Brenmoor Post", true, `
<article>
<div><h1>Why our town clock stopped</h1>
<p>The clock above the old corn exchange stopped at twenty past four on Sunday, and for the first time in living memory nobody came to wind it.</p>
<p>Its keeper of forty years, Aldo Fenn, retired in the spring, and the council has not yet found anyone willing to climb the ninety steps each week.</p>
</div>
<div class="comment"><p>My grandfather wound that clock before the war, and he used to say it ran two minutes fast on purpose so that the market traders would pack up their stalls in time. He kept the old key on a nail by the back door. It would be a real shame to let it fall silent for good.</p></div>
<div id="respond" class="comment-respond"><h3>Leave a reply</h3><form>
<p>Your email address will not be published.</p>
<p><label>Name</label><input name="n"></p><p><label>Email</label><input name="e"></p><p><label>Website</label><input name="w"></p>
<p><label>Comment</label><textarea></textarea></p><p><button>Post comment</button></p></form></div>
</article>`)
	checkText(t, extract(t, doc).Markdown,
		[]string{"nobody came to wind it", "ninety steps each week"},
		[]string{"My grandfather", "Leave a reply"})
}

func TestREQ_PAGE_002_AnnotatedLinkListIsContent(t *testing.T) {
	// a buying guide's list of picks: each item links the product and
	// says what it is for (the links are most of the text, but not 90%)
	picks := `<ul>
<li><a href="/t/levers">Corvin tyre levers</a> - for stiff tyres</li>
<li><a href="/t/multitool">Halden nine-way multitool</a> - fits most bolts</li>
<li><a href="/t/pump">Brisk mini pump</a> - up to six bar</li>
</ul>`
	// a list of the links alone is still a link list
	bare := `<ul>
<li><a href="/t/levers">Corvin tyre levers and patches</a></li>
<li><a href="/t/multitool">Halden nine-way multitool</a></li>
<li><a href="/t/pump">Brisk mini pump with gauge</a></li>
</ul>`
	page := func(list string) string {
		return rulePage("Tools for a first bike repair kit | Spoke &amp; Chain", true, `
<article><h1>Tools for a first bike repair kit</h1>
<p>You do not need a workshop to keep a bicycle on the road: a handful of small tools covers almost every roadside repair you are likely to face.</p>
<p>These are the ones our mechanics carry on their own rides, and none of them costs more than a tank of petrol.</p>
`+list+`
<p>Pack them in a saddle bag with a spare inner tube and you will rarely need to call for a lift home again.</p>
</article>`)
	}
	checkText(t, extract(t, page(picks)).Markdown, []string{"for stiff tyres", "fits most bolts", "Brisk mini pump"}, nil)
	checkText(t, extract(t, page(bare)).Markdown, []string{"saddle bag"}, []string{"Halden", "Brisk"})
}

func TestREQ_PAGE_002_FormInArticleIsDropped(t *testing.T) {
	// a builder's cost guide with a quote request form in the middle of
	// the article: labels and choices, no prose
	doc := rulePage("How much does a loft conversion cost? | Halbrook Builders", false, `
<article><h1>How much does a loft conversion cost?</h1>
<p>A simple loft conversion with roof windows usually costs less than a dormer, because the shape of the roof stays as it is and no steel beams are needed.</p>
<p>Dormers add headroom and floor space, but they need planning advice, more scaffolding and a longer build, which pushes the price up by a third or more.</p>
<form class="quote-form"><h3>Get your free quote</h3>
<div><label>Type of conversion</label><select><option>Roof window</option></select></div>
<div><label>Number of rooms</label><input></div>
<div><label>Postcode</label><input></div>
<div><label>Preferred start date</label><input></div>
<div><label>Phone number</label><input></div>
</form>
<p>Whatever you choose, ask for a written schedule of works before you sign, and check that the price includes building control fees.</p>
</article>`)
	checkText(t, extract(t, doc).Markdown,
		[]string{"steel beams", "building control fees"},
		[]string{"Get your free quote", "Number of rooms", "Postcode"})
}

func TestREQ_FETCH_004_RepeatedLongHeadingWrittenOnce(t *testing.T) {
	// an insurer's page (not an article) printing one block twice, for
	// wide and for narrow screens: its paragraph is written once, and so
	// is its heading
	block := `<h2>What our standard home policy covers for you</h2>
<p>Our standard policy covers the building and its contents against fire, flood, storm and theft, and pays for somewhere to stay while repairs are made.</p>`
	doc := rulePage("Home insurance | Corrow Mutual", false, `
<main><h1>Home insurance</h1>
<div class="layout-wide">`+block+`</div>
<div class="layout-narrow">`+block+`</div>
<h2>Optional extras</h2>
<p>You can add accidental damage, garden cover and legal expenses at any time, and remove them again at renewal if you no longer need them.</p>
</main>`)
	md := extract(t, doc).Markdown
	for _, s := range []string{"## What our standard home policy covers for you", "against fire, flood, storm"} {
		if n := strings.Count(md, s); n != 1 {
			t.Errorf("%q written %d times, want once:\n%s", s, n, md)
		}
	}
	checkText(t, md, []string{"## Optional extras"}, nil)
}

// gardenStories is a list of stories: a linked title and a teaser that
// reads as prose, the story's date after it when date is set.
func gardenStories(date bool) string {
	stories := [][3]string{
		{"Sowing broad beans in autumn", "An early sowing gives you sturdier plants and a crop weeks ahead of spring, as long as the soil drains well through the winter.", "2 March 2024"},
		{"A pond for every garden", "Even a sunken washing-up bowl brings frogs, dragonflies and birds within a season, and it costs next to nothing to make.", "24 February 2024"},
		{"Pruning roses without fear", "Cut back to an outward-facing bud, remove anything dead or crossing, and your roses will thank you with a flush of flowers in June.", "17 February 2024"},
		{"Saving seed from tomatoes", "Scoop the seeds into a jar of water, leave them to ferment for three days, then rinse and dry them on kitchen paper.", "10 February 2024"},
	}
	var b strings.Builder
	b.WriteString(`<div class="stories">`)
	for i, s := range stories {
		b.WriteString(`<div class="story"><h3><a href="/g/` + strconv.Itoa(i+1) + `">` + s[0] + `</a></h3><p>` + s[1] + `</p>`)
		if date {
			b.WriteString(`<p class="date">` + s[2] + `</p>`)
		}
		b.WriteString(`</div>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

func TestREQ_PAGE_002_RunOfEntriesIsManyBlocks(t *testing.T) {
	// a section page of a local paper (declared an article, as category
	// pages often are) whose teasers hold prose: the run of stories is
	// pruned as a listing, not trimmed like one article
	tests := []struct {
		name string
		body string
		keep []string
	}{{
		// the last story's date is not an article's trailing byline
		name: "the list alone",
		body: gardenStories(true),
		keep: []string{"Saving seed from tomatoes", "kitchen paper", "10 February 2024"},
	}, {
		// the run is a part of the page's content: the list of club
		// meetings beside it belongs to the page too
		name: "one of the page's lists",
		body: gardenStories(false) + `
<div class="events"><h2>Club meetings this spring</h2>
<p><a href="/e/1">Seed swap</a> Saturday 4 March, village hall</p>
<p><a href="/e/2">Compost clinic</a> Sunday 12 March, allotments</p>
<p><a href="/e/3">Spring plant sale</a> Saturday 1 April, church green</p>
<p><a href="/e/4">Orchard walk</a> Sunday 16 April, Hollin farm</p>
<p><a href="/e/5">Bulb planting</a> Saturday 22 April, station garden</p>
</div>`,
		keep: []string{"Sowing broad beans", "Club meetings this spring", "Compost clinic", "station garden"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := rulePage("Gardening | Elmstead Weekly", true, `
<header><nav><a href="/">Home</a> <a href="/garden">Gardening</a></nav></header>
<main><h1>Gardening</h1>`+tc.body+`</main>`)
			checkText(t, extract(t, doc).Markdown, tc.keep, []string{"Home"})
		})
	}
}

func TestREQ_PAGE_002_LinkedTitleWithMetaIsNoLinkList(t *testing.T) {
	// a press release with its report to download: one linked title and
	// a line about the file is an entry, not a list of links
	doc := rulePage("Harbour Trust publishes its annual report | Harbour Trust", false, `
<main><h1>Harbour Trust publishes its annual report</h1>
<p>The Harbour Trust has published its report for the past year, showing record numbers of visiting boats and a small surplus for the first time since the breakwater was rebuilt.</p>
<p>The trustees will present the figures at the open meeting in the sail loft on the first Thursday of next month, and everyone who moors in the harbour is welcome.</p>
<div class="download"><h3><a href="/files/report.pdf">Annual report and accounts</a></h3><p>PDF, 2.4 MB, 36 pages</p></div>
<p>Printed copies are available from the harbour office, which is open every weekday morning from eight until noon.</p>
</main>`)
	checkText(t, extract(t, doc).Markdown, []string{"Annual report and accounts", "PDF, 2.4 MB, 36 pages"}, nil)
}

func TestREQ_PAGE_002_CaptionClassedCardBodyKept(t *testing.T) {
	// a shop's grid of products in the markup of an old theme: each
	// thumbnail's "caption" holds the product's name, maker and price
	var grid strings.Builder
	for _, p := range [][3]string{
		{"Round teapot in ash glaze", "Ottilie Brand", "48.00"},
		{"Tall teapot with cane handle", "Jonas Fair", "62.00"},
		{"Small speckled teapot", "Ottilie Brand", "36.00"},
		{"Blue teapot for two", "Mira Holt", "40.00"},
	} {
		grid.WriteString(`<div class="thumbnail"><a href="/p"><img src="/i.jpg" alt=""></a><div class="caption"><h4><a href="/p">` +
			p[0] + `</a></h4><p>Made by ` + p[1] + `</p><p>£` + p[2] + `</p></div></div>`)
	}
	doc := rulePage("Teapots | Larkfield Pottery Shop", false, `
<header><nav><a href="/">Shop</a> <a href="/cart">Basket</a></nav></header>
<main><h1>Teapots</h1><div class="products">`+grid.String()+`</div></main>`)
	checkText(t, extract(t, doc).Markdown,
		[]string{"Round teapot in ash glaze", "Made by Jonas Fair", "£36.00", "Blue teapot for two"}, []string{"Basket"})
}

func TestREQ_PAGE_002_HeadingIsNeverACaption(t *testing.T) {
	// a heading classed by its type style ("text-caption") titles a
	// section; it is not the line under a photograph
	doc := rulePage("Visiting the Corley mill museum | Corley Mill", false, `
<main><h1>Visiting the Corley mill museum</h1>
<p>The mill has ground flour on this stretch of the river for four hundred years, and on milling days you can watch the great wheel turn the stones.</p>
<h3 class="text-caption">Opening hours</h3>
<p>We are open from Wednesday to Sunday between ten and four, and on bank holiday Mondays, from the first of March until the end of October.</p>
</main>`)
	checkText(t, extract(t, doc).Markdown, []string{"### Opening hours"}, nil)
}

func TestREQ_PAGE_002_RootWithoutProseNotProtectedByArticleBody(t *testing.T) {
	// a shop page built in a blog theme: the "entry-content" holds the
	// product's blurb, a long list of features that outscores it, and
	// the size and colour swatches. The list has no prose: it is no
	// article body, and the page's content (the blurb with it) is read
	// as many blocks
	var features strings.Builder
	for _, f := range []string{"Heavy waxed cotton outer shell", "Brushed wool lining through the body",
		"Two deep bellows pockets with flaps", "Corduroy collar with a storm tab", "Two way brass zip and press studs",
		"Inside pocket for a phone or map", "Adjustable cuffs with tabs", "Drop tail to keep you dry when seated",
		"Made in our workshop in Northfold", "Rewaxing service available", "Cold hand wash only", "Weight about one kilogram"} {
		features.WriteString("<li>" + f + "</li>")
	}
	var swatches strings.Builder
	for _, s := range []string{"XS", "S", "M", "L", "XL", "2XL", "Olive", "Navy", "Brown", "Sand", "Black", "Rust"} {
		swatches.WriteString(`<div class="swatch">` + s + `</div>`)
	}
	doc := rulePage("Waxed cotton field jacket | Tarrow &amp; Sons", false, `
<header><nav><a href="/">Tarrow &amp; Sons</a> <a href="/jackets">Jackets</a></nav></header>
<main><h1>Waxed cotton field jacket</h1>
<div class="entry-content">
<p>Cut from heavy waxed cotton and lined with brushed wool, our field jacket keeps out the wind and the rain on the longest walks, and softens with every season of wear. Each one is cut and sewn by hand.</p>
<ul>`+features.String()+`</ul>
<div class="swatches">`+swatches.String()+`</div>
</div>
</main>`)
	checkText(t, extract(t, doc).Markdown, []string{"Cut from heavy waxed cotton", "sewn by hand", "Brushed wool lining"}, nil)
}

func TestREQ_PAGE_002_AdvIsNotAnAdvert(t *testing.T) {
	// page builders abbreviate "advanced" as "adv" in the names of their
	// content blocks ("adv-text-block")
	doc := rulePage("Restoring a sash window | Greystone Joinery", false, `
<main><h1>Restoring a sash window</h1>
<p>Most old sash windows can be saved: rot is usually confined to the bottom rail and the sill, and a joiner can splice in new timber without replacing the frame.</p>
<div class="adv-text-block"><p>New cords and balanced weights make the sashes glide again, and brush seals fitted into the beads stop the rattle and most of the draughts.</p></div>
<p>A restored window with slim double glazing keeps nearly as much heat in as a modern one, and it looks right on an old house.</p>
</main>`)
	checkText(t, extract(t, doc).Markdown, []string{"New cords and balanced weights"}, nil)
}

func TestREQ_PAGE_002_TestimonialsAreNotComments(t *testing.T) {
	// a tradesman's service page quoting a customer: part of what the
	// page says, not a discussion below it
	doc := rulePage("Chimney sweeping | Ashby Sweeps", false, `
<header><nav><a href="/">Ashby Sweeps</a> <a href="/contact">Contact</a></nav></header>
<main><h1>Chimney sweeping</h1>
<p>We sweep open fires, wood burners and range cookers across the county, using brushes and a sealed vacuum so that not a speck of soot reaches your carpet.</p>
<p>Every sweep ends with a smoke test and a certificate for your insurer, and we will point out any cracked pots, loose flashing or nesting birds we find.</p>
<div class="testimonials"><blockquote><p>Tidy, quick and friendly. Our stove draws better than it has in years.</p><p>Petra, Lowfield</p></blockquote></div>
</main>`)
	checkText(t, extract(t, doc).Markdown, []string{"Our stove draws better than it has in years."}, nil)
}

func TestREQ_PAGE_002_ClassWordsBeforeAColonAreConditions(t *testing.T) {
	// utility CSS names when a style applies before a colon
	// ("print:hidden": hidden when printed); the word names no part of
	// the page. The words after the colon still do.
	tests := []struct {
		class string
		want  uint32 // the hint bits of interest
	}{
		{"print:hidden", 0},
		{"mt-6 print:hidden", 0},
		{"print:hidden sidebar", hintSidebar},
		{"md:sidebar", hintSidebar},
		{"lg:flex related-posts", hintRelated},
	}
	const bits = hintNoise | hintSidebar | hintRelated
	var scratch []byte
	for _, tc := range tests {
		if got := classHints([]byte(tc.class), &scratch) & bits; got != tc.want {
			t.Errorf("classHints(%q) = %#x, want %#x", tc.class, got, tc.want)
		}
	}

	// an outdoor shop's buying guide with a paragraph left out of print
	doc := rulePage("Choosing a sleeping bag | Kestrel Outdoors", false, `
<main><h1>Choosing a sleeping bag</h1>
<p>The comfort rating on the label is the lowest temperature at which most people sleep warmly, and it is the number to compare between bags, not the extreme rating.</p>
<div class="mt-6 print:hidden"><p>If you are unsure, our shop staff in Caddon will lay out three bags on the floor and let you try each one, zipped up, before you decide.</p></div>
<p>Down packs smaller and lasts longer, while synthetic filling keeps more of its warmth when it gets damp, which matters on wet coasts.</p>
</main>`)
	checkText(t, extract(t, doc).Markdown, []string{"our shop staff in Caddon"}, nil)
}

func TestREQ_PAGE_002_TableRowsAreNotTeaserCards(t *testing.T) {
	// a woodworking guide's table whose first column links each tool:
	// rows of data, not a run of teasers
	doc := rulePage("Which hand plane do you need? | Benchmark Woodwork", false, `
<main><h1>Which hand plane do you need?</h1>
<p>A beginner can do almost everything with two or three planes, and the rest can wait until a particular job calls for one.</p>
<table>
<tr><th>Plane</th><th>What it is for</th></tr>
<tr><td><a href="/planes/block">Block plane</a></td><td>end grain, chamfers and small parts</td></tr>
<tr><td><a href="/planes/smoothing">Smoothing plane</a></td><td>the final surface before finishing</td></tr>
<tr><td><a href="/planes/jack">Jack plane</a></td><td>taking boards down to size quickly</td></tr>
<tr><td><a href="/planes/jointer">Jointer plane</a></td><td>long straight edges for glued joints</td></tr>
</table>
<p>Buy the block plane first: it is cheap, it fits in an apron pocket, and you will reach for it on every project you make.</p>
</main>`)
	checkText(t, extract(t, doc).Markdown,
		[]string{"| Plane | What it is for |", "end grain, chamfers and small parts", "long straight edges for glued joints"}, nil)
}

func TestREQ_PAGE_002_SubheadingBeforeFirstProseKept(t *testing.T) {
	// a service page whose first section opens with a subheading; one
	// written as a sentence is a standfirst set as a heading, and goes
	// like the rest of what precedes the first prose
	tests := []struct {
		heading string
		kept    bool
	}{
		{"Plans for every household", true},
		{"Warm homes start with a boiler that is looked after.", false},
	}
	for _, tc := range tests {
		doc := rulePage("Boiler servicing | Pellow Heating", false, `
<main><h1>Boiler servicing</h1>
<h2>`+tc.heading+`</h2>
<p>Our yearly service checks the burner, the flue and the safety devices of your boiler, and our engineer leaves a written report before going.</p>
<p>Book before the end of September and we will also bleed every radiator in the house, free of charge.</p>
</main>`)
		md := extract(t, doc).Markdown
		if got := strings.Contains(md, tc.heading); got != tc.kept {
			t.Errorf("heading %q kept = %v, want %v:\n%s", tc.heading, got, tc.kept, md)
		}
		checkText(t, md, []string{"Our yearly service", "bleed every radiator"}, nil)
	}
}

func TestREQ_PAGE_002_CodeBlockInChromeColumnKept(t *testing.T) {
	// an API reference in two columns: the explanation, and the example
	// request in a column classed as a sidebar
	method := func(name, text, code string) string {
		return `<div class="method"><h2>` + name + `</h2><div class="method-text"><p>` + text + `</p></div>` +
			`<div class="method-sidebar"><pre><code>` + code + `</code></pre></div></div>`
	}
	doc := rulePage("Parcels | Quillpost API", false, `<main><h1>Parcels</h1>`+
		method("Create a parcel", "Creates a parcel and returns its tracking number. The sender address defaults to the one stored on your account, and the weight is given in grams.",
			"curl https://api.quillpost.example/v2/parcels -d weight=1200")+
		method("Cancel a parcel", "Cancels a parcel that has not been collected yet. The label stops working at once, and the postage is refunded to your account within a day.",
			"curl -X DELETE https://api.quillpost.example/v2/parcels/QP1042")+
		`</main>`)
	checkText(t, extract(t, doc).Markdown,
		[]string{"```\ncurl https://api.quillpost.example/v2/parcels -d weight=1200\n```", "curl -X DELETE"}, nil)
}

func TestREQ_PAGE_002_ButtonLinksDropped(t *testing.T) {
	// a software landing page: calls to action styled as buttons, by a
	// class on the link or on its wrapper, are actions, not content
	tests := []struct {
		name, cta, label string
		kept             bool
	}{
		{"class on the link", `<p><a class="btn btn-primary" href="/signup">Start your free trial</a></p>`, "Start your free trial", false},
		{"class on the wrapper", `<div class="button-row"><a href="/demo">Book a demo</a></div>`, "Book a demo", false},
		// a long label is a card or a sentence made into a button
		{"long label", `<p><a class="btn" href="/guide">Read how three bakeries moved their rotas to Clockwise</a></p>`, "three bakeries", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := rulePage("Team timesheets | Clockwise", false, `
<main><h1>Team timesheets</h1>
<p>Clockwise records the hours of your whole team from their phones, and turns them into timesheets your payroll can import without retyping a thing.</p>
`+tc.cta+`
<p>Managers approve the week with one tap, and anyone who forgot to clock out gets a friendly reminder the next morning.</p>
<p>Plans start at two pounds per person per month, and you can cancel at any time from the settings page.</p>
</main>`)
			md := extract(t, doc).Markdown
			if got := strings.Contains(md, tc.label); got != tc.kept {
				t.Errorf("%q kept = %v, want %v:\n%s", tc.label, got, tc.kept, md)
			}
			checkText(t, md, []string{"turns them into timesheets", "friendly reminder"}, nil)
		})
	}
}

func TestREQ_PAGE_002_TailListOfDescribedLinksKept(t *testing.T) {
	// a language guide's front page ending in its table of contents:
	// each item links a chapter and says what it covers
	doc := rulePage("The Tallow language guide | Tallow", false, `
<main><h1>The Tallow language guide</h1>
<p>This guide walks through the Tallow language from its basic values to its module system, with a short example in every chapter that you can run as you read.</p>
<p>Each chapter builds on the ones before it, so first-time readers should take them in order.</p>
<ul>
<li><a href="/guide/values">Values</a> - numbers, strings and the unit value</li>
<li><a href="/guide/records">Records</a> - named fields and how to update them</li>
<li><a href="/guide/generics">Generics</a> - types which take other types as parameters</li>
<li><a href="/guide/modules">Modules</a> - splitting a program across files</li>
</ul>
</main>`)
	checkText(t, extract(t, doc).Markdown,
		[]string{"numbers, strings and the unit value", "types which take other types as parameters", "splitting a program across files"}, nil)
}

func TestREQ_PAGE_002_TabsAreNotNavigation(t *testing.T) {
	// installation notes with one tab panel per system: the panels are
	// short lists, not prose, and they are the page's content
	doc := rulePage("Installing Harbourline | Harbourline Docs", false, `
<main><h1>Installing Harbourline</h1>
<p>Harbourline runs on any recent desktop system. The installer sets up the command line tool and a background service that keeps your local copy in step with the server.</p>
<div class="tabs">
<div class="tab-panel"><h3>Windows</h3><ul><li>Windows 10 or later</li><li>Four gigabytes of memory</li></ul></div>
<div class="tab-panel"><h3>macOS</h3><ul><li>macOS 13 or later</li><li>Apple or Intel processor</li></ul></div>
<div class="tab-panel"><h3>Linux</h3><ul><li>Any distribution with systemd</li><li>glibc 2.31 or later</li></ul></div>
</div>
<p>Once it is installed, sign in with your team account and choose the folders you want to keep in step. You can change the list later from the settings window.</p>
</main>`)
	checkText(t, extract(t, doc).Markdown, []string{"Four gigabytes of memory", "Any distribution with systemd"}, nil)
}

func TestREQ_PAGE_002_SigIsNotASignature(t *testing.T) {
	// an API reference made by a documentation generator: "sig" names
	// a function's signature, not a forum post's signature
	doc := rulePage("tallow.dates | Tallow documentation", false, `
<main><h1>tallow.dates</h1>
<p>This module reads and writes calendar dates in the formats most often found in spreadsheets, logs and letters, and never guesses the time zone.</p>
<dl class="py function">
<dt class="sig sig-object py" id="tallow.dates.parse_date"><span class="sig-prename descclassname">tallow.dates.</span><span class="sig-name descname">parse_date</span><span class="sig-paren">(</span><em class="sig-param">text</em>, <em class="sig-param">order</em><span class="sig-paren">)</span></dt>
<dd><p>Parse a date written in words or digits and return it as a date value. The order argument settles whether 03/04 is read as the third of April or the fourth of March.</p></dd>
</dl>
</main>`)
	checkText(t, extract(t, doc).Markdown, []string{"parse_date", "order"}, nil)
}

func TestREQ_PAGE_002_ChromeClassedProseKeptFrom150Chars(t *testing.T) {
	// an inn's page whose kitchen paragraph sits in an element classed
	// "menu" (the food menu), and a theme's second column
	// (id="secondary") holding a paragraph of the page: each reads as
	// prose with 171 characters, from minChromeProse (150) on
	text := `Our kitchen cooks from the farms around the village: lamb from the fell, trout from the tarn and greens from the walled garden, with a short menu that changes every week and a board of local cheeses to finish.`
	n := len(strings.Join(strings.Fields(text), ""))
	if n < 150 || n >= 200 {
		t.Fatalf("the panel's prose is %d characters, want 150 to 199", n)
	}
	for _, open := range []string{`<div class="menu">`, `<div id="secondary">`} {
		doc := rulePage("The Lantern Inn, Hollowmere | Lantern Inn", false, `
<main><h1>The Lantern Inn</h1>
<p>The Lantern has stood at the top of Hollowmere high street since the days of the coaching roads, and it still keeps a fire lit in the front bar from October to April.</p>
`+open+`<p>`+text+`</p></div>
<p>Walkers and their dogs are welcome in the bar at any time, and we can dry boots and coats by the stove while you eat. Rooms upstairs look out over the green.</p>
</main>`)
		md := extract(t, doc).Markdown
		if !strings.Contains(md, "lamb from the fell") {
			t.Errorf("%s: prose of %d characters missing:\n%s", open, n, md)
		}
	}
}

func TestREQ_PAGE_002_RelatedHeadingsNamedByWhatOthersDid(t *testing.T) {
	// a product page whose other products come under a heading that
	// says what other shoppers did ("People who viewed this item also
	// viewed"), with no class to say so
	doc := `<!DOCTYPE html><html><head><title>Brass tide clock | Harbour Goods</title><meta property="og:type" content="product"></head><body>
<header><a href="/">Harbour Goods</a></header>
<main><h1>Brass tide clock</h1>
<p>A solid brass tide clock with a single hand that shows the hours to the next high water, set by hand once and corrected twice a year.</p>
<p>The dial is printed on enamel, the glass is bevelled, and the case takes one AA cell that runs the movement for about a year.</p>
<h2>People who viewed this item also viewed</h2>
<ul><li><a href="/p/barometer">Ship's barometer</a> Brass, 15 cm dial, aneroid movement</li>
<li><a href="/p/bell">Ship's bell</a> Cast brass, 20 cm, with a lanyard</li>
<li><a href="/p/lamp">Anchor lamp</a> Copper and glass, for paraffin</li></ul>
</main></body></html>`
	checkText(t, extract(t, doc).Markdown, []string{"single hand that shows the hours"},
		[]string{"also viewed", "Ship's barometer", "Anchor lamp"})
}
