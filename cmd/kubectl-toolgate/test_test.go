package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Objects for the offline tests, one YAML document each.
const (
	yamlNoUnsafe = `apiVersion: safety.toolgate.dev/v1alpha1
kind: SafetyProfile
metadata:
  name: no-unsafe
spec:
  requireSandbox: false
  requireCheckpoints: false
  allowUnsafeTools: false
`
	yamlCareful = `apiVersion: safety.toolgate.dev/v1alpha1
kind: SafetyProfile
metadata:
  name: careful
spec:
  requireSandbox: true
  requireCheckpoints: false
  maxCostPerPlan: "10"
  maxRetriesPerStep: 2
`
	yamlSupervised = `apiVersion: safety.toolgate.dev/v1alpha1
kind: AutomationProfile
metadata:
  name: supervised
spec:
  safetyProfileRef:
    name: careful
`
	yamlShell = `apiVersion: safety.toolgate.dev/v1alpha1
kind: AgentTool
metadata:
  name: shell-exec
spec:
  writes: false
  unsafe: true
  actionClass: execute
`
	yamlWriter = `apiVersion: safety.toolgate.dev/v1alpha1
kind: AgentTool
metadata:
  name: fs-write
spec:
  writes: true
  actionClass: write
`
	yamlShellCall = `apiVersion: safety.toolgate.dev/v1alpha1
kind: AgentToolCall
metadata:
  name: c1
  namespace: team-a
spec:
  plan: build-42
  tool: shell-exec
  step: compile
  arguments:
    command: go build ./...
`
	yamlProject = `apiVersion: safety.toolgate.dev/v1alpha1
kind: ProjectPolicy
metadata:
  name: project
  namespace: payments
spec:
  actions:
  - name: deploy
    profileRef:
      name: supervised
`
	yamlDeployPlan = `apiVersion: safety.toolgate.dev/v1alpha1
kind: AgentPlan
metadata:
  name: deploy-42
  namespace: payments
spec:
  serviceAccountName: agent
  action: deploy
`
)

// writeCall is an fs-write call of plan deploy-42 in payments; a non-empty cost makes it an
// earlier call that reported that cost.
func writeCall(name, step, sandbox, cost string) string {
	s := `apiVersion: safety.toolgate.dev/v1alpha1
kind: AgentToolCall
metadata:
  name: ` + name + `
  namespace: payments
spec:
  plan: deploy-42
  tool: fs-write
  step: ` + step + `
  sandboxId: "` + sandbox + `"
  arguments:
    paths: [out/` + name + `.yaml]
`
	if cost != "" {
		s += "status:\n  phase: Succeeded\n  cost: \"" + cost + "\"\n"
	}
	return s
}

// docs joins YAML documents into one multi-document file.
func docs(d ...string) string { return strings.Join(d, "---\n") }

// file writes content to a temporary file and returns its path.
func file(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// testJSON runs `test -o json` and decodes the result; it fails the test on a usage error.
func testJSON(t *testing.T, args ...string) (int, testResult) {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"test", "-o", "json"}, args...)...)
	if code == exitUsage {
		t.Fatalf("test %v: exit 2: %s", args, errOut)
	}
	var r testResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("test %v: output is not JSON: %v\n%s", args, err, out)
	}
	return code, r
}

