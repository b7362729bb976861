package testdate

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
	"time"
)

// envEpoch carries the epoch to the re-executed test binary.
const envEpoch = "RYPSOK_TEST_EPOCH"

// Dates are the epochs the cases are run again at: one long past, one far
// ahead.
var dates = [...]string{"2020-02-29T23:59:30Z", "2040-07-01T00:00:00Z"}

// Epoch is the instant fake clocks start at: def, or the date a
// re-execution by RunAtOtherDates was given.
func Epoch(def time.Time) time.Time {
	if v := os.Getenv(envEpoch); v != "" {
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			return t
		}
	}
	return def
}

// Moved reports whether this process is a re-execution at another date.
func Moved() bool { return os.Getenv(envEpoch) != "" }

// RunAtOtherDates runs the tests of the current package that match the
// regular expression run once per date, each in a fresh process, and fails
// t with that process's output when any of them fails there.
func RunAtOtherDates(t *testing.T, run string) {
	t.Helper()
	if Moved() {
		return // the re-executed binary must not recurse
	}
	for _, d := range dates {
		t.Run(d[:4], func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", run, "-test.count=1")
			cmd.Env = append(os.Environ(), envEpoch+"="+d)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("with the fake clocks at %s: %v\n%s", d, err, out)
			}
			if bytes.Contains(out, []byte("no tests to run")) {
				t.Fatalf("with the fake clocks at %s: %q matched no test", d, run)
			}
		})
	}
}
