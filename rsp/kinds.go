package rsp

// Family is a family of findings of rypsok's own plugins. Its Severity is
// the one table they share, so that `rypsok rsp secrets`, the gitleaks
// adapter and the injection plugin weigh the same finding the same way.
type Family int

// The families of findings.
const (
	// Credential is a secret value: every kind of package secrets
	// (`rypsok rsp secrets`) and every gitleaks rule (the adapter).
	Credential Family = iota + 1
	// InstructionLike is text that reads as instructions to a model (the
	// injection plugin).
	InstructionLike
)

// Severity is f's severity: critical for a credential, because a leaked
// one cannot be taken back (and the reference's gitleaks role says so);
// high for instruction-like text, which is judged by a heuristic.
func (f Family) Severity() Severity {
	switch f {
	case Credential:
		return Critical
	case InstructionLike:
		return High
	}
	return ""
}
