package safety

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestValidateProfile(t *testing.T) {
	tests := []struct {
		name string
		p    *Profile
		want FieldErrors
	}{
		{"nil is valid", nil, nil},
		{"default is valid", DefaultProfile(), nil},
		{"retries above 100", &Profile{MaxRetriesPerStep: new(int32(101))},
			FieldErrors{{Field: "maxRetriesPerStep", Detail: "must be between 0 and 100, got 101"}}},
		{"negative retries", &Profile{MaxRetriesPerStep: new(int32(-1))},
			FieldErrors{{Field: "maxRetriesPerStep", Detail: "must be between 0 and 100, got -1"}}},
		{"negative cost", &Profile{MaxCostPerPlan: new(MoneyFromNanos(-1)), MaxTotalCost: new(MoneyFromNanos(-5))},
			FieldErrors{{Field: "maxCostPerPlan", Detail: "must not be negative, got -0.000000001"}, {Field: "maxTotalCost", Detail: "must not be negative, got -0.000000005"}}},
		{"unknown mode", &Profile{Mode: "Dry"}, FieldErrors{{Field: "mode", Detail: `must be one of Enforce, Warn, Audit; got "Dry"`}}},
		{"bad names", &Profile{AllowedSkillCategories: []string{"", " code"}, AllowedTools: []string{"a/[b"}, DeniedTools: []string{strings.Repeat("x", 254)}},
			FieldErrors{
				{Field: "allowedSkillCategories[0]", Detail: "must not be empty"},
				{Field: "allowedSkillCategories[1]", Detail: "must not start or end with spaces"},
				{Field: "allowedTools[0]", Detail: `invalid glob pattern "a/[b"`},
				{Field: "deniedTools[0]", Detail: "must be at most 253 characters"},
			}},
		{"too many tools", &Profile{DeniedTools: make([]string, 257)}, FieldErrors{{Field: "deniedTools", Detail: "must have at most 256 items, got 257"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ValidateProfile(tt.p)); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompileErrorsNameTheField(t *testing.T) {
	okRule := Rule{ID: "no-terraform-destroy", Action: ActionBlock, Reason: "destroys infrastructure", Commands: []string{"terraform"}, Subcommands: []string{"destroy"}}
	tests := []struct {
		name    string
		profile *Profile
		rules   ProjectRules
		want    []string // field paths, in order
		detail  string   // a phrase of the first error
	}{
		{"bad regex", nil, ProjectRules{CommandRules: []Rule{okRule, {ID: "b", Action: ActionAsk, Reason: "r", Commands: []string{"x"}}, {ID: "c", Action: ActionBlock, Reason: "r", Pattern: "([a-"}}},
			[]string{"projectRules.commandRules[2].pattern"}, "invalid regex"},
		{"bad operand regex", nil, ProjectRules{CommandRules: []Rule{{ID: "c", Action: ActionBlock, Reason: "r", Commands: []string{"x"}, Operand: "*"}}},
			[]string{"projectRules.commandRules[0].operand"}, "invalid regex"},
		{"bad command glob", nil, ProjectRules{CommandRules: []Rule{{ID: "c", Action: ActionBlock, Reason: "r", Commands: []string{"[x"}}}},
			[]string{"projectRules.commandRules[0].commands[0]"}, "invalid command glob"},
		{"rule without matcher", nil, ProjectRules{CommandRules: []Rule{{ID: "c", Action: ActionBlock, Reason: "r"}}},
			[]string{"projectRules.commandRules[0].commands"}, "would match every command"},
		{"bad action, class, flags and missing fields", nil, ProjectRules{CommandRules: []Rule{{Action: "deny", Class: "nuke", Commands: []string{"x"}, Flags: []string{"f", ""}}}},
			[]string{"projectRules.commandRules[0].id", "projectRules.commandRules[0].action", "projectRules.commandRules[0].class", "projectRules.commandRules[0].reason", "projectRules.commandRules[0].flags[0]", "projectRules.commandRules[0].flags[1]"}, "must not be empty"},
		{"duplicate of a default rule id", nil, ProjectRules{CommandRules: []Rule{{ID: "git-push-force", Action: ActionBlock, Reason: "r", Commands: []string{"x"}}}},
			[]string{"projectRules.commandRules[0].id"}, "duplicate rule id"},
		{"bad path glob", nil, ProjectRules{Paths: PathPolicy{NoWrite: []string{"ok/", "bad/[x"}}},
			[]string{"projectRules.paths.noWrite[1]"}, "invalid path pattern"},
		{"empty path", nil, ProjectRules{Paths: PathPolicy{ZeroAccess: []string{" "}}},
			[]string{"projectRules.paths.zeroAccess[0]"}, "invalid path pattern"},
		{"relative write root without workspace", nil, ProjectRules{WriteRoots: []string{"build"}},
			[]string{"projectRules.writeRoots[0]"}, "must be absolute"},
		{"relative workspace", nil, ProjectRules{Workspace: "ws"}, []string{"projectRules.workspace"}, "absolute"},
		{"workspace with a climb", nil, ProjectRules{Workspace: "/workspace/../etc"}, []string{"projectRules.workspace"}, "clean path"},
		{"workspace with a dot part", nil, ProjectRules{Workspace: "/workspace/./app"}, []string{"projectRules.workspace"}, "clean path"},
		{"workspace with a trailing slash", nil, ProjectRules{Workspace: "/workspace/"}, []string{"projectRules.workspace"}, "clean path"},
		{"workspace with a doubled slash", nil, ProjectRules{Workspace: "/workspace//app"}, []string{"projectRules.workspace"}, "clean path"},
		{"workspace the root", nil, ProjectRules{Workspace: "/"}, []string{"projectRules.workspace"}, "below /"},
		{"workspace with a newline", nil, ProjectRules{Workspace: "/workspace\n/app"}, []string{"projectRules.workspace"}, "control characters"},
		{"workspace too long", nil, ProjectRules{Workspace: "/" + strings.Repeat("a", MaxWorkspaceLength)}, []string{"projectRules.workspace"}, "at most 1024"},
		{"autonomy", nil, ProjectRules{Autonomy: "Max"}, []string{"projectRules.autonomy"}, "Default or Yolo"},
		{"project commands", nil, ProjectRules{Commands: []ProjectCommand{{ID: "a", Command: "make test && rm x"}, {ID: "a", Command: "$X"}, {Command: "'"}}},
			[]string{"projectRules.commands[0].command", "projectRules.commands[1].id", "projectRules.commands[1].command", "projectRules.commands[2].id", "projectRules.commands[2].command"}, "one simple command"},
		{"loop bounds", nil, ProjectRules{Loop: LoopPolicy{MaxRepeats: 5000, Window: -time.Second}},
			[]string{"projectRules.loop.maxRepeats", "projectRules.loop.window"}, "at most"},
		{"profile and rules together", &Profile{MaxRetriesPerStep: new(int32(200))}, ProjectRules{Autonomy: "x"},
			[]string{"profile.maxRetriesPerStep", "projectRules.autonomy"}, "between 0 and 100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compile(tt.profile, tt.rules)
			if p != nil || err == nil {
				t.Fatalf("Compile succeeded, want errors on %v", tt.want)
			}
			var fe FieldErrors
			if !errors.As(err, &fe) {
				t.Fatalf("error %T is not FieldErrors", err)
			}
			fields := make([]string, 0, len(fe))
			for _, e := range fe {
				fields = append(fields, e.Field)
			}
			if diff := cmp.Diff(tt.want, fields); diff != "" {
				t.Fatalf("fields (-want +got):\n%s\nerrors: %v", diff, err)
			}
			if !strings.Contains(fe[0].Detail, tt.detail) {
				t.Fatalf("first detail %q does not mention %q", fe[0].Detail, tt.detail)
			}
			if !strings.HasPrefix(err.Error(), tt.want[0]+": ") {
				t.Fatalf("error string %q does not start with the field", err.Error())
			}
			if tt.profile == nil {
				// ValidateRules reports the same errors, relative to the rules.
				if got := ValidateRules(tt.rules); len(got) != len(fe) || "projectRules."+got[0].Field != fe[0].Field {
					t.Fatalf("ValidateRules = %v", got)
				}
			}
		})
	}
	t.Run("valid rules compile", func(t *testing.T) {
		rules := ProjectRules{CommandRules: []Rule{okRule}, Commands: []ProjectCommand{{ID: "t", Command: "make test"}},
			Paths: PathPolicy{ZeroAccess: []string{"secrets/"}}, WriteRoots: []string{"build", "/tmp/out"}, Workspace: "/ws", Autonomy: AutonomyYolo}
		if errs := ValidateRules(rules); errs != nil {
			t.Fatal(errs)
		}
		p := mustCompile(t, &Profile{Mode: ModeAudit}, rules)
		if diff := cmp.Diff([]string{"/ws/build", "/tmp/out"}, p.writeRoots); diff != "" {
			t.Fatalf("write roots (-want +got):\n%s", diff)
		}
		if p.Mode() != ModeAudit || p.Loop() != (LoopPolicy{MaxRepeats: DefaultLoopMaxRepeats, Window: DefaultLoopWindow}) || p.Hash() != Hash(&Profile{Mode: ModeAudit}) {
			t.Fatalf("accessors: %v %v %v", p.Mode(), p.Loop(), p.Hash())
		}
		if p.Profile() == nil || p.Profile() == p.profile {
			t.Fatal("Profile must return a copy")
		}
	})
}

func TestProjectRules(t *testing.T) {
	rules := ProjectRules{
		Workspace: "/ws",
		CommandRules: []Rule{
			{ID: "no-terraform-destroy", Action: ActionBlock, Reason: "destroys infrastructure", Commands: []string{"terraform"}, Subcommands: []string{"destroy", "apply"}, Flags: []string{"-auto-approve"}},
			{ID: "kubectl-rollout", Action: ActionAsk, Class: ClassSystemModify, Reason: "rolls workloads back or restarts them", Commands: []string{"kubectl"}, Subcommands: []string{"rollout"}},
			{ID: "weaken-attempt", Action: ActionAsk, Reason: "tries to turn a block into an ask", Commands: []string{"sudo"}},
		},
		Commands: []ProjectCommand{{ID: "test", Command: "make test"}, {ID: "deploy", Command: "make deploy", RequireConfirmation: true}},
		Paths:    PathPolicy{ZeroAccess: []string{"secrets/"}, ReadOnly: []string{"vendor/"}, NoDelete: []string{"/ws/keep.txt"}},
	}
	p := mustCompile(t, &Profile{}, rules)
	sh := func(cmd string) Call { return Call{Tool: Tool{Name: "sh"}, Args: Arguments{Command: cmd}} }
	tests := []struct {
		name string
		call Call
		want outcome
	}{
		{"project block rule", sh("terraform destroy -auto-approve"), outcome{Verdict: VerdictDeny, Reason: ReasonToolSafetyViolation, RuleID: "damage-control:no-terraform-destroy"}},
		{"project block rule needs all conditions", sh("terraform destroy"), outcome{Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: "damage-control:infrastructure-destroy"}},
		{"project ask rule", sh("kubectl rollout undo deploy/x"), outcome{Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: "damage-control:kubectl-rollout"}},
		{"a project ask cannot weaken a default block", sh("sudo ls"), outcome{Verdict: VerdictDeny, Reason: ReasonToolSafetyViolation, RuleID: "damage-control:privilege-escalation"}},
		{"project command is recognised", sh("make test"), outcome{Verdict: VerdictAllow}},
		{"project command with a variable assignment runs other code", sh("make test V=1"), outcome{Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: RuleOpaqueCode}},
		{"project command with an extra target is another command", sh("make test deploy"), outcome{Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: "project-command:deploy"}},
		{"project command with an extra target and no confirmation is unrecognised", sh("make test clean"), outcome{Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: "autonomy:execute-unrecognized"}},
		{"a confirmation survives options before the target", sh("make -k -j4 deploy"), outcome{Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: "project-command:deploy"}},
		{"a project rule matches past global options", sh("kubectl --context prod -n kube-system rollout undo deploy/x"), outcome{Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: "damage-control:kubectl-rollout"}},
		{"a project rule matches past -chdir", sh("terraform -chdir=infra apply -auto-approve"), outcome{Verdict: VerdictDeny, Reason: ReasonToolSafetyViolation, RuleID: "damage-control:no-terraform-destroy"}},
		{"project command matches whole words", sh("make testing"), outcome{Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: "autonomy:execute-unrecognized"}},
		{"project command requiring confirmation", sh("make deploy"), outcome{Verdict: VerdictAsk, Reason: ReasonToolHumanApprovalRequired, RuleID: "project-command:deploy"}},
		{"project zero-access path", sh("cat secrets/db.txt"), outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: "path-policy:zeroAccess"}},
		{"project read-only path can be read", sh("cat vendor/x.go"), outcome{Verdict: VerdictAllow}},
		{"project read-only path cannot be written", sh("touch vendor/x.go"), outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: "path-policy:readOnly"}},
		{"project read-only path cannot be deleted", sh("rm vendor/x.go"), outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: "path-policy:readOnly"}},
		{"anchored no-delete path", sh("mv keep.txt other.txt"), outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: "path-policy:noDelete"}},
		{"anchored no-delete path elsewhere is fine", sh("mv sub/keep.txt sub/other.txt"), outcome{Verdict: VerdictAllow}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Evaluate(p, tt.call)
			if diff := cmp.Diff(tt.want, outcomeOf(d)); diff != "" {
				t.Fatalf("(-want +got):\n%s\nmessage: %s", diff, d.Message)
			}
		})
	}
}

