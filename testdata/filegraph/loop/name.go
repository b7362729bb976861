package loop

// name is a method on kind (declared in kind.go): declaring it uses kind.go,
// and describe in kind.go calls it, which closes the loop.
func (k kind) name() string { return "kind" }
