// Package argrules checks a call's arguments against a project's argument rules: CEL expressions
// over the tool's JSON arguments (spec.arguments.extra) and its command, paths and working
// directory. It is pure (no I/O, no Kubernetes): rules are compiled once per locked snapshot,
// with an estimated cost limit at compile time and a runtime cost limit per evaluation, as
// Kubernetes' ValidatingAdmissionPolicy does, and an evaluation that fails for any reason denies.
//
// It also owns the one decoder of the arguments themselves (ParseExtra): bounded in size, depth
// and number of values, refusing duplicate keys and respelled keys, so every front door and the
// webhook agree on what an agent sent.
package argrules
