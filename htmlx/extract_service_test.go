package htmlx

import (
	"strings"
	"testing"
)

// servicePage wraps the body of a page in a document with a title and a
// site header and footer; og is the page's Open Graph type ("" for none).
func servicePage(og, body string) string {
	meta := ""
	if og != "" {
		meta = `<meta property="og:type" content="` + og + `">`
	}
	return `<html><head><title>Bookkeeping for small firms</title>` + meta + `</head><body>
<header><nav><a href="/">Home</a> <a href="/services">Services</a> <a href="/contact">Contact</a></nav></header>
<main>` + body + `</main>
<footer><p>© Ledger &amp; Co. All rights reserved.</p><a href="/privacy">Privacy</a></footer>
</body></html>`
}

const serviceProse = `<h1>Bookkeeping for small firms</h1>
<p>We keep the books of small firms in order all year round, so that their owners can spend their time on their customers instead of on receipts, ledgers and the questions of the tax office.</p>
<p>Every month we reconcile the bank accounts, post the invoices and the bills, chase what is overdue and send a short report that shows where the money went and what is coming in next.</p>
<p>At the end of the year we close the books, prepare the statements your accountant needs and answer the questions that come back, at a fixed price agreed before we start.</p>`

func extractMD(t *testing.T, doc string) string {
	t.Helper()
	page, err := ExtractHTML(doc, nil, Limits{})
	if err != nil {
		t.Fatalf("ExtractHTML: %v", err)
	}
	return page.Markdown
}

// A section classed as a call to action that reads as prose is a part of
// a service page; on a page that declares itself an article it is the
// publisher's plug and goes.
func TestCallToActionProseIsContent(t *testing.T) {
	cta := `<section class="cta-section"><h2>Why owners choose us</h2>
<p>Owners choose us because we answer the phone, we explain what the numbers mean in plain words, and we notice the problems early, long before they turn into penalties or sleepless nights.</p>
<a class="btn" href="/quote">Get a quote</a></section>`
	md := extractMD(t, servicePage("", serviceProse+cta))
	if !strings.Contains(md, "Owners choose us because we answer the phone") {
		t.Errorf("the prose of a call-to-action section is left out of a service page:\n%s", md)
	}
	md = extractMD(t, servicePage("article", serviceProse+cta))
	if strings.Contains(md, "Owners choose us because we answer the phone") {
		t.Errorf("the call to action of an article is kept:\n%s", md)
	}
}

