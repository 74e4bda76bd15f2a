package safety

import "errors"

// Reason codes travel to the agent in the admission response (Status.Details.Causes[].Type and a
// "[Reason]" message prefix). They are part of the API: never rename one.
const (
	// ReasonToolAccessDenied is the reason of a [ToolAccessDeniedError].
	ReasonToolAccessDenied = "ToolAccessDenied"
	// ReasonToolCheckpointRequired is the reason of a [ToolCheckpointRequiredError].
	ReasonToolCheckpointRequired = "ToolCheckpointRequired"
	// ReasonToolSafetyViolation is the reason of a [ToolSafetyViolationError].
	ReasonToolSafetyViolation = "ToolSafetyViolation"
	// ReasonToolSandboxRequired is the reason of a [ToolSandboxRequiredError].
	ReasonToolSandboxRequired = "ToolSandboxRequired"
	// ReasonToolHumanApprovalRequired is the reason of a [ToolHumanApprovalRequiredError].
	ReasonToolHumanApprovalRequired = "ToolHumanApprovalRequired"
	// ReasonToolCostLimitExceeded is the reason of a [ToolCostLimitExceededError].
	ReasonToolCostLimitExceeded = "ToolCostLimitExceeded"
	// ReasonToolRetryLimitExceeded is the reason of a [ToolRetryLimitExceededError].
	ReasonToolRetryLimitExceeded = "ToolRetryLimitExceeded"
	// ReasonToolLoopDetected is the reason of a [ToolLoopDetectedError].
	ReasonToolLoopDetected = "ToolLoopDetected"
)

// Rule identifiers name the exact rule that decided, finer than the reason code. Damage-control
// rules and path-policy kinds add their own identifiers with the prefixes below.
const (
	RuleReadOnlyPlan        = "read-only-plan"             // a writing tool or write in a read-only plan
	RuleReadOnlyProfile     = "read-only-profile"          // a writing tool or write under a read-only profile
	RuleDenyList            = "deny-list"                  // the tool matches DeniedTools
	RuleAllowList           = "allow-list"                 // the tool matches no AllowedTools pattern
	RuleRequireCheckpoints  = "require-checkpoints"        // a writing tool that cannot checkpoint
	RuleUnsafeTool          = "unsafe-tool"                // an unsafe tool without AllowUnsafeTools
	RuleSkillCategory       = "skill-category"             // the tool's category is not allowed
	RuleNoSkillCategory     = "no-skill-category"          // the tool has no category while categories are restricted
	RuleRequireSandbox      = "require-sandbox"            // a writing tool without a sandbox id
	RuleHumanApproval       = "require-human-approval"     // the profile requires approval and none was granted
	RuleMaxCostPerPlan      = "max-cost-per-plan"          // the plan's cost reached its limit
	RuleMaxTotalCost        = "max-total-cost"             // the total cost reached its limit
	RuleMaxRetriesPerStep   = "max-retries-per-step"       // the step was retried too often
	RuleCommandUnparseable  = "command-unparseable"        // the command cannot be parsed
	RuleCommandTooLong      = "command-too-long"           // the command exceeds MaxCommandBytes
	RuleCommandTooComplex   = "command-too-complex"        // too deeply nested, too many commands or words
	RuleCommandControlChars = "command-control-characters" // control characters other than tab and newline
	RulePathInvalid         = "path-invalid"               // a path argument that is too long or has control characters
	RuleDynamicCommand      = "dynamic-command"            // a command name computed at run time
	RuleDynamicWriteTarget  = "dynamic-write-target"       // a write to a path computed at run time
	RuleDynamicPath         = "dynamic-path"               // a read or delete of a path computed at run time
	RuleOpaqueCode          = "opaque-code"                // a command runs code the engine cannot see
	RuleUnresolvedWord      = "unresolved-word"            // a glob or run-time value where the program, subcommand or an option goes
	RuleContainsProtected   = "contains-protected"         // a recursive copy or archive of a project directory
	RuleUnknownWriter       = "unknown-writer"             // an unrecognised program given a path noWrite, readOnly or noDelete protects
	RuleForkBomb            = "fork-bomb"                  // a function that calls itself
	RuleLibraryInjection    = "library-injection"          // LD_PRELOAD and similar loader or interpreter hooks
	RuleWriteRoot           = "write-root"                 // a write outside the write roots
	RuleWriteRootExecute    = "write-root-execute"         // an execute or dispatch call under write-root confinement
	RuleGitDestructive      = "git-destructive"            // a tool the registry classifies git_destructive
	RuleLoopDetected        = "loop-detected"              // the same call repeated beyond the threshold
	RulePolicyMissing       = "policy-missing"             // Evaluate was given no policy
	RulePrefixDamageControl = "damage-control:"            // + the id of a damage-control rule
	RulePrefixPathPolicy    = "path-policy:"               // + zeroAccess, readOnly, noWrite or noDelete
	RulePrefixAutonomy      = "autonomy:"                  // + the class, execute-unrecognized or read-outside-workspace
)

// ErrToolRuntime is the root of the error hierarchy of the spec (ToolRuntimeError): every typed
// error of this package matches it with errors.Is.
var ErrToolRuntime = errors.New("tool runtime error")

// Violation is the payload every typed enforcement error carries.
type Violation struct {
	// Tool is the name of the tool the call asked for.
	Tool string
	// RuleID names the rule that decided, e.g. "deny-list" or "damage-control:git-push-force".
	RuleID string
	// Message is the human-readable explanation; it is also the error string.
	Message string
}

