// Package safety is toolgate's enforcement engine: the safety-profile model, its defaults and
// built-ins, precedence resolution with provenance, a canonical hash of an effective profile, exact
// money, and the ordered checks that admit, ask about or deny one tool call.
//
// The package is pure: no I/O, no Kubernetes imports, no package-level mutable state. Controllers
// and webhooks gather trusted facts, call [Compile] once when a plan's snapshot is locked and
// [Evaluate] once per call, and write the result. Time enters only through the [Clock] given to a
// [LoopDetector].
//
// The check order, the error types and their reason codes are described in docs/engine.md.
package safety
