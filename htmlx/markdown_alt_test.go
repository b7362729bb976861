package htmlx

import (
	"strings"
	"testing"
)

// Alternative text that names its picture as decoration (an icon, an
// illustration, a screenshot, a hero image) is left out; one that says
// what the picture shows stays.
func TestDecorativeAltLeftOut(t *testing.T) {
	i := strings.Index(serviceProse, "<p>Every month")
	pictures := `<p><img src="/i/shield.svg" alt="Security shield - Icon"> Your records are kept encrypted, and only the bookkeeper named on your account can open them.</p>
<p><img src="/i/desk.png" alt="Line drawing illustration of a desk with a ledger"> We answer every question the same working day, by phone or by mail.</p>
<p><img src="/i/app.png" alt="Screenshot of the monthly report in the client portal"> The monthly report arrives in the portal on the fifth working day.</p>
<p><img src="/i/owner.jpg" alt="Maria Lopez, owner of a bakery in Leeds"> Maria has kept her bakery's books with us for six years.</p>`
	md := extractMD(t, servicePage("", serviceProse[:i]+pictures+serviceProse[i:]))
	if !strings.Contains(md, "Your records are kept encrypted") {
		t.Fatalf("the page's prose is missing:\n%s", md)
	}
	for _, alt := range []string{"Security shield", "Line drawing illustration", "Screenshot of the monthly report"} {
		if strings.Contains(md, alt) {
			t.Errorf("the decoration %q is kept:\n%s", alt, md)
		}
	}
	if !strings.Contains(md, "Maria Lopez, owner of a bakery in Leeds") {
		t.Errorf("the alternative text of a picture of the subject is left out:\n%s", md)
	}
}

func TestDecorativeAlt(t *testing.T) {
	for alt, want := range map[string]bool{
		"WAF - Hero image":            true,
		"icon - internet globe":       true,
		"Hand-drawn (illustration)":   true,
		"Dashboard mockup":            true,
		"A graphic of rising sales":   true,
		"Sunset over the harbour":     false,
		"Iconic bridge at night":      false,
		"Heroes of the 1966 final":    false,
		"Chart of the year's revenue": false,
	} {
		if got := decorativeAlt(alt); got != want {
			t.Errorf("decorativeAlt(%q) = %v, want %v", alt, got, want)
		}
	}
}
