// Package charset decodes the bytes of a fetched page to UTF-8, choosing
// the encoding as a browser does and detecting it when nothing declares it.
//
// The cost is linear in the body and the result is always valid UTF-8;
// labels longer than any registered one and the WHATWG "replacement"
// encodings are ignored rather than trusted.
package charset
