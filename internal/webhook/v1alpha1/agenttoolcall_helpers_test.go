package v1alpha1_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/testenv"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
	pkgagent "github.com/toolgate/toolgate/pkg/agent"
)

// Timeouts for waiting on the controllers and on the webhook's informer cache.
const (
	waitTimeout  = 30 * time.Second
	waitInterval = 50 * time.Millisecond
	// agentSA is the ServiceAccount every project's plans name.
	agentSA = "agent"
	// planName is the name of a project's main plan.
	planName = "plan"
)

// toolRole names one of the three tools of the feature's Background.
type toolRole string

const (
	writer     toolRole = "writer"      // "test/writer": writes, safe, not checkpointable
	unsafeTool toolRole = "unsafe-tool" // "test/unsafe-tool": unsafe, does not write
	reader     toolRole = "reader"      // "test/reader": read-only and safe
)

// project is one test's world: a fresh namespace, the Background's tools registered under names
// unique to it, and an agent that authenticates as ServiceAccount agentSA with a real token.
type project struct {
	ns     string
	cfg    *rest.Config // the agent's REST config
	agent  client.Client
	agents map[string]client.Client // ServiceAccount name -> its client, agentSA included
	tools  map[toolRole]string      // role -> AgentTool name
}

// newProject creates a namespace, registers the Background's tools (each with the skill category
// categories gives it, none otherwise) and returns the project with its agent.
func newProject(categories map[toolRole]string) *project {
	GinkgoHelper()
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "call-"}}
	Expect(k8sClient.Create(ctx, n)).To(Succeed())
	p := &project{ns: n.Name, tools: map[toolRole]string{}, agents: map[string]client.Client{}}
	var err error
	p.cfg, err = testenv.AgentConfig(ctx, cluster.Config, p.ns, agentSA)
	Expect(err).NotTo(HaveOccurred())
	p.agent, err = client.New(p.cfg, client.Options{Scheme: cluster.Scheme})
	Expect(err).NotTo(HaveOccurred())
	p.agents[agentSA] = p.agent

	specs := map[toolRole]safetyv1alpha1.AgentToolSpec{
		writer:     {Writes: true, ActionClass: safetyv1alpha1.ActionClassWrite},
		unsafeTool: {Unsafe: true, ActionClass: safetyv1alpha1.ActionClassExecute},
		reader:     {ActionClass: safetyv1alpha1.ActionClassRead},
	}
	for role, spec := range specs {
		spec.SkillCategory = categories[role]
		spec.Description = fmt.Sprintf("test/%s of namespace %s", role, p.ns)
		t := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: p.ns + "-" + string(role)}, Spec: spec}
		createCluster(t)
		p.tools[role] = t.Name
	}
	return p
}

// newAgent creates another ServiceAccount in the project, with the same agent role, and returns
// its client.
func (p *project) newAgent(name string) client.Client {
	GinkgoHelper()
	c, err := testenv.Agent(ctx, cluster.Config, cluster.Scheme, p.ns, name)
	Expect(err).NotTo(HaveOccurred())
	p.agents[name] = c
	return c
}

// createCluster creates a cluster-scoped object and deletes it when the test ends.
func createCluster(obj client.Object) {
	GinkgoHelper()
	Expect(k8sClient.Create(ctx, obj)).To(Succeed())
	DeferCleanup(func() { _ = k8sClient.Delete(ctx, obj) })
}

// profileWith is "a safety profile with X": a spec in which nothing restricts (no sandbox, no
// checkpoints, no approval, no limits beyond the API's maximum of 100 retries) except what
// restrict sets. Like the engine's zero profile, unsafe tools stay denied unless restrict allows
// them. Every field is set explicitly, because the CRD and the engine default an unset
// requireSandbox and requireCheckpoints to true and maxRetriesPerStep to 3.
func profileWith(restrict func(*safetyv1alpha1.SafetyProfileSpec)) safetyv1alpha1.SafetyProfileSpec {
	spec := safetyv1alpha1.SafetyProfileSpec{
		RequireSandbox:       new(false),
		RequireCheckpoints:   new(false),
		AllowUnsafeTools:     new(false),
		RequireHumanApproval: new(false),
		ReadOnly:             new(false),
		MaxRetriesPerStep:    new(int32(100)),
		EnforcementMode:      safetyv1alpha1.EnforcementModeEnforce,
	}
	if restrict != nil {
		restrict(&spec)
	}
	return spec
}

