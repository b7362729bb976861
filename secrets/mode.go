package secrets

import "strconv"

// Mode is what happens when the check finds a credential (LIM-P1).
type Mode int

// The four modes; Refuse is the default.
const (
	Refuse Mode = iota // the call is denied, naming the kind and position
	Mask               // each finding is replaced by [redacted], with a notice
	Warn               // the call proceeds unchanged; a log event and a counter
	Off                // no scan
)

// ParseMode reads "refuse", "mask", "warn" or "off" (exactly these words,
// lower case). Any other text gives Refuse and false.
func ParseMode(s string) (Mode, bool) {
	for m := Refuse; m <= Off; m++ {
		if s == m.String() {
			return m, true
		}
	}
	return Refuse, false
}

// String returns the configuration word of m, or "Mode(n)" for a value
// outside the four modes.
func (m Mode) String() string {
	switch m {
	case Refuse:
		return "refuse"
	case Mask:
		return "mask"
	case Warn:
		return "warn"
	case Off:
		return "off"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}