// On a page made of many short blocks (pruned leniently), a call to
// action is not the page's frame: its words stay with the blocks.
func TestCallToActionIsNotFrame(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<h1>Bookkeeping for small firms</h1>`)
	for _, s := range []string{"Bank reconciliation", "Invoices and bills", "Payroll runs", "Year-end statements", "Sales tax returns", "Cash-flow reports"} {
		b.WriteString(`<div class="service"><h3>` + s + `</h3><p>Done monthly by a named bookkeeper</p></div>`)
	}
	b.WriteString(`<div class="home-cta"><h3>Book a free consultation with our team</h3></div>`)
	md := extractMD(t, servicePage("", b.String()))
	if !strings.Contains(md, "Payroll runs") {
		t.Fatalf("the service blocks are missing:\n%s", md)
	}
	if !strings.Contains(md, "Book a free consultation with our team") {
		t.Errorf("a call to action among the blocks of a service page is left out:\n%s", md)
	}
}

// The foot of a card ("card-footer") is a part of the card, not the
// page's footer.
func TestCardFooterIsNotPageFooter(t *testing.T) {
	var scratch []byte
	for _, c := range []string{"card-footer", "testimonial-card__footer", "pages__CustomerCardFooter-sc-1 xYz"} {
		if classHints([]byte(c), &scratch)&hintFooter != 0 {
			t.Errorf("%q reads as a page footer", c)
		}
	}
	for _, c := range []string{"footer", "site-footer", "page-footer footer-dark", "cardholder footer"} {
		if classHints([]byte(c), &scratch)&hintFooter == 0 {
			t.Errorf("%q does not read as a footer", c)
		}
	}
}

// Feature cards that open with their own title and end with a link are
// the services a page offers; teasers that open with a linked title are
// links to other pages and go.
func TestFeatureCardsNotLedByLinkStay(t *testing.T) {
	var b strings.Builder
	b.WriteString(serviceProse)
	b.WriteString(`<div class="features">`)
	for _, s := range []string{"Audits", "Payroll", "Tax returns"} {
		b.WriteString(`<div class="feature"><h3>` + s + `</h3><p>Checked every quarter.</p><a href="/` + strings.ToLower(s[:3]) + `">See how ` + strings.ToLower(s) + ` work</a></div>`)
	}
	b.WriteString(`</div><div class="stories">`)
	for _, s := range []string{"Five receipts to keep", "When to hire a bookkeeper", "Closing the year calmly"} {
		b.WriteString(`<div class="story"><a href="/blog/` + strings.ToLower(s[:4]) + `">` + s + `</a><p>A short read for owners.</p></div>`)
	}
	b.WriteString(`</div>`)
	md := extractMD(t, servicePage("", b.String()))
	if !strings.Contains(md, "Payroll") || !strings.Contains(md, "Checked every quarter.") {
		t.Errorf("feature cards that open with their own title are left out:\n%s", md)
	}
	if strings.Contains(md, "When to hire a bookkeeper") {
		t.Errorf("teasers that open with a linked title are kept:\n%s", md)
	}
}

// On a page that is not an article, one link wrapping a card's title
// and text is a card, not a list of links; on an article the same
// link goes with the site's other links.
func TestLinkWrappedCardsStay(t *testing.T) {
	var b strings.Builder
	b.WriteString(serviceProse)
	b.WriteString(`<h2>What we do</h2>`)
	for _, s := range []string{"Payroll", "Audits", "Tax returns"} {
		b.WriteString(`<a class="service-card" href="/` + strings.ToLower(s[:3]) + `"><div class="card-body"><h3>` + s + `</h3><p>Handled every month by a named bookkeeper.</p></div></a>`)
	}
	b.WriteString(`<p>Every engagement starts with a free call in which we look at your books together and agree on what needs doing first.</p>`)
	md := extractMD(t, servicePage("", b.String()))
	if !strings.Contains(md, "Tax returns") || !strings.Contains(md, "Handled every month by a named bookkeeper.") {
		t.Errorf("cards wrapped in one link each are left out of a service page:\n%s", md)
	}
	md = extractMD(t, servicePage("article", b.String()))
	if strings.Contains(md, "Handled every month by a named bookkeeper.") {
		t.Errorf("cards wrapped in links are kept in an article:\n%s", md)
	}
}

// On a page that is not an article, a list of links that is the only
// one of its kind is a section of the page (the areas a service covers);
// lists of a kind that recurs (the links of each item), a list under a
// heading naming related items and a gallery of linked pictures still go.
func TestOnlyListOfItsKindStays(t *testing.T) {
	var b strings.Builder
	b.WriteString(serviceProse)
	b.WriteString(`<div class="areas"><h2>Areas we serve</h2><ul>`)
	for _, c := range []string{"Chandler", "Gilbert", "Mesa", "Tempe"} {
		b.WriteString(`<li><a href="/areas/` + strings.ToLower(c) + `">` + c + `</a></li>`)
	}
	b.WriteString(`</ul></div>`)
	b.WriteString(`<div class="more"><h3>Related services</h3><p><a href="/tax">Tax advice</a></p><p><a href="/audit">Audit support</a></p></div>`)
	b.WriteString(`<div class="gallery">`)
	for _, p := range []string{"Front desk", "Meeting room", "Archive"} {
		b.WriteString(`<div class="slide"><a href="/photos/` + strings.ToLower(p[:3]) + `.jpg"><img src="/photos/` + strings.ToLower(p[:3]) + `-small.jpg" alt=""><span>` + p + `</span></a></div>`)
	}
	b.WriteString(`</div>`)
	for _, q := range []string{"Who keeps my receipts?", "Can I change my plan?"} {
		b.WriteString(`<div class="answer"><h3>` + q + `</h3><p>You can, at any time, by writing to your bookkeeper, who answers within one working day and confirms the change in writing.</p>` +
			`<ul class="answer-links"><li><a href="/help">Help</a></li><li><a href="/contact">Contact</a></li></ul></div>`)
	}
	md := extractMD(t, servicePage("", b.String()))
	checkText(t, md, []string{"Gilbert"}, []string{"Contact", "Tax advice", "Meeting room"})
}

// An item that a list shares with another list, which says otherwise
// (the features a bigger plan shares with a smaller one), stays in each;
// a list printed twice word for word is a copy and is written once.
func TestItemSharedByTwoListsStays(t *testing.T) {
	shared := `<li>A named bookkeeper reconciles your bank accounts every month.</li>`
	body := serviceProse +
		`<div class="plan-starter"><h2>Starter</h2><ul>` + shared + `<li>A quarterly report on where the money went.</li></ul></div>` +
		`<div class="plan-growth"><h2>Growth</h2><p>Everything in Starter, and:</p><ul>` + shared + `<li>Payroll runs for up to twenty employees.</li></ul></div>` +
		`<div class="steps"><ul><li>Send us the statements of your bank accounts.</li><li>Meet the bookkeeper who will look after them.</li></ul></div>` +
		`<div class="steps-mobile"><ul><li>Send us the statements of your bank accounts.</li><li>Meet the bookkeeper who will look after them.</li></ul></div>` +
		`<p>Every engagement starts with a free call in which we look at your books together and agree on what needs doing first.</p>`
	md := extractMD(t, servicePage("", body))
	if n := strings.Count(md, "A named bookkeeper reconciles your bank accounts every month."); n != 2 {
		t.Errorf("the item two plans share is written %d times, want 2:\n%s", n, md)
	}
	if n := strings.Count(md, "Send us the statements of your bank accounts."); n != 1 {
		t.Errorf("the item of a list printed twice is written %d times, want 1:\n%s", n, md)
	}
}

// Sections of a page builder classed as a side column of a layout, one
// in two set apart by a modifier, that each hold prose are a run of the
// page's sections, not sidebars.
func TestRunOfAlikeSectionsStays(t *testing.T) {
	var b strings.Builder
	b.WriteString(serviceProse)
	for k, s := range []string{"Monthly books", "Year-end close", "Payroll"} {
		class := "feature layout-sidebar-left"
		if k%2 == 1 {
			class += " reversed"
		}
		b.WriteString(`<div class="` + class + `"><h3>` + s + `</h3><p>We take care of the ` + strings.ToLower(s) + ` for you, explain what we found in plain words, and keep every document you will need later.</p></div>`)
	}
	b.WriteString(`<p>Every engagement starts with a free call in which we look at your books together and agree on what needs doing first.</p>`)
	md := extractMD(t, servicePage("", b.String()))
	for _, s := range []string{"Monthly books", "Year-end close", "Payroll"} {
		if !strings.Contains(md, "We take care of the "+strings.ToLower(s)) {
			t.Errorf("section %q of a run set apart by a modifier is left out:\n%s", s, md)
		}
	}
}

// The sections that lead into the longest prose of a page (its hero, its
// introduction) belong with it; what follows it stays out. On a page that
// declares itself an article they are its head (standfirst, byline) and
// stay out.
func TestSectionsLeadingIntoTheRootStay(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<div class="page"><section class="hero"><h1>Bookkeeping for small firms</h1><p>Books kept, taxes filed, owners at ease.</p></section>`)
	b.WriteString(`<section class="intro"><h2>How we work</h2><p>One named bookkeeper looks after your books, every month, for a fixed fee.</p></section>`)
	b.WriteString(`<section class="faq"><h2>Questions owners ask</h2>`)
	for k, q := range []string{"Who keeps my receipts?", "Can I change my plan?", "What happens at the end of the year?", "Do you work with my accountant?", "How do I send you my bills?", "What does it cost?"} {
		b.WriteString(`<h3>` + q + `</h3><p>Answer ` + strings.Repeat("I", k+1) + `: we answer this for every new client in the first call, and we write the answer down in a short note, so that you can come back to it whenever the question comes up again during the year, and share it with whoever helps you run the firm.</p>`)
	}
	b.WriteString(`</section><section class="more"><p>Our offices are open on weekdays from nine to five.</p></section></div>`)
	md := extractMD(t, servicePage("", b.String()))
	if !strings.Contains(md, "Who keeps my receipts?") {
		t.Fatalf("the questions are missing:\n%s", md)
	}
	if !strings.Contains(md, "Books kept, taxes filed, owners at ease.") || !strings.Contains(md, "One named bookkeeper looks after your books") {
		t.Errorf("the sections leading into the questions are left out:\n%s", md)
	}
	if strings.Contains(md, "Our offices are open") {
		t.Errorf("what follows the questions is kept:\n%s", md)
	}
	md = extractMD(t, servicePage("article", b.String()))
	if strings.Contains(md, "One named bookkeeper looks after your books") {
		t.Errorf("the head of a page declared an article is kept:\n%s", md)
	}
	dated := strings.Replace(b.String(), `<h2>How we work</h2>`, `<h2>How we work</h2><p>Updated <time datetime="2024-03-01">1 March 2024</time></p>`, 1)
	md = extractMD(t, servicePage("", dated))
	if strings.Contains(md, "One named bookkeeper looks after your books") {
		t.Errorf("a section with a date, an article's head, is kept as a lead-in:\n%s", md)
	}
}