// profile creates a SafetyProfile named after the project and returns a reference to it.
func (p *project) profile(spec safetyv1alpha1.SafetyProfileSpec) *safetyv1alpha1.ProfileRef {
	GinkgoHelper()
	sp := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: p.ns + "-profile"}, Spec: spec}
	createCluster(sp)
	return spRef(sp.Name)
}

func spRef(name string) *safetyv1alpha1.ProfileRef {
	return &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: name}
}

// plan creates an AgentPlan (for agentSA unless spec names another of the project's agents), waits
// until the controller has locked it and until the webhook's cache shows it locked and every tool
// registered.
func (p *project) plan(name string, spec safetyv1alpha1.AgentPlanSpec) {
	GinkgoHelper()
	plan := p.unlockedPlan(name, spec)
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
		g.Expect(plan.Status.Snapshot).NotTo(BeNil())
		g.Expect(meta.IsStatusConditionTrue(plan.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)).To(BeTrue())
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	for _, tool := range p.tools {
		awaitWebhookSees(p.agents[plan.Spec.ServiceAccountName], p.call(name, tool, "probe", "probe/"+tool))
	}
}

// unlockedPlan creates an AgentPlan without waiting for it to lock.
func (p *project) unlockedPlan(name string, spec safetyv1alpha1.AgentPlanSpec) *safetyv1alpha1.AgentPlan {
	GinkgoHelper()
	if spec.ServiceAccountName == "" {
		spec.ServiceAccountName = agentSA
	}
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: name}, Spec: spec}
	Expect(k8sClient.Create(ctx, plan)).To(Succeed())
	return plan
}

// call builds (does not submit) a call of the project's plan for a tool and step, touching paths.
func (p *project) call(plan, tool, step string, paths ...string) *safetyv1alpha1.AgentToolCall {
	return &safetyv1alpha1.AgentToolCall{
		ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, GenerateName: "call-"},
		Spec: safetyv1alpha1.AgentToolCallSpec{Plan: plan, Tool: tool, Step: step,
			Arguments: safetyv1alpha1.ToolArguments{Paths: paths}},
	}
}

