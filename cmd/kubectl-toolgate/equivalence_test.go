package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/yaml"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/safety/scenarios"
	"github.com/toolgate/toolgate/internal/testenv"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
	pkgagent "github.com/toolgate/toolgate/pkg/agent"
)

// TestTestMatchesTheWebhook is the acceptance test of `kubectl toolgate test`: for every scenario
// of the engine's scenario table (scenarios.Feature, one per scenario of
// spec/safety-profile-enforcement.feature) it builds the scenario in a real cluster, has the plan's
// agent submit the call with its own ServiceAccount token so that the admission webhook decides
// it, and runs the plugin's test on the same objects as YAML, three ways:
//
//   - manifests: the objects as a person writes them (specs, and the costs the agent reported on
//     its earlier calls); the plugin locks the plan and accounts its usage offline;
//   - cluster: the same objects as the API server returns them after the operator acted (the
//     plan with its locked snapshot and usage), as `kubectl get -o yaml` would save them;
//   - flags: only the profile, the tools, the plan's spec and the call, with the cluster's facts
//     given as --accumulated-cost, --total-cost, --attempts and --approved.
//
// Each way must give the webhook's decision, reason code and message, word for word, and the hash
// of the snapshot the operator locked. The webhook's answer must also be the scenario's.
//
// The scenarios map onto the cluster as follows (DESIGN.md):
//   - "a safety profile with X" is a SafetyProfile in which only X restricts: every field set,
//     sandbox, checkpoint and approval requirements off, no cost limit, and the API's largest
//     retry limit (100; the API has no "unlimited") unless X sets one;
//   - "a context without a safety profile" cannot be expressed literally: the operator always
//     locks a profile. It is a plan locked to the built-in "unrestricted" profile, in which no
//     profile check restricts, which is what the engine does without a profile; the read-only
//     check comes from the plan's spec.readOnly as it does for every plan;
//   - the context's read-only and require_checkpoints flags are the plan's spec.readOnly and
//     spec.requireCheckpoints, its sandbox_id the call's spec.sandboxId;
//   - accumulated_cost is the cost the agent reports (status.cost) on an earlier call of the
//     plan; total_accumulated_cost the cost reported on a call of another plan in the namespace;
//     step_retry_count the number of earlier calls of the call's step;
//   - "human approval granted" is a ToolApproval a person (a user with a client certificate and
//     the shipped approver ClusterRole, never the agent) creates for the plan, tool and step;
//   - every namespace has a ProjectPolicy that changes no outcome (an unused action, a project
//     command), so that the locked snapshot, and its hash, hold project rules defaulted by the
//     schema;
//   - the Background's tools are AgentTools named <namespace>-writer, -unsafe-tool, -reader (object
//     names cannot hold the spec's "test/"), with the action class the engine derives for a call
//     without a command (write for the writer, read for the others); allow- and deny-lists name
//     them so. The schema rejects one name in both lists, so in "Deny-list takes precedence over
//     allow-list" the allow-list holds "<namespace>-*", a glob that admits the writer.
func TestTestMatchesTheWebhook(t *testing.T) {
	cl := startCluster(t)
	agree := 0
	for _, sc := range scenarios.Feature {
		if t.Run(sc.Name, func(t *testing.T) { checkEquivalence(t, cl, sc) }) {
			agree++
		}
	}
	t.Logf("the plugin's test gave the webhook's decision, reason and message in %d of %d scenarios, three ways each",
		agree, len(scenarios.Feature))
}

// stepUnderTest is the step of every call under test.
const stepUnderTest = "step-1"

// world is one scenario as cluster objects, in one namespace.
type world struct {
	t     *testing.T
	cl    *testenv.Cluster
	sc    scenarios.Scenario
	ns    string
	agent client.Client
	// tools, profile, plans, earlier calls and approvals as created (what a person writes).
	tools     map[scenarios.ToolRole]*safetyv1alpha1.AgentTool
	profile   *safetyv1alpha1.SafetyProfile // nil for a built-in
	project   *safetyv1alpha1.ProjectPolicy
	plans     []*safetyv1alpha1.AgentPlan
	earlier   []*safetyv1alpha1.AgentToolCall
	approvals []*safetyv1alpha1.ToolApproval
	call      *safetyv1alpha1.AgentToolCall
}