// The page's header and navigation, which open the element where the
// sections leading into the root are, do not stop the lead-in: they are
// the frame, and are left out.
func TestLeadInPastThePageHeader(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><head><title>Bookkeeping for small firms</title></head><body><div class="wrapper">`)
	b.WriteString(`<header><nav><a href="/">Home</a> <a href="/services">Services</a> <a href="/contact">Contact</a></nav></header>`)
	b.WriteString(`<section class="hero"><h1>Bookkeeping for small firms</h1><p>Books kept and taxes filed on time, so that the owners of small firms can sleep at night.</p></section>`)
	b.WriteString(`<div class="content"><section class="intro"><h2>How we work</h2><p>One named bookkeeper looks after your books, every month, for a fixed fee.</p></section>`)
	b.WriteString(`<section class="faq"><h2>Questions owners ask</h2>`)
	for k, q := range []string{"Who keeps my receipts?", "Can I change my plan?", "What happens at the end of the year?", "Do you work with my accountant?", "How do I send you my bills?", "What does it cost?"} {
		b.WriteString(`<h3>` + q + `</h3><p>Answer ` + strings.Repeat("I", k+1) + `: we answer this for every new client in the first call, and we write the answer down in a short note, so that you can come back to it whenever the question comes up again during the year, and share it with whoever helps you run the firm.</p>`)
	}
	b.WriteString(`</section></div><footer><p>© Ledger &amp; Co.</p></footer></div></body></html>`)
	md := extractMD(t, b.String())
	if !strings.Contains(md, "Who keeps my receipts?") {
		t.Fatalf("the questions are missing:\n%s", md)
	}
	checkText(t, md, []string{"so that the owners of small firms can sleep at night"}, []string{"Services"})
}

// Clients' words quoted one after another, in a block classed as
// reviews, are a part of a service page. Reviews that are not quoted
// (a shop's rated reviews) and quoted reviews on a page declared an
// article still go.
func TestQuotedTestimonialsStay(t *testing.T) {
	quotes := []string{
		"They sorted out three years of receipts in a month and never once made us feel silly.",
		"Our tax office letters stopped the month they took over, and the reports make sense.",
		"Fixed price, no surprises, and a bookkeeper who knows our business by name.",
	}
	block := func(open, close string) string {
		var b strings.Builder
		b.WriteString(`<div class="reviews-carousel"><h2>What our clients say</h2>`)
		for _, q := range quotes {
			b.WriteString(`<div class="review-card"><p>` + open + q + close + `</p><span>A client</span></div>`)
		}
		b.WriteString(`</div>`)
		return b.String()
	}
	md := extractMD(t, servicePage("", serviceProse+block("“", "”")))
	if !strings.Contains(md, "sorted out three years of receipts") || !strings.Contains(md, "knows our business by name") {
		t.Errorf("quoted testimonials classed as reviews are left out of a service page:\n%s", md)
	}
	md = extractMD(t, servicePage("", serviceProse+block("", "")))
	if strings.Contains(md, "sorted out three years of receipts") {
		t.Errorf("reviews that are not quoted are kept:\n%s", md)
	}
	md = extractMD(t, servicePage("article", serviceProse+block("“", "”")))
	if strings.Contains(md, "sorted out three years of receipts") {
		t.Errorf("quoted reviews on an article are kept:\n%s", md)
	}
}

// A site builder names each module of a page "widget_" and a serial
// number; such a section is not a sidebar's widget, and its words stay.
func TestWidgetWithSerialNumberIsNotSidebar(t *testing.T) {
	for _, c := range []string{"widget_1753096675076", "widget-20240611093012"} {
		if classHints([]byte(c), new([]byte))&hintSidebar != 0 {
			t.Errorf("classHints(%q) reads a sidebar", c)
		}
	}
	for _, c := range []string{"widget_text", "widget widget_recent_entries", "widget-3"} {
		if classHints([]byte(c), new([]byte))&hintSidebar == 0 {
			t.Errorf("classHints(%q) does not read a sidebar", c)
		}
	}
	section := `<section id="widget_1753096675076"><h2>Payroll without the worry</h2><p>A named bookkeeper runs it for you, every month, at a fixed price.</p></section>`
	md := extractMD(t, servicePage("", serviceProse+section))
	if !strings.Contains(md, "Payroll without the worry") {
		t.Errorf("sections named by a builder's serial number are left out:\n%s", md)
	}
}

// TestHeadedBannerIsTheSection: a promotion banner that is the whole of
// a section the page heads ("Payroll offers", then the offer) is what
// the section says, and stays; an advert set between two paragraphs of
// the page's prose, with no heading of the page's over it, goes.
func TestHeadedBannerIsTheSection(t *testing.T) {
	offers := `<h2>Payroll offers</h2><hr>
<div class="promo-banner" id="promo-payroll"><h3>Three months of payroll at half price for new clients.</h3><p>Move your payroll to us before the end of the quarter and the first three monthly runs cost half the usual fee, with the set-up included.</p></div>
<h2>Year-end offers</h2>
<div class="cta-banner"><h3>A fixed price for your year-end statements.</h3><p>Book your year-end close by the autumn and we agree the price before we start, whatever the state of the receipts box turns out to be.</p></div>`
	md := extractMD(t, servicePage("", serviceProse+offers))
	checkText(t, md, []string{"first three monthly runs cost half", "whatever the state of the receipts box"}, nil)

	advert := `<p>We keep the books of small firms in order all year round, so that their owners can spend their time on their customers instead of on receipts.</p>
<div class="promo-banner"><p>Try the Tallybook app free for thirty days and see every receipt in one place, on your phone and your desk.</p></div>
<p>Every month we reconcile the bank accounts, post the invoices and the bills, chase what is overdue and send a short report of where the money went.</p>
<p>At the end of the year we close the books, prepare the statements your accountant needs and answer the questions that come back, at a fixed price.</p>`
	md = extractMD(t, servicePage("", `<h1>Bookkeeping for small firms</h1>`+advert))
	checkText(t, md, []string{"reconcile the bank accounts"}, []string{"Tallybook"})
}