// awaitWebhookSees waits until the webhook's informer cache shows what the API server already
// shows: the call's plan, locked, and its tool. It probes with dry-run creates, which the webhook
// evaluates without observing anything (no attempt, no loop count) and the API server never
// stores, so probing changes nothing the test asserts on.
func awaitWebhookSees(c client.Client, call *safetyv1alpha1.AgentToolCall) {
	GinkgoHelper()
	stale := []string{webhookv1alpha1.ReasonPlanNotFound, webhookv1alpha1.ReasonPlanNotLocked, webhookv1alpha1.ReasonToolNotRegistered}
	Eventually(func() string {
		return reasonOf(c.Create(ctx, call.DeepCopy(), client.DryRunAll))
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).ShouldNot(BeElementOf(stale))
}

// awaitDecision waits until a dry-run of call gets reason ("" for admitted): the way to wait for
// the webhook's cache to show usage the controllers just wrote.
func awaitDecision(c client.Client, call *safetyv1alpha1.AgentToolCall, reason string) {
	GinkgoHelper()
	Eventually(func() string {
		return reasonOf(c.Create(ctx, call.DeepCopy(), client.DryRunAll))
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Equal(reason))
}

// reasonOf returns the reason code of an admission denial ("" for nil, "?" for an error that is
// not a denial with causes).
func reasonOf(err error) string {
	if err == nil {
		return ""
	}
	if t := causeOf(err).Type; t != "" {
		return string(t)
	}
	return "?"
}

// causeOf returns the first cause of an API error, or the zero cause.
func causeOf(err error) metav1.StatusCause {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return metav1.StatusCause{}
	}
	if d := status.Status().Details; d != nil && len(d.Causes) > 0 {
		return d.Causes[0]
	}
	return metav1.StatusCause{}
}

// causeFields is the call field each reason points the agent at.
var causeFields = map[string]string{
	webhookv1alpha1.ReasonPlanNotFound:          "spec.plan",
	webhookv1alpha1.ReasonPlanNotLocked:         "spec.plan",
	webhookv1alpha1.ReasonAgentIdentityMismatch: "spec.plan",
	webhookv1alpha1.ReasonToolNotRegistered:     "spec.tool",
	safety.ReasonToolAccessDenied:               "spec.tool",
	safety.ReasonToolCheckpointRequired:         "spec.tool",
	safety.ReasonToolSafetyViolation:            "spec.tool",
	safety.ReasonToolSandboxRequired:            "spec.sandboxId",
	safety.ReasonToolHumanApprovalRequired:      "spec",
	safety.ReasonToolCostLimitExceeded:          "spec.plan",
	safety.ReasonToolRetryLimitExceeded:         "spec.step",
	safety.ReasonToolLoopDetected:               "spec",
	safety.ReasonToolArgumentRuleViolated:       "spec.arguments",
}

// mustDeny asserts that err is the webhook's denial: HTTP 403, the first cause typed with reason
// and naming the offending field, the message carrying "[reason]" and every phrase. It returns the
// denial's detail (the message after the prefix).
// admittedAmong counts the admitted submissions among errs; every other must be a denial with
// reason and phrases.
// submitInParallel submits n calls of tool to plan at once, each of a step of its own, and
// returns their answers.
func (p *project) submitInParallel(plan, tool string, n int) []error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range errs {
		wg.Go(func() {
			errs[i] = submit(p.agent, p.call(plan, tool, fmt.Sprintf("s-%d", i), fmt.Sprintf("src/%d.go", i)))
		})
	}
	wg.Wait()
	return errs
}

func admittedAmong(errs []error, reason string, phrases ...string) int {
	GinkgoHelper()
	admitted := 0
	for _, err := range errs {
		if err == nil {
			admitted++
			continue
		}
		mustDeny(err, reason, phrases...)
	}
	return admitted
}

func mustDeny(err error, reason string, phrases ...string) string {
	GinkgoHelper()
	Expect(err).To(HaveOccurred(), "expected a %s denial, but the call was admitted", reason)
	var apiStatus apierrors.APIStatus
	Expect(errors.As(err, &apiStatus)).To(BeTrue(), "not an API status error: %v", err)
	status := apiStatus.Status()
	Expect(status.Code).To(Equal(int32(403)), "%v", err)
	Expect(status.Details).NotTo(BeNil(), "%v", err)
	Expect(status.Details.Causes).NotTo(BeEmpty(), "%v", err)
	cause := status.Details.Causes[0]
	Expect(string(cause.Type)).To(Equal(reason), "%v", err)
	if field, ok := causeFields[reason]; ok {
		Expect(cause.Field).To(Equal(field), "%v", err)
	}
	Expect(status.Message).To(ContainSubstring("denied the request: [" + reason + "] "))
	for _, phrase := range phrases {
		Expect(status.Message).To(ContainSubstring(phrase))
		Expect(cause.Message).To(ContainSubstring(phrase))
	}
	return cause.Message
}

// mustAdmit asserts that a submission was admitted and stored.
func mustAdmit(err error) {
	GinkgoHelper()
	Expect(err).NotTo(HaveOccurred(), "expected the call to be admitted")
}

// submit creates a call as c and returns the error.
func submit(c client.Client, call *safetyv1alpha1.AgentToolCall, opts ...client.CreateOption) error {
	return c.Create(ctx, call, opts...)
}

// attempts has the agent submit n admitted calls of plan's step with tool, each touching its own
// path so that none is a loop.
func (p *project) attempts(plan, tool, step string, n int) {
	GinkgoHelper()
	for i := range n {
		mustAdmit(submit(p.agent, p.call(plan, tool, step, fmt.Sprintf("src/%s/attempt-%d.go", step, i))))
	}
}