func checkEquivalence(t *testing.T, cl *testenv.Cluster, sc scenarios.Scenario) {
	ctx := context.Background()
	w := newWorld(t, cl, sc)
	locked := w.build()

	// The state the webhook decides on, as the API server returns it.
	exported := w.export()

	webhook, err := admissionOf(w.agent.Create(ctx, w.call.DeepCopy()))
	if err != nil {
		t.Fatal(err)
	}
	wantDecision := decisionAllow
	if sc.Want != "" {
		wantDecision = decisionDeny
	}
	if webhook.decision != wantDecision || webhook.reason != sc.Want {
		t.Fatalf("the webhook answered %s [%s] %s; the scenario wants %s %q", webhook.decision, webhook.reason,
			webhook.message, wantDecision, sc.Want)
	}
	for _, p := range sc.Phrases {
		if !strings.Contains(webhook.message, p) {
			t.Errorf("the webhook's message %q does not mention %q", webhook.message, p)
		}
	}

	dir := t.TempDir()
	objs := w.manifests()
	for _, v := range []struct {
		name string
		args []string
	}{
		{"manifests", []string{"-f", toYAML(t, dir, "manifests.yaml", objs...)}},
		{"cluster", []string{"-f", toYAML(t, dir, "cluster.yaml", exported...)}},
		{"flags", append([]string{"-f", toYAML(t, dir, "flags.yaml", w.specsOnly()...)}, w.factFlags()...)},
	} {
		code, out, errOut := runCLI(t, append([]string{"test", "-o", "json"}, v.args...)...)
		var got testResult
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Errorf("%s: exit %d, stderr %s, stdout %q", v.name, code, errOut, out)
			continue
		}
		wantCode := exitOK
		if webhook.decision == decisionDeny {
			wantCode = exitFailed
		}
		gotMessage := got.Message
		if got.Decision == decisionAllow {
			gotMessage = ""
		}
		if code != wantCode || got.Decision != webhook.decision || got.Reason != webhook.reason ||
			gotMessage != webhook.message {
			t.Errorf("%s: the plugin answered %s [%s] %q (exit %d); the webhook %s [%s] %q",
				v.name, got.Decision, got.Reason, gotMessage, code, webhook.decision, webhook.reason, webhook.message)
		}
		if got.SnapshotHash != locked {
			t.Errorf("%s: the plugin locked %s, the operator %s", v.name, got.SnapshotHash, locked)
		}
	}
}

func newWorld(t *testing.T, cl *testenv.Cluster, sc scenarios.Scenario) *world {
	t.Helper()
	w := &world{t: t, cl: cl, sc: sc, tools: map[scenarios.ToolRole]*safetyv1alpha1.AgentTool{}}
	w.ns = namespace(t, cl.Client, "equivalence-")
	var err error
	if w.agent, err = testenv.Agent(context.Background(), cl.Config, cl.Scheme, w.ns, "agent"); err != nil {
		t.Fatal(err)
	}
	return w
}

