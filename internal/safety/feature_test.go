package safety

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// featureScenario is one scenario of spec/safety-profile-enforcement.feature (a copy lives in
// testdata). "A safety profile with X" is a profile in which only X restricts (DESIGN.md); the
// built-in scenarios use the built-ins as they are.
type featureScenario struct {
	name    string
	profile *Profile // nil: a context without a safety profile
	ctx     Context
	tool    Tool
	want    string // reason code; "" means the tool execution succeeds
	phrases []string
}

func builtin(name string) *Profile {
	p, ok := Builtin(name)
	if !ok {
		panic(name)
	}
	return p
}

func withCategory(t Tool, c string) Tool {
	t.SkillCategory, t.HasSkillCategory = c, true
	return t
}

var featureScenarios = []featureScenario{
	// Unsafe tool gating
	{name: "Unsafe tool is blocked when safety profile forbids unsafe tools",
		profile: &Profile{AllowUnsafeTools: false}, tool: toolUnsafe, want: ReasonToolSafetyViolation, phrases: []string{"unsafe"}},
	{name: "Unsafe tool is allowed when safety profile permits unsafe tools",
		profile: &Profile{AllowUnsafeTools: true}, tool: toolUnsafe},
	{name: "Safe tool is allowed regardless of allow_unsafe_tools setting",
		profile: &Profile{AllowUnsafeTools: false}, tool: toolReader},
	// Skill category enforcement
	{name: "Tool blocked when skill category not in allow-list",
		profile: &Profile{AllowedSkillCategories: []string{"code", "test"}}, tool: withCategory(toolReader, "deploy"),
		want: ReasonToolSafetyViolation, phrases: []string{"deploy", "not in the allowed"}},
	{name: "Tool allowed when skill category is in allow-list",
		profile: &Profile{AllowedSkillCategories: []string{"code", "test"}}, tool: withCategory(toolReader, "code")},
	{name: "All categories allowed when allow-list is empty",
		profile: &Profile{AllowedSkillCategories: []string{}}, tool: withCategory(toolReader, "anything")},
	// Checkpoint requirement from safety profile
	{name: "Non-checkpointable tool blocked when safety profile requires checkpoints",
		profile: &Profile{RequireCheckpoints: true}, ctx: Context{RequireCheckpoints: false}, tool: toolWriter,
		want: ReasonToolCheckpointRequired, phrases: []string{"require_checkpoints"}},
	{name: "Non-checkpointable tool allowed when safety profile does not require checkpoints",
		profile: &Profile{RequireCheckpoints: false}, ctx: Context{RequireCheckpoints: false}, tool: toolWriter},
	// Context without safety profile (backward compatibility)
	{name: "Unsafe tool allowed when no safety profile on context", tool: toolUnsafe},
	{name: "Enforcement still applies read-only checks without safety profile",
		ctx: Context{ReadOnlyPlan: true}, tool: toolWriter, want: ReasonToolAccessDenied, phrases: []string{"read-only"}},
	// Sandbox requirement
	{name: "Writing tool blocked when sandbox required but no sandbox_id",
		profile: &Profile{RequireSandbox: true}, tool: toolWriter, want: ReasonToolSandboxRequired, phrases: []string{"require_sandbox"}},
	{name: "Writing tool allowed when sandbox required and sandbox_id set",
		profile: &Profile{RequireSandbox: true}, ctx: Context{SandboxID: "sandbox-001"}, tool: toolWriter},
	{name: "Writing tool allowed when sandbox not required and no sandbox_id",
		profile: &Profile{RequireSandbox: false}, tool: toolWriter},
	{name: "Read-only tool allowed when sandbox required but no sandbox_id",
		profile: &Profile{RequireSandbox: true}, tool: toolReader},
	// Human approval requirement
	{name: "Tool blocked when human approval required but not granted",
		profile: &Profile{RequireHumanApproval: true}, tool: toolReader, want: ReasonToolHumanApprovalRequired, phrases: []string{"human approval"}},
	{name: "Tool allowed when human approval required and granted",
		profile: &Profile{RequireHumanApproval: true}, ctx: Context{HumanApproved: true}, tool: toolReader},
	{name: "Tool allowed when human approval not required",
		profile: &Profile{RequireHumanApproval: false}, tool: toolReader},
	// Cost limit enforcement
	{name: "Tool blocked when accumulated cost exceeds max_cost_per_plan",
		profile: &Profile{MaxCostPerPlan: money("10.0")}, ctx: Context{AccumulatedCost: MustParseMoney("10.0")}, tool: toolReader,
		want: ReasonToolCostLimitExceeded, phrases: []string{"max_cost_per_plan"}},
	{name: "Tool allowed when accumulated cost is below max_cost_per_plan",
		profile: &Profile{MaxCostPerPlan: money("10.0")}, ctx: Context{AccumulatedCost: MustParseMoney("5.0")}, tool: toolReader},
	{name: "Tool blocked when total cost exceeds max_total_cost",
		profile: &Profile{MaxTotalCost: money("100.0")}, ctx: Context{TotalCost: MustParseMoney("100.0")}, tool: toolReader,
		want: ReasonToolCostLimitExceeded, phrases: []string{"max_total_cost"}},
	// Retry limit enforcement
	{name: "Tool blocked when retry count exceeds max_retries_per_step",
		profile: &Profile{MaxRetriesPerStep: new(int32(3))}, ctx: Context{StepRetryCount: 4}, tool: toolReader,
		want: ReasonToolRetryLimitExceeded, phrases: []string{"max_retries_per_step"}},
	{name: "Tool allowed when retry count is within max_retries_per_step",
		profile: &Profile{MaxRetriesPerStep: new(int32(3))}, ctx: Context{StepRetryCount: 2}, tool: toolReader},
	// Missing skill category metadata
	{name: "Tool blocked when skill category metadata missing and allow-list set",
		profile: &Profile{AllowedSkillCategories: []string{"code", "test"}}, tool: toolReader,
		want: ReasonToolSafetyViolation, phrases: []string{"no skill category"}},
	// Combined constraints
	{name: "Multiple safety violations reported for first failing check",
		profile: &Profile{AllowUnsafeTools: false, AllowedSkillCategories: []string{"code"}}, tool: withCategory(toolUnsafe, "deploy"),
		want: ReasonToolSafetyViolation, phrases: []string{"unsafe"}},
	// Tool allow-list enforcement
	{name: "Tool blocked when not on allow-list",
		profile: &Profile{AllowedTools: []string{"test/reader"}}, tool: toolWriter, want: ReasonToolAccessDenied, phrases: []string{"allow-list"}},
	{name: "Tool allowed when on allow-list",
		profile: &Profile{AllowedTools: []string{"test/reader", "test/writer"}}, tool: toolReader},
	{name: "All tools allowed when allow-list is empty",
		profile: &Profile{AllowedTools: []string{}}, tool: toolWriter},
	// Tool deny-list enforcement
	{name: "Tool blocked when on deny-list",
		profile: &Profile{DeniedTools: []string{"test/writer"}}, tool: toolWriter, want: ReasonToolAccessDenied, phrases: []string{"deny-list"}},
	{name: "Tool allowed when not on deny-list",
		profile: &Profile{DeniedTools: []string{"test/unsafe-tool"}}, tool: toolReader},
	{name: "Deny-list takes precedence over allow-list",
		profile: &Profile{AllowedTools: []string{"test/writer"}, DeniedTools: []string{"test/writer"}}, tool: toolWriter,
		want: ReasonToolAccessDenied, phrases: []string{"deny-list"}},
	// Built-in safety profiles
	{name: "Unrestricted built-in profile allows unsafe tools", profile: builtin(BuiltinUnrestricted), tool: toolUnsafe},
	{name: "Read-only built-in profile blocks unsafe tools", profile: builtin(BuiltinReadOnly), tool: toolUnsafe,
		want: ReasonToolSafetyViolation, phrases: []string{"unsafe"}},
	{name: "Sandboxed built-in profile requires checkpoints", profile: builtin(BuiltinSandboxed), ctx: Context{RequireCheckpoints: false},
		tool: toolWriter, want: ReasonToolCheckpointRequired},
}

