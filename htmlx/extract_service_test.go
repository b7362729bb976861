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
