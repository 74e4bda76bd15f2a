package safety

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBoundaries(t *testing.T) {
	ckptWriter := Tool{Name: "test/ckpt-writer", Writes: true, Checkpointable: true}
	tests := []struct {
		name    string
		profile *Profile
		ctx     Context
		tool    Tool
		args    Arguments
		want    outcome
	}{
		// Cost: the limit itself is reached ("meets or exceeds"), one nano-unit below is not.
		{name: "plan cost exactly at the limit is denied", profile: &Profile{MaxCostPerPlan: money("10")},
			ctx: Context{AccumulatedCost: MustParseMoney("10.000000000")}, tool: toolReader,
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolCostLimitExceeded, RuleID: RuleMaxCostPerPlan}},
		{name: "plan cost one nano-unit below the limit is allowed", profile: &Profile{MaxCostPerPlan: money("10")},
			ctx: Context{AccumulatedCost: MustParseMoney("9.999999999")}, tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "plan cost above the limit is denied", profile: &Profile{MaxCostPerPlan: money("0.01")},
			ctx: Context{AccumulatedCost: MustParseMoney("15m")}, tool: toolReader,
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolCostLimitExceeded, RuleID: RuleMaxCostPerPlan}},
		{name: "a zero plan limit denies even the first call", profile: &Profile{MaxCostPerPlan: money("0")},
			tool: toolReader, want: outcome{Verdict: VerdictDeny, Reason: ReasonToolCostLimitExceeded, RuleID: RuleMaxCostPerPlan}},
		{name: "total cost exactly at the limit is denied", profile: &Profile{MaxTotalCost: money("100")},
			ctx: Context{TotalCost: MustParseMoney("100")}, tool: toolReader,
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolCostLimitExceeded, RuleID: RuleMaxTotalCost}},
		{name: "total cost just below the limit is allowed", profile: &Profile{MaxTotalCost: money("100")},
			ctx: Context{TotalCost: MustParseMoney("99.999999999")}, tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "no cost limit admits any cost", profile: &Profile{},
			ctx: Context{AccumulatedCost: MustParseMoney("9000000000"), TotalCost: MustParseMoney("9000000000")}, tool: toolReader,
			want: outcome{Verdict: VerdictAllow}},
		{name: "what calls in flight hold counts with the plan's cost", profile: &Profile{MaxCostPerPlan: money("10")},
			ctx: Context{AccumulatedCost: MustParseMoney("9"), HeldCost: MustParseMoney("1")}, tool: toolReader,
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolCostLimitExceeded, RuleID: RuleMaxCostPerPlan}},
		{name: "a hold one nano-unit short of the plan limit is allowed", profile: &Profile{MaxCostPerPlan: money("10")},
			ctx: Context{AccumulatedCost: MustParseMoney("9"), HeldCost: MustParseMoney("0.999999999")}, tool: toolReader,
			want: outcome{Verdict: VerdictAllow}},
		{name: "what calls in flight hold counts with the total cost", profile: &Profile{MaxTotalCost: money("100")},
			ctx: Context{TotalCost: MustParseMoney("99.5"), HeldCost: MustParseMoney("0.5")}, tool: toolReader,
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolCostLimitExceeded, RuleID: RuleMaxTotalCost}},
		{name: "plan limit is checked before total limit", profile: &Profile{MaxCostPerPlan: money("1"), MaxTotalCost: money("1")},
			ctx: Context{AccumulatedCost: MustParseMoney("1"), TotalCost: MustParseMoney("1")}, tool: toolReader,
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolCostLimitExceeded, RuleID: RuleMaxCostPerPlan}},

		// Retries: the limit itself is allowed, one above is not.
		{name: "retries exactly at the limit are allowed", profile: &Profile{MaxRetriesPerStep: new(int32(3))},
			ctx: Context{StepRetryCount: 3}, tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "retries one above the limit are denied", profile: &Profile{MaxRetriesPerStep: new(int32(3))},
			ctx: Context{StepRetryCount: 4}, tool: toolReader,
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolRetryLimitExceeded, RuleID: RuleMaxRetriesPerStep}},
		{name: "a zero retry limit allows the first attempt", profile: &Profile{MaxRetriesPerStep: new(int32(0))},
			ctx: Context{StepRetryCount: 0}, tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "a zero retry limit denies the first retry", profile: &Profile{MaxRetriesPerStep: new(int32(0))},
			ctx: Context{StepRetryCount: 1}, tool: toolReader,
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolRetryLimitExceeded, RuleID: RuleMaxRetriesPerStep}},
		{name: "no retry limit admits any retry count", profile: &Profile{}, ctx: Context{StepRetryCount: 1 << 30},
			tool: toolReader, want: outcome{Verdict: VerdictAllow}},

		// Empty versus missing lists: both mean "all allowed".
		{name: "nil skill categories allow a tool without a category", profile: &Profile{AllowedSkillCategories: nil},
			tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "empty skill categories allow a tool without a category", profile: &Profile{AllowedSkillCategories: []string{}},
			tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "nil allowed tools allow every tool", profile: &Profile{AllowedTools: nil}, tool: toolWriter,
			want: outcome{Verdict: VerdictAllow}},
		{name: "empty denied tools deny nothing", profile: &Profile{DeniedTools: []string{}}, tool: toolWriter,
			want: outcome{Verdict: VerdictAllow}},
		{name: "an empty category is not a missing category", profile: &Profile{AllowedSkillCategories: []string{"code"}},
			tool: withCategory(toolReader, ""), want: outcome{Verdict: VerdictDeny, Reason: ReasonToolSafetyViolation, RuleID: RuleSkillCategory}},
		{name: "categories compare exactly", profile: &Profile{AllowedSkillCategories: []string{"code"}},
			tool: withCategory(toolReader, "Code"), want: outcome{Verdict: VerdictDeny, Reason: ReasonToolSafetyViolation, RuleID: RuleSkillCategory}},

		// Deny-list over allow-list, with globs.
		{name: "deny-list glob wins over allow-list glob", profile: &Profile{AllowedTools: []string{"test/*"}, DeniedTools: []string{"test/w*"}},
			tool: toolWriter, want: outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleDenyList}},
		{name: "allow-list glob admits a matching tool", profile: &Profile{AllowedTools: []string{"test/*"}, DeniedTools: []string{"test/w*"}},
			tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "a single star does not cross a slash", profile: &Profile{AllowedTools: []string{"*"}},
			tool: toolReader, want: outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleAllowList}},
		{name: "a double star crosses slashes", profile: &Profile{AllowedTools: []string{"**"}},
			tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "tool names compare exactly", profile: &Profile{DeniedTools: []string{"test/writer"}},
			tool: Tool{Name: "test/writer2", Writes: true}, want: outcome{Verdict: VerdictAllow}},

		// Read-only tools under checkpoint and sandbox requirements.
		{name: "read-only tool passes when profile requires checkpoints", profile: &Profile{RequireCheckpoints: true},
			tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "read-only tool passes when context requires checkpoints", profile: nil, ctx: Context{RequireCheckpoints: true},
			tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "read-only tool passes the default profile without a sandbox", profile: DefaultProfile(),
			tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "checkpointable writer passes checkpoint requirement", profile: &Profile{RequireCheckpoints: true},
			tool: ckptWriter, want: outcome{Verdict: VerdictAllow}},
		{name: "context checkpoint flag applies under a profile that does not require them", profile: &Profile{},
			ctx: Context{RequireCheckpoints: true}, tool: toolWriter,
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolCheckpointRequired, RuleID: RuleRequireCheckpoints}},
		{name: "a blank sandbox id is no sandbox", profile: &Profile{RequireSandbox: true}, ctx: Context{SandboxID: "  "},
			tool: ckptWriter, want: outcome{Verdict: VerdictDeny, Reason: ReasonToolSandboxRequired, RuleID: RuleRequireSandbox}},
		{name: "default profile admits a checkpointable writer in a sandbox", profile: DefaultProfile(),
			ctx: Context{SandboxID: "sb-1"}, tool: ckptWriter, want: outcome{Verdict: VerdictAllow}},

		// Two failing checks: the first in order decides.
		{name: "read-only plan before deny-list", profile: &Profile{DeniedTools: []string{"test/writer"}},
			ctx: Context{ReadOnlyPlan: true}, tool: toolWriter,
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleReadOnlyPlan}},
		{name: "deny-list before checkpoints", profile: &Profile{DeniedTools: []string{"test/*"}, RequireCheckpoints: true},
			tool: toolWriter, want: outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleDenyList}},
		{name: "checkpoints before unsafe", profile: &Profile{RequireCheckpoints: true},
			tool: Tool{Name: "t", Writes: true, Unsafe: true},
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolCheckpointRequired, RuleID: RuleRequireCheckpoints}},
		{name: "unsafe before skill category", profile: &Profile{AllowedSkillCategories: []string{"code"}},
			tool: withCategory(toolUnsafe, "deploy"), want: outcome{Verdict: VerdictDeny, Reason: ReasonToolSafetyViolation, RuleID: RuleUnsafeTool}},
		{name: "skill category before sandbox", profile: &Profile{AllowedSkillCategories: []string{"code"}, RequireSandbox: true},
			tool: withCategory(toolWriter, "deploy"), want: outcome{Verdict: VerdictDeny, Reason: ReasonToolSafetyViolation, RuleID: RuleSkillCategory}},
		{name: "sandbox before human approval", profile: &Profile{RequireSandbox: true, RequireHumanApproval: true},
			tool: toolWriter, want: outcome{Verdict: VerdictDeny, Reason: ReasonToolSandboxRequired, RuleID: RuleRequireSandbox}},
		{name: "human approval before cost", profile: &Profile{RequireHumanApproval: true, MaxCostPerPlan: money("1")},
			ctx: Context{AccumulatedCost: MustParseMoney("2")}, tool: toolReader,
			want: outcome{Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: RuleHumanApproval}},
		{name: "cost before retries", profile: &Profile{MaxCostPerPlan: money("1"), MaxRetriesPerStep: new(int32(0))},
			ctx: Context{AccumulatedCost: MustParseMoney("1"), StepRetryCount: 5}, tool: toolReader,
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolCostLimitExceeded, RuleID: RuleMaxCostPerPlan}},
		{name: "retries before arguments", profile: &Profile{MaxRetriesPerStep: new(int32(0))},
			ctx: Context{StepRetryCount: 1}, tool: Tool{Name: "shell"}, args: Arguments{Command: "sudo ls"},
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolRetryLimitExceeded, RuleID: RuleMaxRetriesPerStep}},
		{name: "arguments before loop detection", profile: &Profile{},
			ctx: Context{Repeats: 100}, tool: Tool{Name: "shell"}, args: Arguments{Command: "sudo ls"},
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolSafetyViolation, RuleID: RulePrefixDamageControl + "privilege-escalation"}},
		{name: "approval satisfies the profile but not a damage-control block", profile: &Profile{RequireHumanApproval: true},
			ctx: Context{HumanApproved: true}, tool: Tool{Name: "shell"}, args: Arguments{Command: "rm -rf /"},
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolSafetyViolation, RuleID: RulePrefixDamageControl + "rm-recursive-root"}},

		// Loop detection.
		{name: "repeats at the loop limit are allowed", profile: &Profile{}, ctx: Context{Repeats: DefaultLoopMaxRepeats},
			tool: toolReader, want: outcome{Verdict: VerdictAllow}},
		{name: "repeats above the loop limit are denied", profile: &Profile{}, ctx: Context{Repeats: DefaultLoopMaxRepeats + 1},
			tool: toolReader, want: outcome{Verdict: VerdictDeny, Reason: ReasonToolLoopDetected, RuleID: RuleLoopDetected}},

		// Nil profile: only the read-only plan and the context checkpoint flag apply.
		{name: "nil profile ignores cost, retries and sandbox", profile: nil,
			ctx: Context{AccumulatedCost: MustParseMoney("1"), StepRetryCount: 99}, tool: Tool{Name: "x", Writes: true, Unsafe: true},
			want: outcome{Verdict: VerdictAllow}},
		{name: "nil profile still honours context checkpoints", profile: nil, ctx: Context{RequireCheckpoints: true},
			tool: toolWriter, want: outcome{Verdict: VerdictDeny, Reason: ReasonToolCheckpointRequired, RuleID: RuleRequireCheckpoints}},
		{name: "nil profile still runs the argument safety net", profile: nil, tool: Tool{Name: "shell"},
			args: Arguments{Command: "cat .env"}, want: outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RulePrefixPathPolicy + "zeroAccess"}},

		// Read-only profile and plan.
		{name: "read-only profile denies a writer", profile: builtin(BuiltinReadOnly), tool: ckptWriter,
			ctx: Context{SandboxID: "s"}, want: outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleReadOnlyProfile}},
		{name: "read-only plan denies a command that writes through a non-writing tool", profile: &Profile{},
			ctx: Context{ReadOnlyPlan: true}, tool: Tool{Name: "shell"}, args: Arguments{Command: "echo x > notes.txt"},
			want: outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleReadOnlyPlan}},
		{name: "read-only plan admits a command that only reads", profile: &Profile{},
			ctx: Context{ReadOnlyPlan: true}, tool: Tool{Name: "shell"}, args: Arguments{Command: "cat notes.txt | wc -l"},
			want: outcome{Verdict: VerdictAllow}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustCompile(t, tt.profile, ProjectRules{})
			d := Evaluate(p, Call{Tool: tt.tool, Context: tt.ctx, Args: tt.args})
			if diff := cmp.Diff(tt.want, outcomeOf(d)); diff != "" {
				t.Fatalf("decision mismatch (-want +got):\n%s\nmessage: %s", diff, d.Message)
			}
			if tt.want.Reason != "" && !typedAs(d.Err, tt.want.Reason) {
				t.Fatalf("want typed %s error, got %T", tt.want.Reason, d.Err)
			}
		})
	}
}

