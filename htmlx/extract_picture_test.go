package htmlx

import "testing"

func TestREQ_PAGE_002_StandalonePictureNotRead(t *testing.T) {
	p := extract(t, chromePage(`<p>The river rose through the night, and by morning the lower town was under water again, as it was in the spring.</p>`+
		`<figure><div><img src="/img/flood.jpg" alt="Volunteers in yellow coats carry sandbags past a row of flooded houses"></div></figure>`+
		`<p>Emergency crews moved families to the school on the hill, as they did last time, and the road stays closed.</p>`+
		`<p><img src="/img/map.png" alt="A map of the valley with the closed roads marked in red"></p>`+
		`<p>The council's plan, drawn as <img src="/img/icon.png" alt="a dashed blue line"> on the notice boards, moves the levee back by a mile.</p>`+
		`<p>The water is expected to recede over the weekend, though more rain is forecast for the hills on Sunday.</p>`))
	checkText(t, p.Markdown,
		[]string{"under water again", "moved families", "drawn as a dashed blue line on the notice boards", "recede over the weekend"},
		[]string{"Volunteers in yellow coats", "closed roads marked in red"})
}

func TestREQ_PAGE_002_EnlargedPictureNotRead(t *testing.T) {
	// a link around a picture alone in its block that opens the picture
	// itself, larger or in a lightbox, is the picture still
	p := extract(t, chromePage(`<p>The river rose through the night, and by morning the lower town was under water again, as it was in the spring.</p>`+
		`<p><a href="/img/levee-large.jpg?w=2000"><img src="/img/levee.jpg" alt="Workers raise the levee wall with concrete blocks"></a></p>`+
		`<p><a href="#gallery-3"><img src="/img/boat.jpg" alt="A rescue boat moored at the church steps"></a></p>`+
		`<p>Emergency crews moved families to the school on the hill, as they did last time, and the road stays closed.</p>`+
		`<p>The water is expected to recede over the weekend, though more rain is forecast for the hills on Sunday.</p>`))
	checkText(t, p.Markdown,
		[]string{"under water again", "moved families", "recede over the weekend"},
		[]string{"Workers raise the levee wall", "rescue boat moored", "levee-large.jpg"})
}
