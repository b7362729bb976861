// Package testdate lets a package's tests prove they pass on any date.
//
// A package's fake clocks start at Epoch(...). RunAtOtherDates re-executes
// the package's own test binary with the epoch moved far into the past and
// far into the future, running the time-dependent cases again: a case that
// mixes the fake clock with the system clock passes on the day it was
// written and fails at one of the other dates. Only tests import this.
package testdate
