// Package config is the configuration of the rypsok binary: its schema (every
// key, default, range, dependent range and message) and the report that
// `rypsok check` prints.
//
// config.go is the only code that knows the configuration's key names. It
// reads a tomlx document, checks every key against its type and range (the
// limits table of the book), resolves secrets by reference, and builds the
// settings of each package. Every message names its key and place and never
// repeats a value from the file.
package config