func TestTestDeniesWithTheWebhooksReason(t *testing.T) {
	f := file(t, "call.yaml", docs(yamlNoUnsafe, yamlShell, yamlShellCall))
	code, out, errOut := runCLI(t, "test", "-f", f)
	if code != exitFailed || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	want := `deny: [ToolSafetyViolation] tool "shell-exec" is marked unsafe and the safety profile does not allow ` +
		"unsafe tools (allow_unsafe_tools=false)\n"
	if !strings.HasPrefix(out, want) {
		t.Fatalf("stdout %q\nwant prefix %q", out, want)
	}
	for _, line := range []string{
		"  call:      team-a/c1 (plan build-42, tool shell-exec, step compile)\n",
		`  profile:   SafetyProfile "no-unsafe" (provenance Plan, autonomy Default, mode Enforce)` + "\n",
		"  snapshot:  sha256:",
		"  facts:     accumulated cost 0, total cost 0, earlier attempts of step compile 0, repeats not counted, " +
			"human approval none\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("stdout lacks %q:\n%s", line, out)
		}
	}

	code, r := testJSON(t, "-f", f)
	if code != exitFailed || r.Decision != "deny" || r.Reason != "ToolSafetyViolation" || r.Mode != "Enforce" ||
		r.Provenance != "Plan" || r.Profile != (resultProfile{Kind: "SafetyProfile", Name: "no-unsafe"}) ||
		!strings.HasPrefix(r.SnapshotHash, "sha256:") || r.RuleID == "" || strings.HasPrefix(r.Message, "[") ||
		r.Call != (resultCall{Namespace: "team-a", Name: "c1", Plan: "build-42", Tool: "shell-exec", Step: "compile"}) {
		t.Fatalf("exit %d, result %+v", code, r)
	}

	step := "the same objects on standard input, the profile chosen by --profile"
	stdin := docs(yamlNoUnsafe, yamlShell, yamlShellCall)
	code, out, _ = runCLIStdin(t, stdin, "test", "-f", "-", "--profile", "unrestricted")
	if code != exitOK || !strings.HasPrefix(out, "allow: every check passed\n") ||
		!strings.Contains(out, `SafetyProfile "unrestricted" (provenance Plan`) {
		t.Fatalf("%s: exit %d\n%s", step, code, out)
	}
}