func TestModes(t *testing.T) {
	for _, mode := range []Mode{ModeWarn, ModeAudit} {
		t.Run(string(mode)+" admits what Enforce denies and reports it", func(t *testing.T) {
			p := mustCompile(t, &Profile{RequireSandbox: true, Mode: mode}, ProjectRules{})
			d := Evaluate(p, Call{Tool: toolWriter})
			want := outcome{Verdict: VerdictAllow, Reason: ReasonToolSandboxRequired, RuleID: RuleRequireSandbox, WouldDeny: true}
			if diff := cmp.Diff(want, outcomeOf(d)); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			if !typedAs(d.Err, ReasonToolSandboxRequired) || d.Mode != mode || !d.Allowed() {
				t.Fatalf("want typed error, mode %s, allowed; got %+v", mode, d)
			}
		})
		t.Run(string(mode)+" reports an ask as a would-be denial", func(t *testing.T) {
			p := mustCompile(t, &Profile{Mode: mode}, ProjectRules{})
			d := Evaluate(p, Call{Tool: Tool{Name: "shell"}, Args: Arguments{Command: "apt-get install vim"}})
			if !d.Allowed() || !d.WouldDeny || d.Reason != ReasonToolHumanApprovalRequired {
				t.Fatalf("got %+v", d)
			}
		})
		t.Run(string(mode)+" leaves a clean call clean", func(t *testing.T) {
			p := mustCompile(t, &Profile{Mode: mode}, ProjectRules{})
			d := Evaluate(p, Call{Tool: toolReader})
			if diff := cmp.Diff(outcome{Verdict: VerdictAllow}, outcomeOf(d)); diff != "" || d.Err != nil {
				t.Fatalf("(-want +got):\n%s err=%v", diff, d.Err)
			}
		})
	}
	t.Run("empty mode enforces", func(t *testing.T) {
		p := mustCompile(t, &Profile{RequireSandbox: true}, ProjectRules{})
		if d := Evaluate(p, Call{Tool: toolWriter}); d.Verdict != VerdictDeny || d.Mode != ModeEnforce {
			t.Fatalf("got %+v", d)
		}
	})
}