// Error returns the message.
func (v *Violation) Error() string { return v.Message }

// Rule returns the identifier of the rule that decided.
func (v *Violation) Rule() string { return v.RuleID }

// Is makes every typed error match [ErrToolRuntime].
func (v *Violation) Is(target error) bool { return target == ErrToolRuntime }

// ReasonedError is implemented by every typed enforcement error.
type ReasonedError interface {
	error
	// Reason is the stable reason code, one of the Reason* constants.
	Reason() string
	// Rule names the rule that decided.
	Rule() string
}

// ToolAccessDeniedError reports a read-only plan or profile, a deny-list or allow-list miss, a
// path-policy block or a write-root escape.
type ToolAccessDeniedError struct{ Violation }

// Reason returns [ReasonToolAccessDenied].
func (*ToolAccessDeniedError) Reason() string { return ReasonToolAccessDenied }

// ToolCheckpointRequiredError reports a writing tool that cannot checkpoint while checkpoints are
// required.
type ToolCheckpointRequiredError struct{ Violation }

// Reason returns [ReasonToolCheckpointRequired].
func (*ToolCheckpointRequiredError) Reason() string { return ReasonToolCheckpointRequired }

// ToolSafetyViolationError reports an unsafe tool, a skill-category violation, a damage-control
// block or a command that cannot be checked.
type ToolSafetyViolationError struct{ Violation }

// Reason returns [ReasonToolSafetyViolation].
func (*ToolSafetyViolationError) Reason() string { return ReasonToolSafetyViolation }

// ToolSandboxRequiredError reports a writing tool without a sandbox while one is required.
type ToolSandboxRequiredError struct{ Violation }

// Reason returns [ReasonToolSandboxRequired].
func (*ToolSandboxRequiredError) Reason() string { return ReasonToolSandboxRequired }

// ToolHumanApprovalRequiredError reports a call that needs a person: the profile requires
// approval, or an argument rule asked. RuleID names the rule that asked.
type ToolHumanApprovalRequiredError struct{ Violation }

// Reason returns [ReasonToolHumanApprovalRequired].
func (*ToolHumanApprovalRequiredError) Reason() string { return ReasonToolHumanApprovalRequired }

// ToolCostLimitExceededError reports a plan or total cost at or above its limit.
type ToolCostLimitExceededError struct{ Violation }

// Reason returns [ReasonToolCostLimitExceeded].
func (*ToolCostLimitExceededError) Reason() string { return ReasonToolCostLimitExceeded }

// ToolRetryLimitExceededError reports a step retried more often than the profile allows.
type ToolRetryLimitExceededError struct{ Violation }

// Reason returns [ReasonToolRetryLimitExceeded].
func (*ToolRetryLimitExceededError) Reason() string { return ReasonToolRetryLimitExceeded }

// ToolLoopDetectedError reports the same call repeated beyond the loop threshold within the window.
type ToolLoopDetectedError struct{ Violation }

// Reason returns [ReasonToolLoopDetected].
func (*ToolLoopDetectedError) Reason() string { return ReasonToolLoopDetected }

// ReasonOf returns the reason code of a typed enforcement error anywhere in err's chain, or "".
func ReasonOf(err error) string {
	if r, ok := errors.AsType[ReasonedError](err); ok {
		return r.Reason()
	}
	return ""
}

// errKind selects the typed error a failed check produces; kept as a small enum so a check names
// the error without building it: the error is made once, when the Decision is.
type errKind uint8

const (
	kindNone errKind = iota
	kindAccessDenied
	kindCheckpointRequired
	kindSafetyViolation
	kindSandboxRequired
	kindHumanApprovalRequired
	kindCostLimitExceeded
	kindRetryLimitExceeded
	kindLoopDetected
)

func (k errKind) newError(tool, rule, msg string) error {
	v := Violation{Tool: tool, RuleID: rule, Message: msg}
	switch k {
	case kindAccessDenied:
		return &ToolAccessDeniedError{v}
	case kindCheckpointRequired:
		return &ToolCheckpointRequiredError{v}
	case kindSafetyViolation:
		return &ToolSafetyViolationError{v}
	case kindSandboxRequired:
		return &ToolSandboxRequiredError{v}
	case kindHumanApprovalRequired:
		return &ToolHumanApprovalRequiredError{v}
	case kindCostLimitExceeded:
		return &ToolCostLimitExceededError{v}
	case kindRetryLimitExceeded:
		return &ToolRetryLimitExceededError{v}
	case kindLoopDetected:
		return &ToolLoopDetectedError{v}
	}
	return nil
}

func (k errKind) reason() string {
	switch k {
	case kindAccessDenied:
		return ReasonToolAccessDenied
	case kindCheckpointRequired:
		return ReasonToolCheckpointRequired
	case kindSafetyViolation:
		return ReasonToolSafetyViolation
	case kindSandboxRequired:
		return ReasonToolSandboxRequired
	case kindHumanApprovalRequired:
		return ReasonToolHumanApprovalRequired
	case kindCostLimitExceeded:
		return ReasonToolCostLimitExceeded
	case kindRetryLimitExceeded:
		return ReasonToolRetryLimitExceeded
	case kindLoopDetected:
		return ReasonToolLoopDetected
	}
	return ""
}
