package safety

// ReasonToolArgumentRuleViolated is the reason of a [ToolArgumentRuleViolatedError]: a project's
// argument rule (CEL, internal/argrules) was false for the call, or could not be evaluated.
const ReasonToolArgumentRuleViolated = "ToolArgumentRuleViolated"

// RulePrefixArgumentRule prefixes the name of the argument rule that decided.
const RulePrefixArgumentRule = "argument-rule:"

// ToolArgumentRuleViolatedError reports a call whose arguments a project's argument rule refused:
// the rule was false, or its evaluation failed (a missing key, a type mismatch, the cost limit),
// which denies too.
type ToolArgumentRuleViolatedError struct{ Violation }

// Reason returns [ReasonToolArgumentRuleViolated].
func (*ToolArgumentRuleViolatedError) Reason() string { return ReasonToolArgumentRuleViolated }
