package safety

import (
	"strings"
	"testing"
	"time"
)

func fuzzSeeds() []string {
	seeds := []string{"", "ls", ":(){ :|:& };:", "a=$(b) c <<EOF\n$(d)\nEOF", "find . -exec rm {} +", "echo {a,b}{c,d}",
		"bash -c \"sh -c 'eval x'\"", "x | xargs -I{} sh -c 'rm {}'", "$'\\x00rm' -rf /", "cd - && rm -rf *", "[[ -f $(a) ]]"}
	for _, c := range bypassCatalogue() {
		if len(c.attack.Args.Command) < 4096 {
			seeds = append(seeds, c.attack.Args.Command, c.near.Args.Command)
		}
	}
	for _, ex := range rulePackExamples {
		seeds = append(seeds, ex.hits...)
	}
	return seeds
}

// FuzzParseCommand checks that command analysis never panics and that what it returns is
// well-formed, whatever the agent sends.
func FuzzParseCommand(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, "/workspace")
	}
	f.Fuzz(func(t *testing.T, cmd, cwd string) {
		an, err := analyzeCommand(cmd, cwd)
		if err != nil {
			if err.rule == "" || err.msg == "" {
				t.Fatalf("refusal without rule or message: %+v", err)
			}
			return
		}
		if len(an.segments) > maxSegments {
			t.Fatalf("%d segments exceed the bound", len(an.segments))
		}
		for _, s := range an.segments {
			if len(s.words) == 0 {
				t.Fatal("segment without words")
			}
			for _, p := range s.pipeFrom {
				if p < 0 || p >= len(an.segments) {
					t.Fatalf("pipeFrom index %d out of range", p)
				}
			}
		}
		for _, p := range an.paths {
			if p.op < opRead || p.op > opDelete {
				t.Fatalf("path %q with op %d", p.raw, p.op)
			}
			_ = resolvePath(p.cwd, p.raw)
		}
		_ = NewCallKey("fuzz", Call{Args: Arguments{Command: cmd, Cwd: cwd}})
	})
}

// FuzzEvaluate checks that Evaluate never panics, is deterministic, and that every decision is
// consistent: a verdict from the set, a typed error exactly when a check failed, reason codes
// that agree with the error, no would-deny under Enforce.
func FuzzEvaluate(f *testing.F) {
	for i, s := range fuzzSeeds() {
		f.Add(s, ".env", "/workspace/app", uint16(i), int32(i%6), int64(i)*1e8)
	}
	policies := []*Policy{
		mustCompile(f, nil, ProjectRules{}),
		mustCompile(f, DefaultProfile(), ProjectRules{Workspace: "/workspace"}),
		mustCompile(f, &Profile{AllowedTools: []string{"t/*"}, DeniedTools: []string{"t/x*"}, AllowedSkillCategories: []string{"code"},
			MaxCostPerPlan: money("1"), MaxTotalCost: money("2"), MaxRetriesPerStep: new(int32(2)), RequireHumanApproval: true, Mode: ModeWarn},
			ProjectRules{Autonomy: AutonomyYolo, WriteRoots: []string{"/workspace/out"}, Loop: LoopPolicy{MaxRepeats: 2, Window: time.Second}}),
		mustCompile(f, builtin(BuiltinReadOnly), ProjectRules{Commands: []ProjectCommand{{ID: "m", Command: "make test", RequireConfirmation: true}}}),
	}
	f.Fuzz(func(t *testing.T, cmd, pathArg, cwd string, bits uint16, retries int32, cost int64) {
		call := Call{
			Tool: Tool{Name: "t/" + string(rune('a'+bits%26)), Writes: bits&1 != 0, Unsafe: bits&2 != 0, Checkpointable: bits&4 != 0,
				SkillCategory: "code", HasSkillCategory: bits&8 != 0},
			Context: Context{ReadOnlyPlan: bits&16 != 0, RequireCheckpoints: bits&32 != 0, HumanApproved: bits&64 != 0,
				AccumulatedCost: MoneyFromNanos(cost), TotalCost: MoneyFromNanos(cost * 2), StepRetryCount: retries, Repeats: int(bits >> 12)},
			Args: Arguments{Command: cmd, Paths: strings.Split(pathArg, ","), Cwd: cwd},
		}
		if bits&128 != 0 {
			call.Context.SandboxID = "sb"
		}
		if bits&256 != 0 {
			call.Tool.ActionClass = []ActionClass{ClassRead, ClassWrite, ClassExecute, ClassDispatch, ClassSystemModify, ClassGitDestructive, ClassUnknown, "bogus"}[bits>>9&7]
		}
		for _, p := range policies {
			d := Evaluate(p, call)
			switch d.Verdict {
			case VerdictAllow, VerdictAsk, VerdictDeny:
			default:
				t.Fatalf("verdict %q", d.Verdict)
			}
			if (d.Err == nil) != (d.Reason == "") || (d.Err == nil) != (d.RuleID == "") {
				t.Fatalf("error and reason disagree: %+v", d)
			}
			if d.Err != nil && (ReasonOf(d.Err) != d.Reason || d.Err.Error() != d.Message) {
				t.Fatalf("typed error %T %q does not carry reason %q / message %q", d.Err, ReasonOf(d.Err), d.Reason, d.Message)
			}
			if d.Verdict == VerdictAllow && !d.WouldDeny && d.Err != nil {
				t.Fatalf("admitted with an error: %+v", d)
			}
			if p.Mode() == ModeEnforce && d.WouldDeny {
				t.Fatalf("would-deny under Enforce: %+v", d)
			}
			if d.Verdict == VerdictAsk && d.Reason != ReasonToolHumanApprovalRequired {
				t.Fatalf("ask without the approval reason: %+v", d)
			}
			if again := Evaluate(p, call); outcomeOf(again) != outcomeOf(d) || again.Message != d.Message {
				t.Fatalf("not deterministic: %+v vs %+v", d, again)
			}
		}
	})
}