// report has c set the phase (and cost, unless empty) of an admitted call, as reportStatus does.
func report(c client.Client, call *safetyv1alpha1.AgentToolCall, phase safetyv1alpha1.CallPhase, cost string) error {
	status := safetyv1alpha1.AgentToolCallStatus{Phase: phase}
	if cost != "" {
		status.Cost = new(resource.MustParse(cost))
	}
	return reportStatus(c, call, status)
}

// reportStatus has c report status on an admitted call as an agent (or a cost reporter) does, with
// pkg/agent's status patch: an agent may not read calls, so it sends no resourceVersion, and the
// fields status leaves empty stay as stored. It returns the API server's error as it is (pkg/agent's
// Report turns a denial into a typed error). On success call holds the call as stored.
func reportStatus(c client.Client, call *safetyv1alpha1.AgentToolCall, status safetyv1alpha1.AgentToolCallStatus) error {
	sent := call.DeepCopy()
	sent.Status = status
	patch, err := pkgagent.StatusPatch(sent)
	if err != nil {
		return err
	}
	if err := c.Status().Patch(ctx, sent, patch); err != nil {
		return err
	}
	sent.DeepCopyInto(call)
	return nil
}

// trustAgent names the project's agent as a plan's cost reporter: what the agent reports is what
// its calls cost. That is trusting the agent; the feature's cost scenarios are written that way.
func trustAgent() *safetyv1alpha1.CostReporter {
	return &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: agentSA}
}

// spend has the plan's agent run one reader call per cost in plan, each its own step and file, report
// each as Succeeded with that cost (the plan must trust the agent's reports), and waits until the
// plan's usage shows the sum.
func (p *project) spend(plan string, costs ...string) {
	GinkgoHelper()
	planned := &safetyv1alpha1.AgentPlan{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: plan}, planned)).To(Succeed())
	agent := p.agents[planned.Spec.ServiceAccountName]
	sum := resource.MustParse("0")
	for i, cost := range costs {
		call := p.call(plan, p.tools[reader], fmt.Sprintf("spend-%d", i), fmt.Sprintf("src/spend-%d.go", i))
		mustAdmit(submit(agent, call))
		Expect(report(agent, call, safetyv1alpha1.CallPhaseSucceeded, cost)).To(Succeed())
		sum.Add(resource.MustParse(cost))
	}
	Eventually(func(g Gomega) {
		got := &safetyv1alpha1.AgentPlan{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: plan}, got)).To(Succeed())
		g.Expect(got.Status.Usage.AccumulatedCost).NotTo(BeEmpty())
		accumulated := resource.MustParse(got.Status.Usage.AccumulatedCost)
		g.Expect(accumulated.Cmp(sum)).To(BeZero(),
			"accumulated %s, want %s", got.Status.Usage.AccumulatedCost, sum.String())
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
}

// storedCalls lists the calls the API server stored in the project's namespace.
func (p *project) storedCalls() []safetyv1alpha1.AgentToolCall {
	GinkgoHelper()
	var calls safetyv1alpha1.AgentToolCallList
	Expect(k8sClient.List(ctx, &calls, client.InNamespace(p.ns))).To(Succeed())
	return calls.Items
}

// warnings collects the admission warnings a client receives.
type warnings struct {
	mu   sync.Mutex
	text []string
}

// HandleWarningHeader implements rest.WarningHandler.
func (w *warnings) HandleWarningHeader(_ int, _ string, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.text = append(w.text, text)
}

func (w *warnings) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.text)
}

// agentWithWarnings returns a client with the project agent's identity that records warnings.
func (p *project) agentWithWarnings() (client.Client, *warnings) {
	GinkgoHelper()
	w := &warnings{}
	cfg := rest.CopyConfig(p.cfg)
	cfg.WarningHandler = w
	c, err := client.New(cfg, client.Options{Scheme: cluster.Scheme})
	Expect(err).NotTo(HaveOccurred())
	return c, w
}