func TestFeatureScenarios(t *testing.T) {
	for _, sc := range featureScenarios {
		t.Run(sc.name, func(t *testing.T) {
			p := mustCompile(t, sc.profile, ProjectRules{})
			d := Evaluate(p, Call{Tool: sc.tool, Context: sc.ctx})
			checkDecision(t, d, sc.want, sc.phrases...)
		})
	}
}

// TestEveryFeatureScenarioIsCovered keeps the table honest: each scenario title of the feature
// file is a case above, and nothing else is.
func TestEveryFeatureScenarioIsCovered(t *testing.T) {
	f, err := os.Open("testdata/safety-profile-enforcement.feature")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var titles []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "Scenario:") {
			titles = append(titles, strings.TrimSpace(strings.TrimPrefix(line, "Scenario:")))
		}
	}
	have := map[string]int{}
	for _, s := range featureScenarios {
		have[s.name]++
	}
	for _, title := range titles {
		if have[title] != 1 {
			t.Errorf("scenario %q has %d test cases, want 1", title, have[title])
		}
		delete(have, title)
	}
	for name := range have {
		t.Errorf("test case %q is not a scenario of the feature file", name)
	}
	if len(titles) != 33 {
		t.Errorf("feature file has %d scenarios, this table was written for 33", len(titles))
	}
}
