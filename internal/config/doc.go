// Package config is the configuration of the rypsok binary: its schema (every
// key, default, range, dependent range and message) and the report that
// `rypsok check` prints.
//
// config.go and the section files beside it (metrics.go, rsp.go) are the
// only code that knows the configuration's key names. They read a tomlx
// document through the primitives of section.go into the types of
// settings.go, check every key against its type and range (the
// limits table of the book), resolve secrets by reference, and build the
// settings of each package. Every message names its key and place and never
// repeats a value from the file.
package config
