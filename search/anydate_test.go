package search

import (
	"testing"

	"rypsok/internal/testdate"
)

// TestREQ_TEST_004_TimeDependentCasesOnAnyDate runs the cases that read the
// injected clock (provider limits, circuits, cooldowns, the cache, deadlines)
// again with the fake clock in 2020 and in 2040: a case that mixes the fake
// clock with the system's passes only near the day it was written.
func TestREQ_TEST_004_TimeDependentCasesOnAnyDate(t *testing.T) {
	testdate.RunAtOtherDates(t, "^TestREQ_(CMP_002|RES_00[45]|TEST_010|CACHE_00[35]|AGG_00[2-9]|STATUS_001|ENG_007|ERR_001)_")
}
