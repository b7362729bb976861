package standin

import "time"

// validFrom is the instant the stand-in's certificate is valid around. It
// is the system clock on purpose: the TLS clients that verify the
// certificate (rypsok's own) check it against the system clock.
func validFrom() time.Time { return time.Now() }
