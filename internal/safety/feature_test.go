package safety

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/safety/scenarios"
)

// The scenarios of spec/safety-profile-enforcement.feature (a copy lives in testdata) are one table,
// scenarios.Feature, shared with the plugin's equivalence test. "A safety profile with X" is a
// profile in which only X restricts (DESIGN.md); the built-in scenarios use the built-ins as they are.

// builtin returns a built-in profile; other tests of the package use it too.
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

// engineProfile is a scenario's profile as an engine profile: the zero profile with the scenario's
// restrictions, or a built-in; nil for a context without a safety profile.
func engineProfile(sp *scenarios.Profile) *Profile {
	if sp == nil {
		return nil
	}
	if sp.Builtin != "" {
		return builtin(sp.Builtin)
	}
	p := &Profile{
		AllowUnsafeTools:       sp.AllowUnsafeTools,
		RequireCheckpoints:     sp.RequireCheckpoints,
		RequireSandbox:         sp.RequireSandbox,
		RequireHumanApproval:   sp.RequireHumanApproval,
		AllowedSkillCategories: sp.AllowedSkillCategories,
		AllowedTools:           specNames(sp.AllowedTools),
		DeniedTools:            specNames(sp.DeniedTools),
		MaxRetriesPerStep:      sp.MaxRetriesPerStep,
	}
	if sp.MaxCostPerPlan != "" {
		p.MaxCostPerPlan = money(sp.MaxCostPerPlan)
	}
	if sp.MaxTotalCost != "" {
		p.MaxTotalCost = money(sp.MaxTotalCost)
	}
	return p
}

// specNames keeps nil apart from empty: the feature's "empty allowed_tools" is an empty list.
func specNames(roles []scenarios.ToolRole) []string {
	if roles == nil {
		return nil
	}
	names := make([]string, 0, len(roles))
	for _, r := range roles {
		names = append(names, r.SpecName())
	}
	return names
}

func engineContext(c scenarios.Context) Context {
	ctx := Context{
		ReadOnlyPlan: c.ReadOnlyPlan, RequireCheckpoints: c.RequireCheckpoints, SandboxID: c.SandboxID,
		HumanApproved: c.HumanApproved, StepRetryCount: c.StepRetryCount,
	}
	if c.AccumulatedCost != "" {
		ctx.AccumulatedCost = MustParseMoney(c.AccumulatedCost)
	}
	if c.TotalCost != "" {
		ctx.TotalCost = MustParseMoney(c.TotalCost)
	}
	return ctx
}

// engineTool is the Background's tool for the scenario, with its skill category if it has one.
func engineTool(sc scenarios.Scenario) Tool {
	bt := scenarios.ToolOf(sc.Tool)
	t := Tool{Name: sc.Tool.SpecName(), Writes: bt.Writes, Unsafe: bt.Unsafe, Checkpointable: bt.Checkpointable}
	if sc.SkillCategory != nil {
		return withCategory(t, *sc.SkillCategory)
	}
	return t
}

func TestFeatureScenarios(t *testing.T) {
	for _, sc := range scenarios.Feature {
		t.Run(sc.Name, func(t *testing.T) {
			p := mustCompile(t, engineProfile(sc.Profile), ProjectRules{})
			d := Evaluate(p, Call{Tool: engineTool(sc), Context: engineContext(sc.Context)})
			checkDecision(t, d, sc.Want, sc.Phrases...)
		})
	}
}

// TestFeatureBackgroundIsTheHelpersBackground keeps the shared table's Background the one the
// engine's other tests use (helpers_test.go).
func TestFeatureBackgroundIsTheHelpersBackground(t *testing.T) {
	for role, want := range map[scenarios.ToolRole]Tool{
		scenarios.Writer: toolWriter, scenarios.UnsafeTool: toolUnsafe, scenarios.Reader: toolReader,
	} {
		if got := engineTool(scenarios.Scenario{Tool: role}); got != want {
			t.Errorf("Background tool %s: table %+v, helpers %+v", role, got, want)
		}
	}
}

// TestScenarioReasonsAreEngineReasons keeps the table's reason codes and built-in names the engine's.
func TestScenarioReasonsAreEngineReasons(t *testing.T) {
	for table, engine := range map[string]string{
		scenarios.ReasonToolAccessDenied:          ReasonToolAccessDenied,
		scenarios.ReasonToolCheckpointRequired:    ReasonToolCheckpointRequired,
		scenarios.ReasonToolSafetyViolation:       ReasonToolSafetyViolation,
		scenarios.ReasonToolSandboxRequired:       ReasonToolSandboxRequired,
		scenarios.ReasonToolHumanApprovalRequired: ReasonToolHumanApprovalRequired,
		scenarios.ReasonToolCostLimitExceeded:     ReasonToolCostLimitExceeded,
		scenarios.ReasonToolRetryLimitExceeded:    ReasonToolRetryLimitExceeded,
		scenarios.BuiltinUnrestricted:             BuiltinUnrestricted,
		scenarios.BuiltinReadOnly:                 BuiltinReadOnly,
		scenarios.BuiltinSandboxed:                BuiltinSandboxed,
	} {
		if table != engine {
			t.Errorf("table says %q, engine %q", table, engine)
		}
	}
}

// TestEveryFeatureScenarioIsCovered keeps the table honest: each scenario title of the feature
// file is a case of scenarios.Feature, and nothing else is.
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
	for _, s := range scenarios.Feature {
		have[s.Name]++
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