func TestWriteRoots(t *testing.T) {
	p := mustCompile(t, &Profile{}, ProjectRules{Workspace: "/ws", WriteRoots: []string{"out", "/tmp/scratch"}})
	write := func(cwd string, paths ...string) Call {
		return Call{Tool: Tool{Name: "fs/write", Writes: true}, Args: Arguments{Paths: paths, Cwd: cwd}}
	}
	tests := []struct {
		name string
		call Call
		want outcome
	}{
		{"write inside a root", write("", "out/a.txt"), outcome{Verdict: VerdictAllow}},
		{"write to the root itself", write("/ws/out", "."), outcome{Verdict: VerdictAllow}},
		{"write in the second root", write("", "/tmp/scratch/x"), outcome{Verdict: VerdictAllow}},
		{"write beside a root", write("", "outside/a.txt"), outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleWriteRoot}},
		{"prefix is not containment", write("", "/ws/outer/a.txt"), outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleWriteRoot}},
		{"traversal out of a root", write("/ws/out", "../src/main.go"), outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleWriteRoot}},
		{"device sinks are not writes", write("", "/dev/null"), outcome{Verdict: VerdictAllow}},
		{"reads are not confined", Call{Tool: Tool{Name: "fs/read"}, Args: Arguments{Paths: []string{"src/main.go"}}}, outcome{Verdict: VerdictAllow}},
		{"execute tools are denied under confinement", Call{Tool: Tool{Name: "sh"}, Args: Arguments{Command: "ls"}}, outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleWriteRootExecute}},
		{"dispatch tools are denied under confinement", Call{Tool: Tool{Name: "dispatch", ActionClass: ClassDispatch}}, outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleWriteRootExecute}},
		{"execute-class tools without a command are denied under confinement", Call{Tool: Tool{Name: "verify", ActionClass: ClassExecute}}, outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleWriteRootExecute}},
		{"dispatch with arguments is denied under confinement", Call{Tool: Tool{Name: "dispatch", ActionClass: ClassDispatch}, Args: Arguments{Paths: []string{"out"}}}, outcome{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RuleWriteRootExecute}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Evaluate(p, tt.call)
			if diff := cmp.Diff(tt.want, outcomeOf(d)); diff != "" {
				t.Fatalf("(-want +got):\n%s\nmessage: %s", diff, d.Message)
			}
		})
	}
}
