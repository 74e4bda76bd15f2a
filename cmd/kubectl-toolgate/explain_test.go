package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/testenv"
)

// TestExplain locks plans at every precedence level through the real operator and checks that
// explain names the level, says why it won, lists the sources with their lock-time versions and
// whether they changed since, and prints the hash the plan is locked to.
func TestExplain(t *testing.T) {
	cl := startCluster(t)
	c := cl.Client
	ctx := context.Background()
	ns := namespace(t, c, "explain-")
	kc := kubeconfig(t, cl.Env, ns)

	careful := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: ns + "-careful"},
		Spec: safetyv1alpha1.SafetyProfileSpec{RequireSandbox: new(true), RequireCheckpoints: new(false)}}
	create(t, c, careful)
	supervised := &safetyv1alpha1.AutomationProfile{ObjectMeta: metav1.ObjectMeta{Name: ns + "-supervised"},
		Spec: safetyv1alpha1.AutomationProfileSpec{
			SafetyProfileRef: &safetyv1alpha1.SafetyProfileReference{Name: careful.Name},
		}}
	create(t, c, supervised)
	create(t, c, &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"},
		Spec: safetyv1alpha1.ProjectPolicySpec{
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "read-only"},
			Actions: []safetyv1alpha1.ProjectAction{
				{Name: "deploy", ProfileRef: &safetyv1alpha1.ProfileRef{Name: supervised.Name}},
				{Name: "lint"},
			},
		}})
	plan := func(name string, spec safetyv1alpha1.AgentPlanSpec) *safetyv1alpha1.AgentPlan {
		t.Helper()
		// One ServiceAccount per plan: a ServiceAccount has one active pod-less plan (PlanConflict).
		spec.ServiceAccountName = "agent-" + name
		create(t, c, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec})
		return awaitLocked(t, c, ns, name)
	}

	t.Run("an action's AutomationProfile, its SafetyProfile, then an edit since the lock", func(t *testing.T) {
		p := plan("deploy-42", safetyv1alpha1.AgentPlanSpec{Action: "deploy"})
		code, out, errOut := runCLI(t, "explain", "deploy-42", "--kubeconfig", kc)
		if code != exitOK || errOut != "" {
			t.Fatalf("exit %d, stderr %s", code, errOut)
		}
		for _, want := range []string{
			fmt.Sprintf("AgentPlan %s/deploy-42 is locked (epoch 1 at %s)\n",
				ns, p.Status.Snapshot.LockedAt.UTC().Format("2006-01-02T15:04:05Z")),
			fmt.Sprintf("  profile:     AutomationProfile %q\n", supervised.Name),
			"  provenance:  Action (autonomy Default, mode Enforce)\n",
			fmt.Sprintf(`  why:         the plan has no spec.profileRef; its spec.action "deploy" is an action `+
				`of ProjectPolicy `+
				`%s/project, which names AutomationProfile %q; an action's profile wins over the project's and the global default`,
				ns, supervised.Name),
			fmt.Sprintf(`AutomationProfile %q takes its safety from SafetyProfile %q (spec.safetyProfileRef)`,
				supervised.Name, careful.Name),
			"  snapshot:    " + p.Status.Snapshot.Hash + "\n",
			fmt.Sprintf("    AutomationProfile %s  uid %s, resourceVersion %s, generation 1: unchanged since the lock\n",
				supervised.Name, supervised.UID, p.Status.Snapshot.Sources[0].ResourceVersion),
			fmt.Sprintf("    SafetyProfile %s  uid %s,", careful.Name, careful.UID),
			fmt.Sprintf("    ProjectPolicy %s/project  uid ", ns),
			"  effective:   requireSandbox=true, requireCheckpoints=false, allowUnsafeTools=false",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}

		if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			if err := c.Get(ctx, client.ObjectKeyFromObject(careful), careful); err != nil {
				return err
			}
			careful.Spec.MaxCostPerPlan = new(resource.MustParse("5"))
			return c.Update(ctx, careful)
		}); err != nil {
			t.Fatal(err)
		}
		code, out, _ = runCLI(t, "explain", "deploy-42", "--kubeconfig", kc)
		for _, want := range []string{
			fmt.Sprintf("    SafetyProfile %s  uid %s, resourceVersion %s, generation 1: changed since the lock "+
				"(generation 2 now)",
				careful.Name, careful.UID, p.Status.Snapshot.Sources[1].ResourceVersion),
			"objects changed since the lock; the plan keeps its snapshot until it is re-locked " +
				"(annotate it safety.toolgate.dev/relock=",
			"maxCostPerPlan=none",
		} {
			if code != exitOK || !strings.Contains(out, want) {
				t.Errorf("exit %d; output lacks %q:\n%s", code, want, out)
			}
		}

		code, out, _ = runCLI(t, "explain", "deploy-42", "--kubeconfig", kc, "-o", "json")
		var ex explanation
		if err := json.Unmarshal([]byte(out), &ex); err != nil || code != exitOK {
			t.Fatalf("exit %d, %v:\n%s", code, err, out)
		}
		if !ex.Locked || ex.Provenance != "Action" || ex.SnapshotHash != p.Status.Snapshot.Hash || ex.Epoch != 1 ||
			ex.Profile != (resultProfile{Kind: "AutomationProfile", Name: supervised.Name}) || len(ex.Sources) != 3 ||
			ex.Sources[1].Now != "changed" || ex.Sources[0].Now != "unchanged" || ex.Condition == nil ||
			ex.Condition.Reason != safetyv1alpha1.AgentPlanLockedReason || ex.LockedAt == nil {
			t.Fatalf("%+v", ex)
		}
	})

	t.Run("the plan's own profileRef, from another namespace with -n", func(t *testing.T) {
		plan("pinned", safetyv1alpha1.AgentPlanSpec{Action: "deploy",
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "sandboxed"}})
		other := kubeconfig(t, cl.Env, "default")
		code, out, _ := runCLI(t, "explain", "-n", ns, "pinned", "--kubeconfig", other)
		if code != exitOK || !strings.Contains(out, `  profile:     SafetyProfile "sandboxed"`) ||
			!strings.Contains(out, `why:         the plan's spec.profileRef names SafetyProfile "sandboxed"; `+
				`the plan's own choice `+
				"wins over its action, the project and the global default") {
			t.Fatalf("exit %d\n%s", code, out)
		}
	})

	t.Run("the project's profileRef when the action names none", func(t *testing.T) {
		plan("linting", safetyv1alpha1.AgentPlanSpec{Action: "lint"})
		code, out, _ := runCLI(t, "explain", "linting", "--kubeconfig", kc)
		want := fmt.Sprintf(`why:         the plan has no spec.profileRef, and its spec.action "lint" names no profile in `+
			`ProjectPolicy %s/project; ProjectPolicy %s/project names SafetyProfile "read-only" in spec.profileRef, `+
			"which wins over the global default", ns, ns)
		if code != exitOK || !strings.Contains(out, "provenance:  Project") || !strings.Contains(out, want) {
			t.Fatalf("exit %d, want %q\n%s", code, want, out)
		}
	})

	bare := namespace(t, c, "explain-bare-")
	t.Run("the specification's default when nothing names a profile", func(t *testing.T) {
		create(t, c, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: bare, Name: "plain"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent"}})
		awaitLocked(t, c, bare, "plain")
		code, out, _ := runCLI(t, "explain", "-n", bare, "plain", "--kubeconfig", kc)
		want := "why:         the plan has no spec.profileRef and no spec.action; the namespace has no " +
			"ProjectPolicy " + bare +
			"/project; and no AutomationProfile is annotated safety.toolgate.dev/is-default=true: the specification's " +
			"default profile applies"
		if code != exitOK || !strings.Contains(out, "  profile:     the specification's default profile\n") ||
			!strings.Contains(out, "provenance:  Default") || !strings.Contains(out, want) ||
			!strings.Contains(out, "  sources:     none\n") {
			t.Fatalf("exit %d, want %q\n%s", code, want, out)
		}
	})

	t.Run("the global default AutomationProfile", func(t *testing.T) {
		def := &safetyv1alpha1.AutomationProfile{ObjectMeta: metav1.ObjectMeta{Name: ns + "-default",
			Annotations: map[string]string{safetyv1alpha1.DefaultAutomationProfileAnnotation: "true"}},
			Spec: safetyv1alpha1.AutomationProfileSpec{Level: safetyv1alpha1.AutonomyLevelYolo,
				Safety: &safetyv1alpha1.SafetyProfileSpec{RequireSandbox: new(false)}}}
		create(t, c, def)
		create(t, c, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: bare, Name: "global"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent-global"}})
		awaitLocked(t, c, bare, "global")
		code, out, _ := runCLI(t, "explain", "-n", bare, "global", "--kubeconfig", kc)
		for _, want := range []string{
			"provenance:  Global (autonomy Yolo, mode Enforce)",
			fmt.Sprintf("the namespace has no ProjectPolicy %s/project; AutomationProfile %q is annotated "+
				"safety.toolgate.dev/is-default=true, the cluster's global default", bare, def.Name),
			fmt.Sprintf("AutomationProfile %q names no SafetyProfile: its safety is inline (spec.safety)\n", def.Name),
		} {
			if code != exitOK || !strings.Contains(out, want) {
				t.Errorf("exit %d, output lacks %q\n%s", code, want, out)
			}
		}
	})

	t.Run("a plan that cannot be locked: the Locked condition, exit 1", func(t *testing.T) {
		create(t, c, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "stuck"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent-stuck",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: ns + "-missing"}}})
		want := fmt.Sprintf("AgentPlan %s/stuck is not locked: [ProfileNotFound] SafetyProfile %q named by spec.profileRef "+
			"of the plan does not exist\nEvery call of the plan is denied PlanNotLocked until it is.\n", ns, ns+"-missing") +
			"  active:      yes, until " + planDeadline(t, c, ns, "stuck") + "\n" +
			"  pod:         none: the only active plan of its ServiceAccount\n" +
			"  tools:       none pinned yet (each is pinned at the plan's first call of it)\n"
		eventually(t, "explain shows the Locked condition", func() error {
			code, out, _ := runCLI(t, "explain", "stuck", "--kubeconfig", kc)
			if code != exitFailed || out != want {
				return fmt.Errorf("exit %d, output %q, want %q", code, out, want)
			}
			return nil
		})
		code, out, _ := runCLI(t, "explain", "stuck", "--kubeconfig", kc, "-o", "json")
		var ex explanation
		if err := json.Unmarshal([]byte(out), &ex); err != nil || code != exitFailed || ex.Locked ||
			ex.Condition == nil || ex.Condition.Reason != "ProfileNotFound" || ex.Condition.Status != "False" {
			t.Fatalf("exit %d, %v: %s", code, err, out)
		}
	})

	t.Run("a plan bound to a pod, with the tools it pinned", func(t *testing.T) {
		pod, err := testenv.AgentPod(ctx, cl.Config, cl.Scheme, ns, "agent-bound", "bound-pod")
		if err != nil {
			t.Fatal(err)
		}
		create(t, c, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: ns + "-read"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead, SkillCategory: "code"}})
		create(t, c, &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bound"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "agent-bound", PodName: "bound-pod",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "unrestricted"}}})
		awaitLocked(t, c, ns, "bound")
		call := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "first-read"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "bound", Tool: ns + "-read", Step: "read",
				Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"README.md"}}}}
		eventually(t, "the pod's call is admitted", func() error { return pod.Client.Create(ctx, call.DeepCopy()) })
		code, out, _ := runCLI(t, "explain", "bound", "--kubeconfig", kc)
		for _, want := range []string{
			fmt.Sprintf("  pod:         bound-pod (uid %s): calls only from a token bound to it\n", pod.Pod.UID),
			"  active:      yes, until ",
			fmt.Sprintf("    %s-read  writes=false unsafe=false checkpointable=false class=read category=code  "+
				"(generation 1, pinned ", ns),
		} {
			if code != exitOK || !strings.Contains(out, want) {
				t.Errorf("exit %d, output lacks %q\n%s", code, want, out)
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		code, _, errOut := runCLI(t, "explain", "no-such-plan", "--kubeconfig", kc)
		if code != exitUsage || !strings.Contains(errOut, fmt.Sprintf("reading AgentPlan %s/no-such-plan: ", ns)) ||
			!strings.Contains(errOut, "not found") {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		code, _, errOut = runCLI(t, "explain", "--kubeconfig", kc)
		if code != exitUsage || !strings.Contains(errOut, "want one PLAN") {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		code, _, errOut = runCLI(t, "explain", "x", "--kubeconfig", kc+"-missing")
		if code != exitUsage || !strings.Contains(errOut, "loading the kubeconfig") {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
	})
}

// planDeadline reads a plan (locked or not) and returns when it stops being active, as explain prints it.
func planDeadline(t *testing.T, c client.Client, ns, name string) string {
	t.Helper()
	p := &safetyv1alpha1.AgentPlan{}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, p); err != nil {
		t.Fatal(err)
	}
	return policy.PlanDeadline(p).UTC().Format(time.RFC3339)
}
