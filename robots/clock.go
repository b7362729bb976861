package robots

import "time"

// This file is the only one in robots that reads the system clock: every
// other reading of time goes through the injected clock, so tests can pin
// it to any date.

// clockOr is now, or the system clock when now is nil.
func clockOr(now func() time.Time) func() time.Time {
	if now != nil {
		return now
	}
	return time.Now
}
