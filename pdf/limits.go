package pdf

// limits.go holds the bounds of a reading and their defaults.

// Limits bound the work of reading one document. Zero fields take the
// defaults of DefaultLimits.
type Limits struct {
	MaxDecodedBytes int64 // bytes out of all filters together, per document
	MaxStreamBytes  int64 // bytes out of the filters of one stream
	MaxObjects      int   // indirect objects parsed
	MaxDepth        int   // object nesting, reference chains, page-tree depth
	MaxOperators    int   // content-stream operators per page (Form XObjects included)
	MaxPages        int   // pages read
	// MaxChars stops reading pages once the text written holds more than
	// this many characters (0: read every page). A caller that shows a
	// window of the text passes its end plus one, so it learns whether more
	// remains without reading the rest.
	MaxChars int
}

// DefaultLimits are the defaults of the limits table.
func DefaultLimits() Limits {
	return Limits{
		MaxDecodedBytes: 64 << 20,
		MaxStreamBytes:  8 << 20,
		MaxObjects:      200000,
		MaxDepth:        64,
		MaxOperators:    1000000,
		MaxPages:        2000,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxDecodedBytes <= 0 {
		l.MaxDecodedBytes = d.MaxDecodedBytes
	}
	if l.MaxStreamBytes <= 0 {
		l.MaxStreamBytes = d.MaxStreamBytes
	}
	if l.MaxObjects <= 0 {
		l.MaxObjects = d.MaxObjects
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxOperators <= 0 {
		l.MaxOperators = d.MaxOperators
	}
	if l.MaxPages <= 0 {
		l.MaxPages = d.MaxPages
	}
	return l
}
