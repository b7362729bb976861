package robots

import (
	"testing"

	"rypsok/internal/testdate"
)

// TestREQ_TEST_004_TimeDependentCasesOnAnyDate runs the checker's cases (the
// verdict cache, its TTL, eviction, concurrent reads) again with the fake
// clock in 2020 and in 2040.
func TestREQ_TEST_004_TimeDependentCasesOnAnyDate(t *testing.T) {
	testdate.RunAtOtherDates(t, "^TestREQ_CMP_005_(CacheHitPerOrigin|TTLExpiry|LRUEviction|ContextEndIsNotCached|ConcurrentCallsReadOnce|Waiter.*|OverHTTP|StatusTable|RedirectChains)$")
}
