package config

// format.go writes values as the report and the section lines show them.

import (
	"strconv"
	"time"
)

func onOff(b bool) string { return strconv.FormatBool(b) }

func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }
