// Package scenarios is the one table of spec/safety-profile-enforcement.feature: each scenario as
// data, in the spec's own terms. The engine's test (internal/safety) evaluates every scenario with
// Evaluate; the plugin's equivalence test (cmd/kubectl-toolgate) expresses every scenario as
// cluster objects, submits the call through the API server and runs `kubectl toolgate test` on the
// same objects. Both read this table, so a scenario added here is checked everywhere.
//
// The package is plain data and imports nothing of toolgate: internal/safety's own tests import
// it, so it cannot import internal/safety. Reason codes are strings here; the engine's test checks
// that each one is the engine's constant of the same name.
package scenarios

// ToolRole names one of the three tools of the feature's Background.
type ToolRole string

const (
	// Writer is "test/writer": it writes, is safe and cannot checkpoint.
	Writer ToolRole = "writer"
	// UnsafeTool is "test/unsafe-tool": unsafe, it does not write.
	UnsafeTool ToolRole = "unsafe-tool"
	// Reader is "test/reader": read-only and safe.
	Reader ToolRole = "reader"
)

// Tool is a registered tool of the Background.
type Tool struct {
	Role           ToolRole
	Writes         bool
	Unsafe         bool
	Checkpointable bool
}

// Background lists the tools the feature registers, in the feature's order.
var Background = []Tool{
	{Role: Writer, Writes: true},
	{Role: UnsafeTool, Unsafe: true},
	{Role: Reader},
}

// SpecName is the tool's name in the feature: "test/" and the role.
func (r ToolRole) SpecName() string { return "test/" + string(r) }

// ToolOf returns the Background's tool for a role.
func ToolOf(r ToolRole) Tool {
	for _, t := range Background {
		if t.Role == r {
			return t
		}
	}
	panic("scenarios: no Background tool " + string(r))
}

// Reason codes the scenarios expect; each is the engine's constant of the same name.
const (
	ReasonToolAccessDenied          = "ToolAccessDenied"
	ReasonToolCheckpointRequired    = "ToolCheckpointRequired"
	ReasonToolSafetyViolation       = "ToolSafetyViolation"
	ReasonToolSandboxRequired       = "ToolSandboxRequired"
	ReasonToolHumanApprovalRequired = "ToolHumanApprovalRequired"
	ReasonToolCostLimitExceeded     = "ToolCostLimitExceeded"
	ReasonToolRetryLimitExceeded    = "ToolRetryLimitExceeded"
)

// Built-in profile names, as the engine and the operator name them.
const (
	BuiltinUnrestricted = "unrestricted"
	BuiltinReadOnly     = "read-only"
	BuiltinSandboxed    = "sandboxed"
)

// Profile is "a safety profile with X": a profile in which only X restricts (DESIGN.md), that is
// the engine's zero profile — no sandbox, checkpoint or approval requirement, no limits, unsafe
// tools denied — with the fields set here. Builtin names a built-in profile instead, used as it is.
type Profile struct {
	// Builtin names a built-in profile; the other fields are then unused.
	Builtin string

	AllowUnsafeTools     bool
	RequireCheckpoints   bool
	RequireSandbox       bool
	RequireHumanApproval bool
	// AllowedSkillCategories: nil is "no allow-list", an empty list the feature's "empty
	// allowed_skill_categories"; both allow every category.
	AllowedSkillCategories []string
	// AllowedTools and DeniedTools name tools of the Background by role.
	AllowedTools []ToolRole
	DeniedTools  []ToolRole
	// MaxCostPerPlan and MaxTotalCost are exact decimal amounts; "" is no limit.
	MaxCostPerPlan string
	MaxTotalCost   string
	// MaxRetriesPerStep is the retry limit; nil is no limit.
	MaxRetriesPerStep *int32
}

// Context is the scenario's tool execution context: the facts about the plan and the step.
type Context struct {
	ReadOnlyPlan       bool
	RequireCheckpoints bool
	SandboxID          string
	HumanApproved      bool
	// AccumulatedCost is the plan's cost so far and TotalCost the total accumulated cost; "" is 0.
	AccumulatedCost string
	TotalCost       string
	// StepRetryCount is how often the step was retried before this call.
	StepRetryCount int32
}

// Scenario is one scenario of the feature.
type Scenario struct {
	// Name is the scenario's title in the feature file.
	Name string
	// Profile is the context's safety profile; nil is "a context without a safety profile".
	Profile *Profile
	Context Context
	// Tool is the tool the scenario runs.
	Tool ToolRole
	// SkillCategory is the tool's skill category; nil is "no skill category metadata".
	SkillCategory *string
	// Want is the reason code the scenario expects; "" means the tool execution succeeds.
	Want string
	// Phrases are what the error must mention.
	Phrases []string
}

// Feature is every scenario of spec/safety-profile-enforcement.feature, in the file's order.
//
//nolint:goconst // the feature's literal values, repeated as the feature repeats them
var Feature = []Scenario{
	// ---- Unsafe tool gating ----
	{Name: "Unsafe tool is blocked when safety profile forbids unsafe tools",
		Profile: &Profile{AllowUnsafeTools: false}, Tool: UnsafeTool,
		Want: ReasonToolSafetyViolation, Phrases: []string{"unsafe"}},
	{Name: "Unsafe tool is allowed when safety profile permits unsafe tools",
		Profile: &Profile{AllowUnsafeTools: true}, Tool: UnsafeTool},
	{Name: "Safe tool is allowed regardless of allow_unsafe_tools setting",
		Profile: &Profile{AllowUnsafeTools: false}, Tool: Reader},

	// ---- Skill category enforcement ----
	{Name: "Tool blocked when skill category not in allow-list",
		Profile: &Profile{AllowedSkillCategories: []string{"code", "test"}}, Tool: Reader, SkillCategory: new("deploy"),
		Want: ReasonToolSafetyViolation, Phrases: []string{"deploy", "not in the allowed"}},
	{Name: "Tool allowed when skill category is in allow-list",
		Profile: &Profile{AllowedSkillCategories: []string{"code", "test"}}, Tool: Reader, SkillCategory: new("code")},
	{Name: "All categories allowed when allow-list is empty",
		Profile: &Profile{AllowedSkillCategories: []string{}}, Tool: Reader, SkillCategory: new("anything")},

	// ---- Checkpoint requirement from safety profile ----
	{Name: "Non-checkpointable tool blocked when safety profile requires checkpoints",
		Profile: &Profile{RequireCheckpoints: true}, Context: Context{RequireCheckpoints: false}, Tool: Writer,
		Want: ReasonToolCheckpointRequired, Phrases: []string{"require_checkpoints"}},
	{Name: "Non-checkpointable tool allowed when safety profile does not require checkpoints",
		Profile: &Profile{RequireCheckpoints: false}, Context: Context{RequireCheckpoints: false}, Tool: Writer},

	// ---- Context without safety profile (backward compatibility) ----
	{Name: "Unsafe tool allowed when no safety profile on context", Tool: UnsafeTool},
	{Name: "Enforcement still applies read-only checks without safety profile",
		Context: Context{ReadOnlyPlan: true}, Tool: Writer,
		Want: ReasonToolAccessDenied, Phrases: []string{"read-only"}},

	// ---- Sandbox requirement ----
	{Name: "Writing tool blocked when sandbox required but no sandbox_id",
		Profile: &Profile{RequireSandbox: true}, Tool: Writer,
		Want: ReasonToolSandboxRequired, Phrases: []string{"require_sandbox"}},
	{Name: "Writing tool allowed when sandbox required and sandbox_id set",
		Profile: &Profile{RequireSandbox: true}, Context: Context{SandboxID: "sandbox-001"}, Tool: Writer},
	{Name: "Writing tool allowed when sandbox not required and no sandbox_id",
		Profile: &Profile{RequireSandbox: false}, Tool: Writer},
	{Name: "Read-only tool allowed when sandbox required but no sandbox_id",
		Profile: &Profile{RequireSandbox: true}, Tool: Reader},

	// ---- Human approval requirement ----
	{Name: "Tool blocked when human approval required but not granted",
		Profile: &Profile{RequireHumanApproval: true}, Tool: Reader,
		Want: ReasonToolHumanApprovalRequired, Phrases: []string{"human approval"}},
	{Name: "Tool allowed when human approval required and granted",
		Profile: &Profile{RequireHumanApproval: true}, Context: Context{HumanApproved: true}, Tool: Reader},
	{Name: "Tool allowed when human approval not required",
		Profile: &Profile{RequireHumanApproval: false}, Tool: Reader},

	// ---- Cost limit enforcement ----
	{Name: "Tool blocked when accumulated cost exceeds max_cost_per_plan",
		Profile: &Profile{MaxCostPerPlan: "10.0"}, Context: Context{AccumulatedCost: "10.0"}, Tool: Reader,
		Want: ReasonToolCostLimitExceeded, Phrases: []string{"max_cost_per_plan"}},
	{Name: "Tool allowed when accumulated cost is below max_cost_per_plan",
		Profile: &Profile{MaxCostPerPlan: "10.0"}, Context: Context{AccumulatedCost: "5.0"}, Tool: Reader},
	{Name: "Tool blocked when total cost exceeds max_total_cost",
		Profile: &Profile{MaxTotalCost: "100.0"}, Context: Context{TotalCost: "100.0"}, Tool: Reader,
		Want: ReasonToolCostLimitExceeded, Phrases: []string{"max_total_cost"}},

	// ---- Retry limit enforcement ----
	{Name: "Tool blocked when retry count exceeds max_retries_per_step",
		Profile: &Profile{MaxRetriesPerStep: new(int32(3))}, Context: Context{StepRetryCount: 4}, Tool: Reader,
		Want: ReasonToolRetryLimitExceeded, Phrases: []string{"max_retries_per_step"}},
	{Name: "Tool allowed when retry count is within max_retries_per_step",
		Profile: &Profile{MaxRetriesPerStep: new(int32(3))}, Context: Context{StepRetryCount: 2}, Tool: Reader},

	// ---- Missing skill category metadata ----
	{Name: "Tool blocked when skill category metadata missing and allow-list set",
		Profile: &Profile{AllowedSkillCategories: []string{"code", "test"}}, Tool: Reader,
		Want: ReasonToolSafetyViolation, Phrases: []string{"no skill category"}},

	// ---- Combined constraints ----
	{Name: "Multiple safety violations reported for first failing check",
		Profile: &Profile{AllowUnsafeTools: false, AllowedSkillCategories: []string{"code"}},
		Tool:    UnsafeTool, SkillCategory: new("deploy"),
		Want: ReasonToolSafetyViolation, Phrases: []string{"unsafe"}},

	// ---- Tool allow-list enforcement ----
	{Name: "Tool blocked when not on allow-list",
		Profile: &Profile{AllowedTools: []ToolRole{Reader}}, Tool: Writer,
		Want: ReasonToolAccessDenied, Phrases: []string{"allow-list"}},
	{Name: "Tool allowed when on allow-list",
		Profile: &Profile{AllowedTools: []ToolRole{Reader, Writer}}, Tool: Reader},
	{Name: "All tools allowed when allow-list is empty",
		Profile: &Profile{AllowedTools: []ToolRole{}}, Tool: Writer},

	// ---- Tool deny-list enforcement ----
	{Name: "Tool blocked when on deny-list",
		Profile: &Profile{DeniedTools: []ToolRole{Writer}}, Tool: Writer,
		Want: ReasonToolAccessDenied, Phrases: []string{"deny-list"}},
	{Name: "Tool allowed when not on deny-list",
		Profile: &Profile{DeniedTools: []ToolRole{UnsafeTool}}, Tool: Reader},
	{Name: "Deny-list takes precedence over allow-list",
		Profile: &Profile{AllowedTools: []ToolRole{Writer}, DeniedTools: []ToolRole{Writer}}, Tool: Writer,
		Want: ReasonToolAccessDenied, Phrases: []string{"deny-list"}},

	// ---- Built-in safety profiles ----
	{Name: "Unrestricted built-in profile allows unsafe tools",
		Profile: &Profile{Builtin: BuiltinUnrestricted}, Tool: UnsafeTool},
	{Name: "Read-only built-in profile blocks unsafe tools",
		Profile: &Profile{Builtin: BuiltinReadOnly}, Tool: UnsafeTool,
		Want: ReasonToolSafetyViolation, Phrases: []string{"unsafe"}},
	{Name: "Sandboxed built-in profile requires checkpoints",
		Profile: &Profile{Builtin: BuiltinSandboxed}, Context: Context{RequireCheckpoints: false}, Tool: Writer,
		Want: ReasonToolCheckpointRequired},
}
