package htmlx

import (
	"strconv"
	"strings"
	"testing"
)

// A strip of customers' logos, each picture in an item of its own with no
// words beside it, names brands no reader sees as text: their alternative
// texts stay out. A picture beside the words of its section stays.
func TestLogoStripLeftOut(t *testing.T) {
	var strip strings.Builder
	strip.WriteString(`<ul class="customers">`)
	for _, name := range []string{"Northwind", "Contoso", "Fabrikam", "Tailspin", "Wingtip"} {
		strip.WriteString(`<li><img src="/logos/` + strings.ToLower(name) + `.svg" alt="` + name + ` Traders"></li>`)
	}
	strip.WriteString(`</ul>`)
	body := serviceProse + `<h2>Trusted by</h2>` + strip.String() +
		`<section><img src="/team.jpg" alt="Two people comparing ledgers at a desk"><p>Our bookkeepers work from one office, and every client has a named person who knows the books.</p></section>`
	md := extractMD(t, servicePage("", body))
	if !strings.Contains(md, "We keep the books of small firms") {
		t.Fatalf("the page's prose is missing:\n%s", md)
	}
	for _, name := range []string{"Northwind", "Contoso", "Wingtip"} {
		if strings.Contains(md, name) {
			t.Errorf("the logo of %s is kept:\n%s", name, md)
		}
	}
	if !strings.Contains(md, "Two people comparing ledgers at a desk") {
		t.Errorf("the picture beside a section's words is left out:\n%s", md)
	}
}

// Fewer pictures than a strip, or pictures with words of their own (a
// gallery with captions), are not a strip of logos.
func TestPicturesWithCaptionsAreNotLogoStrip(t *testing.T) {
	var gallery strings.Builder
	gallery.WriteString(`<div class="gallery">`)
	// captions of their own words: a picture's text that only restates its
	// caption is left out by another rule (altRepeatsText)
	for i, s := range []string{"The ledger room", "The archive", "The meeting room", "The front desk"} {
		gallery.WriteString(`<figure><img src="/p.jpg" alt="Photo of ` + s + `"><figcaption>Floor ` + strconv.Itoa(i+1) + `, open on weekdays</figcaption></figure>`)
	}
	gallery.WriteString(`</div><div class="pair"><span><img src="/a.png" alt="Award for service 2024"></span><span><img src="/b.png" alt="Award for accuracy 2025"></span></div>`)
	// the pictures sit between the paragraphs of the page's prose
	i := strings.Index(serviceProse, "<p>Every month")
	md := extractMD(t, servicePage("", serviceProse[:i]+gallery.String()+serviceProse[i:]))
	for _, s := range []string{"Photo of The archive", "Award for service 2024"} {
		if !strings.Contains(md, s) {
			t.Errorf("%q is left out:\n%s", s, md)
		}
	}
}
