package hook_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/hook"
)

// The engine takes a search of the project directory to read the .env it may hold (a Grep of the
// project asks for a person: hook_test.go's "no path: the whole project"). Which directory is the
// project is the hook's to say: Claude Code gives it CLAUDE_PROJECT_DIR, which the agent's cd does
// not move, and the hook already uses it for links (docs/hook.md). The payload's cwd is where the
// agent's Bash last cd'ed. A search of the same project from another directory must not be
// admitted where the one from inside is not.
var _ = Describe("toolgate-hook, for a search of the project made from outside it", Ordered, ContinueOnFailure, func() {
	const project = "/workspace/app"
	var ns, tokenFile string

	BeforeAll(func() {
		ns = testNamespace("hook-project-")
		tokenFile = agentTokenFile(ns, "coding-agent", "coder-0")
		for name, spec := range map[string]safetyv1alpha1.AgentToolSpec{
			"bash": {Writes: true, ActionClass: safetyv1alpha1.ActionClassExecute},
			"grep": {ActionClass: safetyv1alpha1.ActionClassRead},
		} {
			err := k8sClient.Create(ctx, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: spec})
			Expect(client.IgnoreAlreadyExists(err)).To(Succeed())
		}
		profile := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: ns},
			Spec: safetyv1alpha1.SafetyProfileSpec{RequireSandbox: new(false), RequireCheckpoints: new(false),
				RequireHumanApproval: new(false), MaxRetriesPerStep: new(int32(100))}}
		Expect(k8sClient.Create(ctx, profile)).To(Succeed())
		plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "coding"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coding-agent", PodName: "coder-0",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: profile.Name}}}
		Expect(k8sClient.Create(ctx, plan)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
			g.Expect(meta.IsStatusConditionTrue(plan.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)).To(BeTrue())
		}).WithTimeout(30 * time.Second).Should(Succeed())
	})

	decide := func(cwd, tool string, input map[string]any) hook.SpecificOutput {
		GinkgoHelper()
		payload, _ := json.Marshal(map[string]any{"session_id": "s", "transcript_path": "/t.jsonl", "cwd": cwd,
			"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input})
		var out hook.SpecificOutput
		Eventually(func(g Gomega) string { // the webhook's cache may lag the lock
			cmd := exec.Command(hookBinary, "--server", cluster.Config.Host, "--certificate-authority", caFile,
				"--namespace", ns, "--token-file", tokenFile)
			cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+project)
			cmd.Stdin = bytes.NewReader(payload)
			stdout, err := cmd.Output()
			g.Expect(err).NotTo(HaveOccurred())
			var o hook.Output
			g.Expect(json.Unmarshal(stdout, &o)).To(Succeed())
			out = o.HookSpecificOutput
			return out.PermissionDecisionReason
		}).WithTimeout(30 * time.Second).ShouldNot(ContainSubstring("PlanNotLocked"))
		return out
	}

	It("does not admit from inside the project a Grep of it (the near miss)", func() {
		out := decide(project, "Grep", map[string]any{"pattern": "SECRET", "path": project})
		Expect(out.PermissionDecision).NotTo(Equal(hook.Allow), out.PermissionDecisionReason)
	})

	It("does not admit the same Grep of the project from another working directory", func() {
		out := decide("/tmp", "Grep", map[string]any{"pattern": "SECRET", "path": project})
		Expect(out.PermissionDecision).NotTo(Equal(hook.Allow),
			"CLAUDE_PROJECT_DIR is %s, so this search reads %s/.env: %s", project, project, out.PermissionDecisionReason)
	})

	// Review door35: grep's --include and rg take a "]" right after "[" as a member of the class,
	// so a Grep narrowed by "[].]env" reads .env; the engine read it as passing no .env.
	It("does not admit a Grep of the project narrowed by a bracket glob that passes .env", func() {
		for _, glob := range []string{"[].]env", "[!]]env", "[[:punct:]]env"} {
			out := decide(project, "Grep", map[string]any{"pattern": "SECRET", "path": project, "glob": glob})
			Expect(out.PermissionDecision).NotTo(Equal(hook.Allow), "glob %q: %s", glob, out.PermissionDecisionReason)
		}
	})

	It("admits a Grep of the project narrowed to Go files (the near miss)", func() {
		out := decide(project, "Grep", map[string]any{"pattern": "SECRET", "path": project, "glob": "*.go"})
		Expect(out.PermissionDecision).To(Equal(hook.Allow), out.PermissionDecisionReason)
	})

	It("does not admit the same search through Bash from another working directory", func() {
		out := decide("/tmp", "Bash", map[string]any{"command": "grep -r SECRET " + project})
		Expect(out.PermissionDecision).NotTo(Equal(hook.Allow), out.PermissionDecisionReason)
	})
})
