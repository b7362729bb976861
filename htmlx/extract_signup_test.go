package htmlx

import (
	"testing"

	"golang.org/x/net/html/atom"
)

func TestREQ_PAGE_002_SignupCallLeftOut(t *testing.T) {
	p := extract(t, chromePage(`<p>The river rose through the night, and by morning the lower town was under water again, as it was in the spring.</p>`+
		`<div><h3>Join Our Newsletter</h3><p>Get the latest flood warnings delivered to your inbox.</p></div>`+
		`<p>To follow the repairs:</p><ol><li>Sign up for an account on the council's site.</li><li>Choose the lower town in your settings.</li></ol>`+
		`<p>Emergency crews moved families to the school on the hill, as they did last time, and the road stays closed.</p>`+
		`<p>The council's newsletter, sent each month to every household, will print the new flood map in March.</p>`+
		`<p>Subscribe</p>`+
		`<p>The water is expected to recede over the weekend, though more rain is forecast for the hills on Sunday.</p>`))
	checkText(t, p.Markdown,
		[]string{"under water again", "Sign up for an account", "moved families", "The council's newsletter, sent each month", "recede over the weekend"},
		[]string{"Join Our Newsletter", "delivered to your inbox", "Subscribe"})
}

func TestSignupCallNamesAChannel(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Subscribe", true},
		{"Newsletter", true},
		{"Subscribe to get the latest posts sent to your email.", true},
		{"Never miss a post: get our stories in your inbox weekly.", true},
		{"Sign up for a free account to save your maps.", false},
		{"Join the volunteers at the school on Saturday.", false},
		{"Get the latest news and updates on the valley.", false},
		{"The newsletter goes out monthly.", false},
	} {
		doc := `<html><body><p>` + c.text + `</p></body></html>`
		tr := parseHTML(doc, defaultMaxNodes, defaultMaxDepth)
		x := newExtractor(tr, "")
		got := false
		for i := range tr.nodes {
			if tr.nodes[i].tag == atom.P {
				got = x.signupCall(int32(i))
			}
		}
		if got != c.want {
			t.Errorf("%q: signupCall = %v, want %v", c.text, got, c.want)
		}
	}
}