// build creates the scenario's objects and facts, waits until the webhook sees them, and returns
// the hash of the snapshot the operator locked the plan to.
func (w *world) build() string {
	t, sc := w.t, w.sc
	for _, bt := range scenarios.Background {
		spec := safetyv1alpha1.AgentToolSpec{
			Writes: bt.Writes, Unsafe: bt.Unsafe, Checkpointable: bt.Checkpointable, ActionClass: safetyv1alpha1.ActionClassRead,
			Description: "test/" + string(bt.Role) + " of the feature's Background",
		}
		if bt.Writes {
			spec.ActionClass = safetyv1alpha1.ActionClassWrite
		}
		if bt.Role == sc.Tool && sc.SkillCategory != nil {
			spec.SkillCategory = *sc.SkillCategory
		}
		tool := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: w.toolName(bt.Role)}, Spec: spec}
		w.tools[bt.Role] = tool.DeepCopy()
		create(t, w.cl.Client, tool)
	}
	w.projectPolicy()
	ref := w.profileRef()
	plan := w.plan("plan", "agent", ref)
	if sc.Context.TotalCost != "" {
		// Another agent's plan: a ServiceAccount has one active pod-less plan (PlanConflict).
		agent := w.agent
		var err error
		if w.agent, err = testenv.Agent(context.Background(), w.cl.Config, w.cl.Scheme, w.ns, "elsewhere"); err != nil {
			t.Fatal(err)
		}
		w.plan("elsewhere", "elsewhere", ref)
		w.spend("elsewhere", sc.Context.TotalCost)
		w.agent = agent
	}
	if sc.Context.AccumulatedCost != "" {
		w.spend("plan", sc.Context.AccumulatedCost)
	}
	for i := range sc.Context.StepRetryCount {
		w.submitEarlier("plan", sc.Tool, stepUnderTest, fmt.Sprintf("src/attempt-%d.go", i), "")
	}
	if n := sc.Context.StepRetryCount; n > 0 {
		// The plugin reads the attempts the plan's status holds; the gate stores them right after
		// its answers.
		eventually(w.t, "the plan's status counts the earlier attempts", func() error {
			got := &safetyv1alpha1.AgentPlan{}
			if err := w.cl.Client.Get(context.Background(), client.ObjectKey{Namespace: w.ns, Name: "plan"}, got); err != nil {
				return err
			}
			if a := got.Status.Usage.StepAttempts[stepUnderTest]; a != n {
				return fmt.Errorf("%d attempts stored, want %d", a, n)
			}
			return nil
		})
	}
	if sc.Context.HumanApproved {
		w.approve()
	}
	w.call = w.newCall("plan", sc.Tool, stepUnderTest, "src/under-test.go", sc.Context.SandboxID)
	w.call.Name = "under-test"
	w.awaitWebhook()
	return plan.Status.Snapshot.Hash
}

func (w *world) toolName(r scenarios.ToolRole) string { return w.ns + "-" + string(r) }

// profileRef creates "a safety profile with X" and returns the plan's reference to it, or refers
// to a built-in: the scenario's, or unrestricted for a context without a profile.
func (w *world) profileRef() *safetyv1alpha1.ProfileRef {
	sp := w.sc.Profile
	builtin := safety.BuiltinUnrestricted
	if sp != nil {
		builtin = sp.Builtin
	}
	if builtin != "" {
		return &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: builtin}
	}
	spec := safetyv1alpha1.SafetyProfileSpec{
		RequireSandbox: new(sp.RequireSandbox), RequireCheckpoints: new(sp.RequireCheckpoints),
		AllowUnsafeTools: new(sp.AllowUnsafeTools), RequireHumanApproval: new(sp.RequireHumanApproval),
		ReadOnly: new(false), AllowedSkillCategories: sp.AllowedSkillCategories,
		MaxRetriesPerStep: new(safety.MaxRetriesLimit), EnforcementMode: safetyv1alpha1.EnforcementModeEnforce,
	}
	if sp.MaxRetriesPerStep != nil {
		spec.MaxRetriesPerStep = new(*sp.MaxRetriesPerStep)
	}
	if sp.MaxCostPerPlan != "" {
		spec.MaxCostPerPlan = new(resource.MustParse(sp.MaxCostPerPlan))
	}
	if sp.MaxTotalCost != "" {
		spec.MaxTotalCost = new(resource.MustParse(sp.MaxTotalCost))
	}
	for _, r := range sp.DeniedTools {
		spec.DeniedTools = append(spec.DeniedTools, w.toolName(r))
	}
	if sp.AllowedTools != nil {
		spec.AllowedTools = []string{}
	}
	for _, r := range sp.AllowedTools {
		name := w.toolName(r)
		if slices.Contains(sp.DeniedTools, r) {
			name = w.ns + "-*" // the schema rejects the same name in both lists
		}
		spec.AllowedTools = append(spec.AllowedTools, name)
	}
	w.profile = &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: w.ns + "-profile"}, Spec: spec}
	create(w.t, w.cl.Client, w.profile.DeepCopy())
	return &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: w.profile.Name}
}