func TestAskAndApproval(t *testing.T) {
	p := mustCompile(t, &Profile{}, ProjectRules{})
	call := Call{Tool: Tool{Name: "shell"}, Args: Arguments{Command: "apt-get install -y jq"}}
	d := Evaluate(p, call)
	want := outcome{Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: RulePrefixDamageControl + "system-package-install"}
	if diff := cmp.Diff(want, outcomeOf(d)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	checkDecision(t, d, ReasonToolHumanApprovalRequired, "system-package", "human approval")
	call.Context.HumanApproved = true
	d = Evaluate(p, call)
	if diff := cmp.Diff(outcome{Verdict: VerdictAllow}, outcomeOf(d)); diff != "" {
		t.Fatalf("approved call (-want +got):\n%s", diff)
	}
	if d.Class != ClassSystemModify {
		t.Fatalf("class = %s, want system_modify", d.Class)
	}
}

func TestMissingPolicyFailsClosed(t *testing.T) {
	for name, p := range map[string]*Policy{"nil": nil, "zero value": {}} {
		t.Run(name, func(t *testing.T) {
			d := Evaluate(p, Call{Tool: toolReader})
			want := outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RulePolicyMissing}
			if diff := cmp.Diff(want, outcomeOf(d)); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			checkDecision(t, d, ReasonToolAccessDenied, "fails closed")
		})
	}
}
