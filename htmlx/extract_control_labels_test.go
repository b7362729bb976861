package htmlx

import "testing"

func TestREQ_PAGE_002_ControlLinesLeftOut(t *testing.T) {
	p := extract(t, chromePage(`<div><span>6 min read</span></div>`+
		`<p>The river rose through the night, and by morning the lower town was under water again, as it was in the spring.</p>`+
		`<blockquote><p>The levee will hold until Friday, the engineers said.</p><div><a>Click to expand...</a></div></blockquote>`+
		`<div class="slot"><p>Advertisement</p></div>`+
		`<p>Emergency crews moved families to the school on the hill, as they did last time, and the road stays closed.</p>`+
		`<h4>Share this article</h4>`+
		`<p>Click to expand the map, then share this article with your neighbours before Sunday.</p>`+
		`<p>The water is expected to recede over the weekend, though more rain is forecast for the hills on Sunday.</p>`))
	checkText(t, p.Markdown,
		[]string{"under water again", "The levee will hold", "moved families", "Click to expand the map, then share this article", "recede over the weekend"},
		[]string{"6 min read", "Click to expand...", "Advertisement", "#### Share"})
}

func TestReadingTime(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{{"5 min read", true}, {"12 minutes read", true}, {"5min read", true}, {"min read", false}, {"5 min reading", false}, {"2025 min read", false}} {
		if got := readingTime([]byte(c.s)); got != c.want {
			t.Errorf("readingTime(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}