// projectPolicy gives the namespace a ProjectPolicy that changes no scenario's outcome: its one
// action names an AutomationProfile no plan uses, with the kind left to the schema's default, and
// its one project command is not run. The plans lock a copy of it, which their hash covers, so
// every scenario also checks that the plugin reads it as the API server stores it.
func (w *world) projectPolicy() {
	w.project = &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: w.ns, Name: "project"},
		Spec: safetyv1alpha1.ProjectPolicySpec{
			Actions:  []safetyv1alpha1.ProjectAction{{Name: "release", ProfileRef: &safetyv1alpha1.ProfileRef{Name: "unused"}}},
			Commands: []safetyv1alpha1.ProjectCommand{{ID: "unit-tests", Command: "go test ./..."}},
		}}
	create(w.t, w.cl.Client, w.project.DeepCopy())
}

// plan creates an AgentPlan for ServiceAccount sa and waits until the operator locked it. The
// scenarios' accumulated cost is what the agent reported, so the plan names the agent as its cost
// reporter.
func (w *world) plan(name, sa string, ref *safetyv1alpha1.ProfileRef) *safetyv1alpha1.AgentPlan {
	p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: w.ns, Name: name},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: sa, ProfileRef: ref,
			ReadOnly: w.sc.Context.ReadOnlyPlan, RequireCheckpoints: w.sc.Context.RequireCheckpoints,
			CostReporter: &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: sa}}}
	w.plans = append(w.plans, p.DeepCopy())
	create(w.t, w.cl.Client, p)
	return awaitLocked(w.t, w.cl.Client, w.ns, name)
}

func (w *world) newCall(plan string, tool scenarios.ToolRole, step, path, sandbox string,
) *safetyv1alpha1.AgentToolCall {
	return &safetyv1alpha1.AgentToolCall{
		ObjectMeta: metav1.ObjectMeta{Namespace: w.ns, Name: fmt.Sprintf("%s-%s-%d", plan, step, len(w.earlier))},
		Spec: safetyv1alpha1.AgentToolCallSpec{Plan: plan, Tool: w.toolName(tool), Step: step, SandboxID: sandbox,
			Arguments: safetyv1alpha1.ToolArguments{Paths: []string{path}}},
	}
}

// submitEarlier has the agent submit an earlier call, which must be admitted, and report cost on it.
func (w *world) submitEarlier(plan string, tool scenarios.ToolRole, step, path, cost string) {
	ctx := context.Background()
	call := w.newCall(plan, tool, step, path, w.sc.Context.SandboxID)
	w.awaitWebhookFor(call)
	if err := w.agent.Create(ctx, call.DeepCopy()); err != nil {
		w.t.Fatalf("an earlier call of the scenario was not admitted: %v", err)
	}
	if cost != "" {
		call.Status = safetyv1alpha1.AgentToolCallStatus{
			Phase: safetyv1alpha1.CallPhaseSucceeded, Cost: new(resource.MustParse(cost)),
		}
		if err := pkgagent.Report(ctx, w.agent, call); err != nil {
			w.t.Fatalf("reporting the cost of %s: %v", call.Name, err)
		}
	}
	w.earlier = append(w.earlier, call)
}

