package egress

import (
	"context"
	"time"
)

// This file is the only one in egress that reads the system clock. egress
// keeps no instants of its own: the time it divides among addresses is
// what is left of a context's deadline, which contexts keep on the system
// clock.

// remaining is the time left before ctx's deadline; ok is false when ctx
// has none.
func remaining(ctx context.Context) (left time.Duration, ok bool) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return 0, false
	}
	return time.Until(deadline), true
}