func runCLIStdin(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runWith(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestTestPrecedence(t *testing.T) {
	tool := yamlWriter
	call := writeCall("next", "render", "sb-1", "")
	defaultAP := `apiVersion: safety.toolgate.dev/v1alpha1
kind: AutomationProfile
metadata:
  name: cluster-default
  annotations:
    safety.toolgate.dev/is-default: "true"
spec:
  level: Yolo
  safety:
    requireSandbox: false
    requireCheckpoints: false
`
	projectRef := `apiVersion: safety.toolgate.dev/v1alpha1
kind: ProjectPolicy
metadata:
  name: project
  namespace: payments
spec:
  profileRef:
    kind: SafetyProfile
    name: read-only
`
	all := []string{yamlCareful, yamlSupervised, yamlProject, yamlDeployPlan, tool, call}
	for _, tc := range []struct {
		name, provenance, profile, level, decision string
		objs                                       []string
		args                                       []string
	}{
		{name: "the plan's action names the AutomationProfile", provenance: "Action", profile: "AutomationProfile/supervised",
			level: "Default", decision: "allow", objs: all},
		{name: "the plan's profileRef wins over its action", provenance: "Plan", profile: "SafetyProfile/sandboxed",
			level: "Default", decision: "deny", objs: all, args: []string{"--profile", "sandboxed"}},
		{name: "the project's profileRef", provenance: "Project", profile: "SafetyProfile/read-only", level: "Default",
			decision: "deny", objs: []string{projectRef, defaultAP, tool, call}},
		{name: "the default AutomationProfile", provenance: "Global", profile: "AutomationProfile/cluster-default",
			level: "Yolo", decision: "allow", objs: []string{defaultAP, tool, call}},
		{name: "nothing names a profile: the specification's default", provenance: "Default", level: "Default",
			decision: "deny", objs: []string{tool, call}},
		{name: "an AutomationProfile and its SafetyProfile are one choice", provenance: "Plan",
			profile: "AutomationProfile/supervised", level: "Default", decision: "allow",
			objs: []string{yamlCareful, yamlSupervised, tool, call}},
		{name: "--action on a made-up plan", provenance: "Action", profile: "AutomationProfile/supervised", level: "Default",
			decision: "allow", objs: []string{yamlCareful, yamlSupervised, yamlProject, tool, call},
			args: []string{"--action", "deploy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := file(t, "objs.yaml", docs(tc.objs...))
			_, r := testJSON(t, append([]string{"-f", f}, tc.args...)...)
			profile := ""
			if r.Profile.Name != "" {
				profile = r.Profile.Kind + "/" + r.Profile.Name
			}
			if r.Provenance != tc.provenance || profile != tc.profile || r.Level != tc.level || r.Decision != tc.decision {
				t.Fatalf("got provenance %s, profile %q, level %s, decision %s (%s); want %s, %q, %s, %s",
					r.Provenance, profile, r.Level, r.Decision, r.Message, tc.provenance, tc.profile, tc.level, tc.decision)
			}
		})
	}
}

func TestTestFacts(t *testing.T) {
	objs := []string{yamlCareful, yamlSupervised, yamlProject, yamlDeployPlan, yamlWriter,
		writeCall("e1", "render", "sb-1", "6.50"), writeCall("e2", "render", "sb-1", "3.49")}
	next := writeCall("next", "render", "sb-1", "")
	f := file(t, "objs.yaml", docs(append(objs, next)...))

	t.Run("cost and attempts come from the earlier calls", func(t *testing.T) {
		code, r := testJSON(t, "-f", f)
		if code != exitOK || r.Facts != (resultFacts{AccumulatedCost: "9.99", TotalCost: "9.99", EarlierAttempts: 2}) {
			t.Fatalf("exit %d, facts %+v (%s)", code, r.Facts, r.Message)
		}
	})
	t.Run("--accumulated-cost replaces the plan's cost, and counts into the total", func(t *testing.T) {
		code, r := testJSON(t, "-f", f, "--accumulated-cost", "10.00")
		if code != exitFailed || r.Reason != "ToolCostLimitExceeded" ||
			!strings.Contains(r.Message, "max_cost_per_plan 10") || r.Facts.TotalCost != "10" {
			t.Fatalf("exit %d, %+v", code, r)
		}
	})
	t.Run("--attempts replaces the earlier calls of the step", func(t *testing.T) {
		code, r := testJSON(t, "-f", f, "--attempts", "3")
		if code != exitFailed || r.Reason != "ToolRetryLimitExceeded" || r.Facts.EarlierAttempts != 3 {
			t.Fatalf("exit %d, %+v", code, r)
		}
	})
	t.Run("--total-cost", func(t *testing.T) {
		code, r := testJSON(t, "-f", f, "--total-cost", "1000")
		if code != exitOK || r.Facts.TotalCost != "1000" {
			t.Fatalf("exit %d, %+v", code, r)
		}
	})
	t.Run("another plan's calls count into the total, not into the plan", func(t *testing.T) {
		other := strings.ReplaceAll(writeCall("o1", "render", "sb-1", "5"), "plan: deploy-42", "plan: other")
		otherPlan := strings.ReplaceAll(yamlDeployPlan, "name: deploy-42", "name: other")
		g := file(t, "more.yaml", docs(otherPlan, other))
		_, r := testJSON(t, "-f", f, "-f", g, "--call", "next")
		if r.Facts.AccumulatedCost != "9.99" || r.Facts.TotalCost != "14.99" {
			t.Fatalf("facts %+v", r.Facts)
		}
	})
	t.Run("--call picks the call; the later ones are earlier calls too", func(t *testing.T) {
		_, r := testJSON(t, "-f", f, "--call", "e1")
		if r.Call.Name != "e1" || r.Facts.EarlierAttempts != 2 {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("--repeats beyond the loop threshold", func(t *testing.T) {
		code, r := testJSON(t, "-f", f, "--repeats", "6")
		if code != exitFailed || r.Reason != "ToolLoopDetected" || r.Facts.Repeats != 6 {
			t.Fatalf("exit %d, %+v", code, r)
		}
	})
	t.Run("the sandbox id comes from the call", func(t *testing.T) {
		g := file(t, "nosandbox.yaml", docs(append(objs, writeCall("next", "render", "", ""))...))
		code, r := testJSON(t, "-f", g)
		if code != exitFailed || r.Reason != "ToolSandboxRequired" {
			t.Fatalf("exit %d, %+v", code, r)
		}
	})
}

func TestTestLockedPlanUsesItsSnapshot(t *testing.T) {
	// A plan as 'kubectl get agentplan -o yaml' shows it, locked to the built-in unrestricted
	// profile, with usage; the files' current profiles do not change it.
	locked := yamlDeployPlan + `status:
  snapshot:
    provenance: Plan
    profileName: unrestricted
    level: Default
    hash: sha256:locked
    lockedAt: "2026-01-01T00:00:00Z"
    epoch: 1
    safety:
      requireSandbox: false
      requireCheckpoints: false
      allowUnsafeTools: true
      maxCostPerPlan: "5"
      maxRetriesPerStep: 100
    sources:
    - kind: SafetyProfile
      name: unrestricted
  usage:
    accumulatedCost: "4.99"
    steps:
    - step: render
      attempts: 7
`
	f := file(t, "locked.yaml", docs(yamlCareful, yamlSupervised, yamlProject, locked, yamlWriter,
		writeCall("next", "render", "", "")))
	code, r := testJSON(t, "-f", f)
	if code != exitOK || r.SnapshotHash != "sha256:locked" || r.Provenance != "Plan" ||
		r.Facts != (resultFacts{AccumulatedCost: "4.99", TotalCost: "4.99", EarlierAttempts: 7}) {
		t.Fatalf("exit %d, %+v", code, r)
	}
	step := "--profile re-locks the plan"
	code, r = testJSON(t, "-f", f, "--profile", "supervised")
	if code != exitFailed || r.Reason != "ToolSandboxRequired" || r.SnapshotHash == "sha256:locked" {
		t.Fatalf("%s: exit %d, %+v", step, code, r)
	}
}

func TestTestWarnModeWouldDeny(t *testing.T) {
	warn := strings.Replace(yamlNoUnsafe, "spec:\n", "spec:\n  enforcementMode: Warn\n", 1)
	f := file(t, "warn.yaml", docs(warn, yamlShell, yamlShellCall))
	code, out, _ := runCLI(t, "test", "-f", f)
	if code != exitOK || !strings.HasPrefix(out, "would_deny: [ToolSafetyViolation] ") ||
		!strings.Contains(out, "(mode Warn: the webhook admits the call with this admission warning)") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	_, r := testJSON(t, "-f", f)
	if r.Decision != "would_deny" || r.Mode != "Warn" || r.Reason != "ToolSafetyViolation" {
		t.Fatalf("%+v", r)
	}
}

// approvalFile is a ToolApproval for plan build-42 in team-a and the shell-exec tool; extra adds
// YAML lines under spec, status adds a status block, created a creationTimestamp.
func approvalYAML(name, extra, status, created string) string {
	s := `apiVersion: safety.toolgate.dev/v1alpha1
kind: ToolApproval
metadata:
  name: ` + name + `
  namespace: team-a
`
	if created != "" {
		s += "  creationTimestamp: \"" + created + "\"\n"
	}
	s += "spec:\n  plan: build-42\n  tool: shell-exec\n  approver: alice@example.com\n" + extra
	if status != "" {
		s += "status:\n" + status
	}
	return s
}

func TestTestApprovals(t *testing.T) {
	needsApproval := strings.Replace(yamlNoUnsafe, "  allowUnsafeTools: false\n",
		"  allowUnsafeTools: true\n  requireHumanApproval: true\n", 1)
	f := file(t, "approval.yaml", docs(needsApproval, yamlShell, yamlShellCall))
	digest := "sha256:" + strings.Repeat("0", 64)
	hint := "; a person can approve this call with: kubectl toolgate approve -n team-a build-42 --tool shell-exec " +
		"--step compile --command 'go build ./...'"

	t.Run("without an approval the denial names the approve command, as the webhook's does", func(t *testing.T) {
		code, r := testJSON(t, "-f", f)
		if code != exitFailed || r.Reason != "ToolHumanApprovalRequired" || !strings.Contains(r.Message, hint) ||
			r.Facts.HumanApproved {
			t.Fatalf("exit %d, %+v", code, r)
		}
	})
	t.Run("a matching ToolApproval admits the call", func(t *testing.T) {
		a := file(t, "a.yaml", approvalYAML("alice-ok", "  step: compile\n", "", ""))
		code, r := testJSON(t, "-f", f, "--approval", a)
		if code != exitOK || r.Decision != "allow" || !r.Facts.HumanApproved || r.Facts.Approval != "team-a/alice-ok" {
			t.Fatalf("exit %d, %+v", code, r)
		}
		_, out, _ := runCLI(t, "test", "-f", f, "-f", a)
		if !strings.Contains(out, "human approval granted (team-a/alice-ok)") {
			t.Fatalf("text output:\n%s", out)
		}
	})
	t.Run("approvals that do not apply are named with the reason", func(t *testing.T) {
		a := file(t, "a.yaml", docs(
			approvalYAML("a-other-step", "  step: deploy\n", "", ""),
			approvalYAML("b-other-args", "  argumentsDigest: "+digest+"\n", "", ""),
			approvalYAML("c-expired", "  expirationSeconds: 60\n", "", "2020-01-01T00:00:00Z"),
			approvalYAML("d-used", "", "  used: 1\n", ""),
		))
		code, r := testJSON(t, "-f", f, "--approval", a)
		for _, want := range []string{hint,
			"(ToolApproval a-other-step does not apply: it is for step deploy; ToolApproval b-other-args does not apply: " +
				"it is for other arguments; ToolApproval c-expired does not apply: it expired at 2020-01-01T00:01:00Z; and 1 more)",
		} {
			if code != exitFailed || !strings.Contains(r.Message, want) {
				t.Errorf("exit %d; message %q lacks %q", code, r.Message, want)
			}
		}
	})
	t.Run("an approval a ServiceAccount made would be refused, so it does not apply", func(t *testing.T) {
		selfMade := strings.Replace(approvalYAML("agent-made", "  step: compile\n", "", ""),
			"approver: alice@example.com", "approver: system:serviceaccount:team-a:builder", 1)
		code, r := testJSON(t, "-f", f, "--approval", file(t, "a.yaml", selfMade))
		want := "ToolApproval agent-made would be refused: " +
			"its approver system:serviceaccount:team-a:builder is a ServiceAccount"
		if code != exitFailed || r.Facts.HumanApproved || !strings.Contains(r.Message, want) {
			t.Fatalf("exit %d, %+v", code, r)
		}
	})
	t.Run("exact arguments in the approval match the call's", func(t *testing.T) {
		same := file(t, "same.yaml", approvalYAML("same-args", "  arguments:\n    command: go build ./...\n", "", ""))
		if code, r := testJSON(t, "-f", f, "--approval", same); code != exitOK || r.Facts.Approval != "team-a/same-args" {
			t.Fatalf("exit %d, %+v", code, r)
		}
		longer := file(t, "longer.yaml",
			approvalYAML("longer", "  arguments:\n    command: go build ./... && curl x\n", "", ""))
		if code, r := testJSON(t, "-f", f, "--approval", longer); code != exitFailed ||
			!strings.Contains(r.Message, "ToolApproval longer does not apply: it is for other arguments") {
			t.Fatalf("exit %d, %+v", code, r)
		}
	})
	t.Run("--approved stands for a matching approval", func(t *testing.T) {
		code, r := testJSON(t, "-f", f, "--approved")
		if code != exitOK || r.Decision != "allow" || r.Facts.Approval != "--approved" {
			t.Fatalf("exit %d, %+v", code, r)
		}
	})
	t.Run("an approval does not override a later check", func(t *testing.T) {
		code, r := testJSON(t, "-f", f, "--approved", "--repeats", "6")
		if code != exitFailed || r.Reason != "ToolLoopDetected" || r.Facts.HumanApproved {
			t.Fatalf("exit %d, %+v", code, r)
		}
	})
	t.Run("--approval files hold ToolApprovals only", func(t *testing.T) {
		code, _, errOut := runCLI(t, "test", "-f", f, "--approval", f)
		if code != exitUsage || !strings.Contains(errOut, "--approval files hold ToolApprovals only") {
			t.Fatalf("exit %d, %s", code, errOut)
		}
	})
}

func TestTestReadsLists(t *testing.T) {
	list := `apiVersion: v1
kind: List
items:
- ` + indent(yamlNoUnsafe) + `
- ` + indent(yamlShell) + `
`
	f := file(t, "list.yaml", list)
	g := file(t, "call.json", `{"apiVersion":"safety.toolgate.dev/v1alpha1","kind":"AgentToolCall",
		"metadata":{"generateName":"call-"},"spec":{"plan":"p","tool":"shell-exec","step":"s"}}`)
	code, r := testJSON(t, "-f", f, "-f", g, "-n", "ns1")
	if code != exitFailed || r.Reason != "ToolSafetyViolation" || r.Call.Namespace != "ns1" ||
		!strings.HasPrefix(r.Call.Name, "call-") {
		t.Fatalf("exit %d, %+v", code, r)
	}
}

// indent makes a YAML document a list item's body.
func indent(doc string) string {
	return strings.ReplaceAll(strings.TrimSuffix(doc, "\n"), "\n", "\n  ")
}

// TestTestInputErrors: every input problem exits 2 with a message that names the file, the
// document and the field or object at fault, and prints nothing on stdout.
func TestTestInputErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, content ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(docs(content...)), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.yaml", yamlNoUnsafe, yamlShell, yamlShellCall)
	missingPlan := "apiVersion: safety.toolgate.dev/v1alpha1\nkind: AgentPlan\nmetadata:\n  name: build-42\n" +
		"  namespace: team-a\nspec:\n  serviceAccountName: agent\n  profileRef:\n    kind: SafetyProfile\n    name: gone\n"
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"bad YAML", []string{"-f", write("bad.yaml", yamlShell, "kind: [\n")},
			[]string{"bad.yaml, document 2: not valid YAML", "line 1"}},
		{"unknown toolgate kind", []string{"-f", write("typo-kind.yaml", yamlShell,
			strings.Replace(yamlNoUnsafe, "kind: SafetyProfile", "kind: SafetyProfil", 1))},
			[]string{"typo-kind.yaml, document 2: safety.toolgate.dev/v1alpha1 SafetyProfil is not a kind that decides a " +
				"tool call", "want SafetyProfile"}},
		{"no apiVersion", []string{"-f", write("nokind.yaml", "metadata:\n  name: x\n")},
			[]string{"nokind.yaml, document 1: apiVersion and kind are required"}},
		{"unknown field",
			[]string{"-f", write("typo.yaml", strings.Replace(yamlNoUnsafe, "allowUnsafeTools", "allowUnsafeTool", 1))},
			[]string{`typo.yaml, document 1: SafetyProfile "no-unsafe": unknown field "spec.allowUnsafeTool"`}},
		{"a field of the wrong type",
			[]string{"-f", write("type.yaml", strings.Replace(yamlShell, "writes: false", "writes: sometimes", 1))},
			[]string{`type.yaml, document 1: AgentTool "shell-exec":`, "spec.writes of type bool"}},
		{"missing tool", []string{"-f", write("notool.yaml", yamlNoUnsafe, yamlShellCall)},
			[]string{`notool.yaml, document 2 (AgentToolCall "c1"): spec.tool names AgentTool "shell-exec", ` +
				"which is not in the files", "ToolNotRegistered"}},
		{"no call", []string{"-f", write("nocall.yaml", yamlNoUnsafe, yamlShell)},
			[]string{"no AgentToolCall in", "nocall.yaml"}},
		{"a call without step",
			[]string{"-f", write("nostep.yaml", yamlShell, strings.Replace(yamlShellCall, "  step: compile\n", "", 1))},
			[]string{`nostep.yaml, document 2 (AgentToolCall "c1"): spec.step is required`}},
		{"two profiles without --profile",
			[]string{"-f", write("two.yaml", yamlNoUnsafe, yamlCareful, yamlShell, yamlShellCall)},
			[]string{"the files hold 2 profiles the call's plan could use (SafetyProfile/no-unsafe, SafetyProfile/careful)",
				"choose one with --profile"}},
		{"--profile names nothing", []string{"-f", good, "--profile", "missing"},
			[]string{"--profile missing: no SafetyProfile or AutomationProfile of that name",
				"unrestricted, read-only, sandboxed"}},
		{"--profile with a bad kind", []string{"-f", good, "--profile", "Role/x"},
			[]string{"--profile Role/x: the kind must be"}},
		{"the plan names a missing profile", []string{"-f", write("missing.yaml", yamlShell, missingPlan, yamlShellCall)},
			[]string{"AgentPlan team-a/build-42 cannot be locked: [ProfileNotFound]", `SafetyProfile "gone"`, "PlanNotLocked"}},
		{"an action the project does not have", []string{"-f", write("action.yaml", yamlProject, yamlDeployPlan, yamlWriter,
			writeCall("c", "s", "", "")), "--action", "rollback"},
			[]string{"[ActionNotFound]", `"rollback"`}},
		{"an invalid profile", []string{"-f", write("invalid.yaml",
			strings.Replace(yamlCareful, "maxRetriesPerStep: 2", "maxRetriesPerStep: 500", 1), yamlShell, yamlShellCall)},
			[]string{"cannot be locked: [ProfileInvalid]", "maxRetriesPerStep"}},
		{"a ProjectPolicy the operator ignores", []string{"-f", write("pp.yaml",
			strings.Replace(yamlProject, "name: project", "name: payments", 1), yamlWriter, writeCall("c", "s", "", ""))},
			[]string{`pp.yaml, document 1 (ProjectPolicy "payments"): the operator reads only the ProjectPolicy named ` +
				`"project"`}},
		{"the same object twice", []string{"-f", good, "-f", good},
			[]string{`(SafetyProfile "no-unsafe"): SafetyProfile no-unsafe is also in`}},
		{"a call in another namespace than -n", []string{"-f", good, "-n", "other"},
			[]string{"is in namespace team-a, not in --namespace other"}},
		{"--call names nothing", []string{"-f", good, "--call", "nope"},
			[]string{"--call nope: no AgentToolCall of that name"}},
		{"a missing file", []string{"-f", filepath.Join(dir, "absent.yaml")}, []string{"reading ", "absent.yaml"}},
		{"a bad amount", []string{"-f", good, "--accumulated-cost", "ten"}, []string{"--accumulated-cost ten:"}},
		{"no files", nil, []string{"no files: give at least one -f FILE"}},
		{"a positional argument", []string{"call.yaml"}, []string{`unexpected arguments ["call.yaml"]: give files with -f`}},
		{"a bad output format", []string{"-f", good, "-o", "yaml"}, []string{"-o yaml: want text or json"}},
		{"an unknown flag", []string{"-f", good, "--frobnicate"}, []string{"unknown flag: --frobnicate"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"test"}, tc.args...)...)
			if code != exitUsage || out != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and no output", code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q does not mention %q", errOut, w)
				}
			}
		})
	}
}

