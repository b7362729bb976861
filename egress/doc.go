// Package egress decides who rypsok may connect to. It holds the two
// profiles of the external design §8: the engine profile (HTTPS to the
// configured host only) and the agent-directed profile (globally routable
// unicast destinations only, judged on every address actually connected to),
// the HTTP clients that enforce them, the trust roots, and the bounded
// reading of response bodies.
//
// It must never let a caller's input weaken a rule, never use an environment
// proxy, and never connect to an address it has not judged.
package egress