// spend has the agent run a reader call of plan that reports cost, and waits until the plan
// controller counted it into the plan's usage.
func (w *world) spend(plan, cost string) {
	w.submitEarlier(plan, scenarios.Reader, "spend", "src/spend.go", cost)
	want := safety.MustParseMoney(cost)
	eventually(w.t, "the plan controller counts the cost of plan "+plan, func() error {
		got := &safetyv1alpha1.AgentPlan{}
		if err := w.cl.Client.Get(context.Background(), client.ObjectKey{Namespace: w.ns, Name: plan}, got); err != nil {
			return err
		}
		if got.Status.Usage.AccumulatedCost == "" || safety.MustParseMoney(got.Status.Usage.AccumulatedCost).Cmp(want) != 0 {
			return fmt.Errorf("accumulated cost %q, want %s", got.Status.Usage.AccumulatedCost, cost)
		}
		return nil
	})
}

// approve has a person create a ToolApproval for the plan, the tool and the step under test.
func (w *world) approve() {
	name := w.ns + "@example.com"
	person, err := testenv.Person(context.Background(), w.cl.Env, w.cl.Scheme, name)
	if err != nil {
		w.t.Fatal(err)
	}
	a := &safetyv1alpha1.ToolApproval{ObjectMeta: metav1.ObjectMeta{Namespace: w.ns, Name: "approval"},
		Spec: safetyv1alpha1.ToolApprovalSpec{Plan: "plan", Tool: w.toolName(w.sc.Tool), Step: stepUnderTest,
			Approver: name, Reason: "the equivalence test approves it"}}
	if err := person.Client.Create(context.Background(), a.DeepCopy()); err != nil {
		w.t.Fatalf("a person approving the call: %v", err)
	}
	w.approvals = append(w.approvals, a)
}

// awaitWebhook waits until the webhook's cache shows what the API server shows: the plan locked,
// the tools registered and, when the scenario's answer depends on usage, the usage (costs only
// grow, so a lagging cache could only admit what it should deny; the wait is for the scenario's
// answer). Dry runs change nothing: the webhook neither counts them as attempts nor for loops.
func (w *world) awaitWebhook() {
	w.awaitWebhookFor(w.call)
	if w.sc.Want == "" || w.sc.Context.AccumulatedCost == "" && w.sc.Context.TotalCost == "" {
		return
	}
	eventually(w.t, "the webhook's cache shows the usage", func() error {
		r, err := admissionOf(w.agent.Create(context.Background(), w.call.DeepCopy(), client.DryRunAll))
		if err != nil {
			return err
		}
		if r.reason != w.sc.Want {
			return fmt.Errorf("dry run answered [%s] %s", r.reason, r.message)
		}
		return nil
	})
}

func (w *world) awaitWebhookFor(call *safetyv1alpha1.AgentToolCall) {
	eventually(w.t, "the webhook sees plan "+call.Spec.Plan+" and tool "+call.Spec.Tool, func() error {
		r, err := admissionOf(w.agent.Create(context.Background(), call.DeepCopy(), client.DryRunAll))
		if err != nil {
			return err
		}
		if stale[r.reason] {
			return fmt.Errorf("dry run answered [%s] %s", r.reason, r.message)
		}
		return nil
	})
}

// manifests are the scenario's objects as a person writes them, the call under test last.
func (w *world) manifests() []client.Object {
	objs := w.specsOnly()
	objs = objs[:len(objs)-1]
	for _, p := range w.plans[1:] {
		objs = append(objs, written(p))
	}
	for _, c := range w.earlier {
		objs = append(objs, written(c))
	}
	for _, a := range w.approvals {
		objs = append(objs, written(a))
	}
	return append(objs, written(w.call))
}

// specsOnly are the profiles, the tools, the plan's spec and the call under test, as written.
func (w *world) specsOnly() []client.Object {
	objs := []client.Object{written(w.project)}
	if w.profile != nil {
		objs = append(objs, written(w.profile))
	}
	for _, bt := range scenarios.Background {
		objs = append(objs, written(w.tools[bt.Role]))
	}
	return append(objs, written(w.plans[0]), written(w.call))
}