func TestTestSkipsObjectsThatDecideNothing(t *testing.T) {
	ns := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n"
	ledger := "apiVersion: safety.toolgate.dev/v1alpha1\nkind: AuditLedger\nmetadata:\n  name: default\nspec: {}\n"
	f := file(t, "manifest.yaml", docs(ns, yamlNoUnsafe, ledger, yamlShell, yamlShellCall))
	code, out, errOut := runCLI(t, "test", "-f", f)
	if code != exitFailed || !strings.HasPrefix(out, "deny: [ToolSafetyViolation]") ||
		!strings.Contains(errOut, "note: "+f+`, document 1: v1 Namespace "team-a" is not a toolgate object; skipped`) ||
		!strings.Contains(errOut, "note: "+f+`, document 3: AuditLedger "default" does not decide a tool call; skipped`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

func TestTestBuiltinGivenWithAnotherSpec(t *testing.T) {
	fake := strings.Replace(yamlNoUnsafe, "name: no-unsafe", "name: unrestricted", 1)
	f := file(t, "builtin.yaml", docs(fake, yamlShell, yamlShellCall))
	code, out, errOut := runCLI(t, "test", "-f", f)
	if code != exitOK || !strings.HasPrefix(out, "allow:") ||
		!strings.Contains(errOut, `note: `+f+`, document 1 (SafetyProfile "unrestricted") is a built-in profile`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

func TestTestHelp(t *testing.T) {
	code, out, _ := runCLI(t, "test", "-h")
	if code != exitOK || !strings.Contains(out, "kubectl toolgate test -f FILE") ||
		!strings.Contains(out, "--accumulated-cost AMOUNT") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// TestTestPinnedToolsAndDeadline: a plan as the cluster shows it, with the capabilities it pinned
// at its first use of a tool, is tested with those, not the registry's current ones; a plan past
// its deadline is refused, as the webhook denies its calls PlanExpired.
func TestTestPinnedToolsAndDeadline(t *testing.T) {
	locked := `apiVersion: safety.toolgate.dev/v1alpha1
kind: AgentPlan
metadata:
  name: deploy-42
  namespace: payments
  creationTimestamp: "` + time.Now().Add(-time.Hour).UTC().Format(time.RFC3339) + `"
spec:
  serviceAccountName: agent
  activeDeadlineSeconds: %d
status:
  snapshot:
    provenance: Plan
    profileName: read-only
    level: Default
    hash: sha256:locked
    lockedAt: "2026-01-01T00:00:00Z"
    epoch: 1
    safety:
      requireSandbox: false
      requireCheckpoints: false
      readOnly: true
      maxRetriesPerStep: 100
  tools:
  - name: fs-write
    writes: false
    actionClass: read
    pinnedAt: "2026-01-01T00:00:01Z"
    epoch: 1
`
	active := file(t, "active.yaml", docs(fmt.Sprintf(locked, 86400), yamlWriter, writeCall("next", "render", "", "")))
	if code, r := testJSON(t, "-f", active); code != exitOK || r.Decision != "allow" {
		t.Fatalf("the pinned capabilities (writes=false) decide, not the registry's writes=true: exit %d, %+v", code, r)
	}
	unpinned := file(t, "unpinned.yaml", docs(strings.Split(fmt.Sprintf(locked, 86400), "  tools:")[0], yamlWriter,
		writeCall("next", "render", "", "")))
	if code, r := testJSON(t, "-f", unpinned); code != exitFailed || r.Reason != "ToolAccessDenied" {
		t.Fatalf("without a pin the registry decides: exit %d, %+v", code, r)
	}
	expired := file(t, "expired.yaml", docs(fmt.Sprintf(locked, 60), yamlWriter, writeCall("next", "render", "", "")))
	code, _, errOut := runCLI(t, "test", "-f", expired)
	if code != exitUsage || !strings.Contains(errOut, "PlanExpired") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
