package htmlx

import (
	"strings"
	"testing"
)

// A block cloned whole (a carousel's slides repeated to loop) is written
// once; its lines, each too short to be a repeat alone, go with it. Code
// shown twice stays twice.
func TestClonedBlockOnce(t *testing.T) {
	slides := `<div class="slide"><h3>3.6x</h3><p>faster month-end close</p><h3>50%</h3><p>fewer late fees on supplier bills</p><h3>2x</h3><p>quicker answers</p><span>Read how a bakery in Leeds closed its books in two days</span><span>Read how a joinery stopped paying late fees to its suppliers</span></div>`
	code := `<pre><code>ledger export --month 2024-05 --format csv --output books.csv
ledger reconcile --account current --from 2024-05-01 --to 2024-05-31
ledger report --month 2024-05 --send owner@example.com</code></pre>`
	i := strings.Index(serviceProse, "<p>Every month")
	body := serviceProse[:i] + `<div class="carousel">` + slides + slides + slides + `</div>` +
		`<h2>Export</h2>` + code + `<p>Run the same commands again at the end of the next month to close it the same way.</p>` + code +
		serviceProse[i:]
	md := extractMD(t, servicePage("", body))
	if !strings.Contains(md, "We keep the books of small firms") {
		t.Fatalf("the page's prose is missing:\n%s", md)
	}
	if n := strings.Count(md, "faster month-end close"); n != 1 {
		t.Errorf("a cloned slide is written %d times, want once:\n%s", n, md)
	}
	if n := strings.Count(md, "ledger reconcile --account current"); n != 2 {
		t.Errorf("code shown twice is written %d times, want twice:\n%s", n, md)
	}
}
