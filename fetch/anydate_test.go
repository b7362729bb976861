package fetch

import (
	"testing"

	"rypsok/internal/testdate"
)

// TestREQ_TEST_004_TimeDependentCasesOnAnyDate runs the cases that read the
// injected clock (robots.txt verdicts and their cache, per-host slots,
// deadlines, latencies in the logs) again with the fake clock in 2020 and in
// 2040.
func TestREQ_TEST_004_TimeDependentCasesOnAnyDate(t *testing.T) {
	testdate.RunAtOtherDates(t, "^TestREQ_(CMP_005|SEC_012|SEC_011|PRIV_004|FETCH_006|SEC_021)_")
}
