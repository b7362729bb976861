// Package tomlx parses the subset of TOML 1.0 that rypsok's configuration
// needs, keeping the line and column of every value so that a message can
// name the place.
//
// The subset is all of TOML 1.0 syntax, arrays of mixed kinds included
// (each element keeps its own kind and place, so a reader that wants one
// kind checks every element), with one deliberate difference: floats, dates
// and times are recognised (validated as TOML 1.0 writes them) but carry no
// value, since no setting takes them. Documents are bounded: 1 MiB, lines
// of 64 KiB, 32 levels of arrays and inline tables, 32 parts in a key.
//
// It must never panic, never loop, never take more than linear time, and
// never accept a document it would misread: what it does not support it
// refuses with a message. Its messages never repeat text of the document,
// except the key path of a redefinition.
package tomlx