// written is an object as a person writes it: without what the API server sets in its metadata.
func written(o client.Object) client.Object {
	o = o.DeepCopyObject().(client.Object)
	o.SetUID("")
	o.SetResourceVersion("")
	o.SetGeneration(0)
	o.SetCreationTimestamp(metav1.Time{})
	o.SetFinalizers(nil)
	o.SetManagedFields(nil)
	return o
}

// factFlags are the cluster's facts about the call as flags of test.
func (w *world) factFlags() []string {
	c := w.sc.Context
	var flags []string
	if c.AccumulatedCost != "" {
		flags = append(flags, "--accumulated-cost", c.AccumulatedCost)
	}
	if c.TotalCost != "" {
		flags = append(flags, "--total-cost", c.TotalCost)
	}
	if c.StepRetryCount > 0 {
		flags = append(flags, "--attempts", fmt.Sprint(c.StepRetryCount))
	}
	if c.HumanApproved {
		flags = append(flags, "--approved")
	}
	return flags
}

// export reads every object of the scenario back from the API server, the call under test last.
func (w *world) export() []client.Object {
	ctx := context.Background()
	objs := []client.Object{w.project.DeepCopy()}
	if w.profile != nil {
		objs = append(objs, w.profile.DeepCopy())
	}
	for _, bt := range scenarios.Background {
		objs = append(objs, w.tools[bt.Role].DeepCopy())
	}
	for _, p := range w.plans {
		objs = append(objs, p.DeepCopy())
	}
	for _, o := range objs {
		if err := w.cl.Client.Get(ctx, client.ObjectKeyFromObject(o), o); err != nil {
			w.t.Fatal(err)
		}
	}
	var calls safetyv1alpha1.AgentToolCallList
	var approvals safetyv1alpha1.ToolApprovalList
	if err := w.cl.Client.List(ctx, &calls, client.InNamespace(w.ns)); err != nil {
		w.t.Fatal(err)
	}
	if err := w.cl.Client.List(ctx, &approvals, client.InNamespace(w.ns)); err != nil {
		w.t.Fatal(err)
	}
	for i := range calls.Items {
		objs = append(objs, &calls.Items[i])
	}
	for i := range approvals.Items {
		objs = append(objs, &approvals.Items[i])
	}
	return append(objs, w.call)
}

// admissionResult is how the webhook answered a submission: allow, or deny with the reason code
// and message of the denial's first cause.
type admissionResult struct {
	decision, reason, message string
}

func admissionOf(err error) (admissionResult, error) {
	if err == nil {
		return admissionResult{decision: decisionAllow}, nil
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Details == nil || len(status.Status().Details.Causes) == 0 {
		return admissionResult{}, fmt.Errorf("not an admission denial with a cause: %w", err)
	}
	cause := status.Status().Details.Causes[0]
	if !strings.Contains(status.Status().Message, "["+string(cause.Type)+"] "+cause.Message) {
		return admissionResult{}, fmt.Errorf("message %q does not carry [%s] %s",
			status.Status().Message, cause.Type, cause.Message)
	}
	return admissionResult{decision: decisionDeny, reason: string(cause.Type), message: cause.Message}, nil
}

// stale are the integrity reasons a webhook whose cache lags the API server may give.
var stale = map[string]bool{
	webhookv1alpha1.ReasonPlanNotFound: true, webhookv1alpha1.ReasonPlanNotLocked: true,
	webhookv1alpha1.ReasonToolNotRegistered: true,
}

// toYAML writes objects as one multi-document YAML file, each with its apiVersion and kind, and
// returns its path.
func toYAML(t *testing.T, dir, name string, objs ...client.Object) string {
	t.Helper()
	docs := make([]string, 0, len(objs))
	for _, o := range objs {
		o = o.DeepCopyObject().(client.Object)
		gvk, err := apiutil.GVKForObject(o, shared.Scheme)
		if err != nil {
			t.Fatal(err)
		}
		o.GetObjectKind().SetGroupVersionKind(gvk)
		o.SetManagedFields(nil)
		data, err := yaml.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(data))
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(strings.Join(docs, "---\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
