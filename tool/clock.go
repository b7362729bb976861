package tool

import "time"

// This file is the only one in tool that reads the system clock.

// wallClock stamps a log record that reached the handler without a time
// (slog's Logger always sets one; a handler called directly may not).
func wallClock() time.Time { return time.Now() }
