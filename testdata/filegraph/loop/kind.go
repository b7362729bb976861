package loop

// kind is declared here; its method lives in name.go.
type kind int

func describe(k kind) string { return k.name() }
