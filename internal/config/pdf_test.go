package config

import (
	"fmt"
	"testing"
)

// TestMemoryEstimateAbovePDFPeaks pins the PDF share of the estimate to the
// peaks scripts/measure-memory -pdf printed on this build (four PDFs at
// once, two parses): 1 MiB files whose one page decodes to 7 MiB of text,
// and 5 and 9.9 MiB files of uncompressed text pages. The 1 MiB case is
// above the HTML line of the estimate: memPDFParseMiB covers it.
func TestMemoryEstimateAbovePDFPeaks(t *testing.T) {
	for _, m := range []struct{ pageMiB, peakMiB float64 }{
		{1, 59.6},
		{5, 96.0},
		{9.9, 137.5},
	} {
		c := mustLoad(t, fmt.Sprintf("config_version = 1\n[fetch]\nmax_bytes = %d\n", int(m.pageMiB*(1<<20))+64<<10), nil)
		est := memoryEstimate(c)
		est.sessions = 0
		if got := float64(est.totalMiB()); got < m.peakMiB {
			t.Errorf("%.1f MiB PDFs: estimate %.0f MiB below the measured peak %.1f", m.pageMiB, got, m.peakMiB)
		}
	}
}
