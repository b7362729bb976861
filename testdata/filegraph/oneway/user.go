package oneway

// use reads base's field and calls its method, both declared in base.go.
func use(b base) int { return b.n + b.get() }

// top is used by nothing in base.go, so the uses go one way.
func top() int { return use(base{}) }
