package v1alpha1_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// scenario is one scenario of spec/safety-profile-enforcement.feature as the cluster sees it: the
// Background's tools registered as AgentTools, the profile a SafetyProfile the plan references and
// the operator locks, the context's facts produced the way they are in production (the plan's
// readOnly flag, costs the agent reported on earlier calls, earlier calls of the same step), and
// the tool run as an AgentToolCall the plan's agent submits with its own token.
type scenario struct {
	// profile builds "a safety profile with X" from the project's tool names; nil when builtin names
	// the profile.
	profile func(tools map[toolRole]string) safetyv1alpha1.SafetyProfileSpec
	builtin string
	// readOnlyPlan is the context's read-only flag (AgentPlan spec.readOnly).
	readOnlyPlan bool
	// tool is the tool the scenario runs; category its skill category in the registry.
	tool     toolRole
	category string
	// sandboxID is the context's sandbox_id (the call's spec.sandboxId).
	sandboxID string
	// spent are the costs the plan's earlier calls reported (its accumulated_cost); spentElsewhere
	// those of another plan in the namespace (adding up to total_accumulated_cost).
	spent, spentElsewhere []string
	// earlier is the number of earlier attempts of the step (step_retry_count).
	earlier int
	// approved is "human approval granted": a person's ToolApproval for the plan and tool.
	approved bool
	// want is the expected reason code, "" for admitted; phrases the denial must mention.
	want    string
	phrases []string
}

// with is "a safety profile with X" where X does not name tools.
func with(restrict func(*safetyv1alpha1.SafetyProfileSpec)) func(map[toolRole]string) safetyv1alpha1.SafetyProfileSpec {
	return func(map[toolRole]string) safetyv1alpha1.SafetyProfileSpec { return profileWith(restrict) }
}

// withTools is "a safety profile with X" where X names tools of the Background.
func withTools(restrict func(*safetyv1alpha1.SafetyProfileSpec, map[toolRole]string)) func(map[toolRole]string) safetyv1alpha1.SafetyProfileSpec {
	return func(tools map[toolRole]string) safetyv1alpha1.SafetyProfileSpec {
		return profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { restrict(s, tools) })
	}
}

func money(s string) *resource.Quantity { return new(resource.MustParse(s)) }

const stepUnderTest = "step-1"

var _ = Describe("AgentToolCall admission: spec/safety-profile-enforcement.feature", func() {
	DescribeTable("every scenario, as an agent's AgentToolCall against a locked plan",
		func(s scenario) {
			p := newProject(map[toolRole]string{s.tool: s.category})
			ref := spRef(s.builtin)
			if s.profile != nil {
				ref = p.profile(s.profile(p.tools))
			}
			// accumulated_cost is what the agent reported, so these plans trust the agent's reports.
			var reporter *safetyv1alpha1.CostReporter
			if len(s.spent)+len(s.spentElsewhere) > 0 {
				reporter = trustAgent()
			}
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref, ReadOnly: s.readOnlyPlan, CostReporter: reporter})
			if len(s.spentElsewhere) > 0 {
				// Another agent's plan: one ServiceAccount has one pod-less plan (PlanConflict).
				p.newAgent("elsewhere")
				var elsewhereReporter *safetyv1alpha1.CostReporter
				if reporter != nil {
					elsewhereReporter = &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "elsewhere"}
				}
				p.plan("elsewhere", safetyv1alpha1.AgentPlanSpec{ProfileRef: ref, ServiceAccountName: "elsewhere",
					CostReporter: elsewhereReporter})
				p.spend("elsewhere", s.spentElsewhere...)
			}
			if len(s.spent) > 0 {
				p.spend(planName, s.spent...)
			}
			p.attempts(planName, p.tools[s.tool], stepUnderTest, s.earlier)
			if s.approved {
				p.approve(newPerson(), p.tools[s.tool], nil)
			}

			call := p.call(planName, p.tools[s.tool], stepUnderTest, "src/under-test.go")
			call.Spec.SandboxID = s.sandboxID
			// A denial that depends on usage waits for the webhook's cache to show it. An admission
			// needs no wait: costs only grow, so a lagging cache could only under-count, and the
			// at-limit entries prove the webhook does see the cost.
			if s.want != "" && len(s.spent)+len(s.spentElsewhere) > 0 {
				By("waiting until the webhook's cache shows the usage the controller wrote")
				awaitDecision(p.agent, call, s.want)
			}
			err := submit(p.agent, call)
			if s.want == "" {
				mustAdmit(err)
				Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(call), &safetyv1alpha1.AgentToolCall{})).To(Succeed())
				return
			}
			mustDeny(err, s.want, s.phrases...)
			Expect(p.storedCalls()).To(HaveLen(len(s.spent)+len(s.spentElsewhere)+s.earlier), "a denied call is never stored")
		},

		// ---- Unsafe tool gating ----
		Entry("Unsafe tool is blocked when safety profile forbids unsafe tools", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.AllowUnsafeTools = new(false) }),
			tool:    unsafeTool, want: safety.ReasonToolSafetyViolation, phrases: []string{"unsafe"}}),
		Entry("Unsafe tool is allowed when safety profile permits unsafe tools", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.AllowUnsafeTools = new(true) }),
			tool:    unsafeTool}),
		Entry("Safe tool is allowed regardless of allow_unsafe_tools setting", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.AllowUnsafeTools = new(false) }),
			tool:    reader}),

		// ---- Skill category enforcement ----
		Entry("Tool blocked when skill category not in allow-list", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.AllowedSkillCategories = []string{"code", "test"} }),
			tool:    reader, category: "deploy",
			want: safety.ReasonToolSafetyViolation, phrases: []string{`"deploy"`, "not in the allowed"}}),
		Entry("Tool allowed when skill category is in allow-list", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.AllowedSkillCategories = []string{"code", "test"} }),
			tool:    reader, category: "code"}),
		Entry("All categories allowed when allow-list is empty", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.AllowedSkillCategories = []string{} }),
			tool:    reader, category: "anything"}),

		// ---- Checkpoint requirement from safety profile ----
		// "require_checkpoints false" on the context is the plan's spec.requireCheckpoints, unset.
		Entry("Non-checkpointable tool blocked when safety profile requires checkpoints", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.RequireCheckpoints = new(true) }),
			tool:    writer, want: safety.ReasonToolCheckpointRequired, phrases: []string{"cannot checkpoint", "require_checkpoints"}}),
		Entry("Non-checkpointable tool allowed when safety profile does not require checkpoints", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.RequireCheckpoints = new(false) }),
			tool:    writer}),

		// ---- Context without safety profile (backward compatibility) ----
		// The operator never evaluates without a profile (DESIGN.md: it always locks one), so a
		// context without a profile is expressed as a plan locked to the built-in "unrestricted"
		// profile, in which no profile check restricts: what the spec's profile-less context does.
		Entry("Unsafe tool allowed when no safety profile on context (the operator always locks a profile: built-in unrestricted)", scenario{
			builtin: safety.BuiltinUnrestricted, tool: unsafeTool}),
		Entry("Enforcement still applies read-only checks without safety profile (the operator always locks a profile: built-in unrestricted, read-only plan)", scenario{
			builtin: safety.BuiltinUnrestricted, readOnlyPlan: true,
			tool: writer, want: safety.ReasonToolAccessDenied, phrases: []string{"writes", "read-only"}}),

		// ---- Sandbox requirement ----
		Entry("Writing tool blocked when sandbox required but no sandbox_id", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.RequireSandbox = new(true) }),
			tool:    writer, want: safety.ReasonToolSandboxRequired, phrases: []string{"require_sandbox"}}),
		Entry("Writing tool allowed when sandbox required and sandbox_id set", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.RequireSandbox = new(true) }),
			tool:    writer, sandboxID: "sandbox-001"}),
		Entry("Writing tool allowed when sandbox not required and no sandbox_id", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.RequireSandbox = new(false) }),
			tool:    writer}),
		Entry("Read-only tool allowed when sandbox required but no sandbox_id", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.RequireSandbox = new(true) }),
			tool:    reader}),

		// ---- Human approval requirement ----
		Entry("Tool blocked when human approval required but not granted", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.RequireHumanApproval = new(true) }),
			tool:    reader, want: safety.ReasonToolHumanApprovalRequired, phrases: []string{"human approval", "kubectl toolgate approve"}}),
		// "Granted" is a ToolApproval a person (a user with a client certificate and the shipped
		// approver role) created for the plan and tool.
		Entry("Tool allowed when human approval required and granted", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.RequireHumanApproval = new(true) }),
			tool:    reader, approved: true}),
		Entry("Tool allowed when human approval not required", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.RequireHumanApproval = new(false) }),
			tool:    reader}),

		// ---- Cost limit enforcement ----
		// accumulated_cost is what the plan's earlier calls reported in status.cost (the plan names
		// the agent as its cost reporter), counted by the webhook; total_accumulated_cost the sum
		// over the namespace's plans.
		Entry("Tool blocked when accumulated cost exceeds max_cost_per_plan", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("10.0") }),
			tool:    reader, spent: []string{"2.50", "2.50", "2.50", "2.50"},
			want: safety.ReasonToolCostLimitExceeded, phrases: []string{"max_cost_per_plan"}}),
		Entry("Tool allowed when accumulated cost is below max_cost_per_plan", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("10.0") }),
			tool:    reader, spent: []string{"2.50", "2.50"}}),
		Entry("Boundary: tool allowed when accumulated cost is one cent below max_cost_per_plan", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("10.0") }),
			tool:    reader, spent: []string{"4.99", "5.00"}}),
		Entry("Tool blocked when total cost exceeds max_total_cost", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxTotalCost = money("100.0") }),
			tool:    reader, spent: []string{"25.00"}, spentElsewhere: []string{"37.50", "37.50"},
			want: safety.ReasonToolCostLimitExceeded, phrases: []string{"max_total_cost"}}),
		Entry("Boundary: tool allowed when total cost is one cent below max_total_cost", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxTotalCost = money("100.0") }),
			tool:    reader, spent: []string{"24.99"}, spentElsewhere: []string{"37.50", "37.50"}}),

		// ---- Retry limit enforcement ----
		// step_retry_count is the number of earlier calls of the same step.
		Entry("Tool blocked when retry count exceeds max_retries_per_step", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxRetriesPerStep = new(int32(3)) }),
			tool:    reader, earlier: 4,
			want: safety.ReasonToolRetryLimitExceeded, phrases: []string{"retried 4 times", "max_retries_per_step 3"}}),
		Entry("Tool allowed when retry count is within max_retries_per_step", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxRetriesPerStep = new(int32(3)) }),
			tool:    reader, earlier: 2}),
		Entry("Boundary: tool allowed when retry count equals max_retries_per_step", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxRetriesPerStep = new(int32(3)) }),
			tool:    reader, earlier: 3}),

		// ---- Missing skill category metadata ----
		Entry("Tool blocked when skill category metadata missing and allow-list set", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.AllowedSkillCategories = []string{"code", "test"} }),
			tool:    reader, want: safety.ReasonToolSafetyViolation, phrases: []string{"no skill category"}}),

		// ---- Combined constraints ----
		Entry("Multiple safety violations reported for first failing check", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) {
				s.AllowUnsafeTools = new(false)
				s.AllowedSkillCategories = []string{"code"}
			}),
			tool: unsafeTool, category: "deploy",
			want: safety.ReasonToolSafetyViolation, phrases: []string{"unsafe"}}),

		// ---- Tool allow-list enforcement ----
		Entry("Tool blocked when not on allow-list", scenario{
			profile: withTools(func(s *safetyv1alpha1.SafetyProfileSpec, t map[toolRole]string) { s.AllowedTools = []string{t[reader]} }),
			tool:    writer, want: safety.ReasonToolAccessDenied, phrases: []string{"allow-list"}}),
		Entry("Tool allowed when on allow-list", scenario{
			profile: withTools(func(s *safetyv1alpha1.SafetyProfileSpec, t map[toolRole]string) {
				s.AllowedTools = []string{t[reader], t[writer]}
			}),
			tool: reader}),
		Entry("All tools allowed when allow-list is empty", scenario{
			profile: with(func(s *safetyv1alpha1.SafetyProfileSpec) { s.AllowedTools = []string{} }),
			tool:    writer}),

		// ---- Tool deny-list enforcement ----
		Entry("Tool blocked when on deny-list", scenario{
			profile: withTools(func(s *safetyv1alpha1.SafetyProfileSpec, t map[toolRole]string) { s.DeniedTools = []string{t[writer]} }),
			tool:    writer, want: safety.ReasonToolAccessDenied, phrases: []string{"deny-list"}}),
		Entry("Tool allowed when not on deny-list", scenario{
			profile: withTools(func(s *safetyv1alpha1.SafetyProfileSpec, t map[toolRole]string) {
				s.DeniedTools = []string{t[unsafeTool]}
			}),
			tool: reader}),
		// The schema rejects a profile listing the very same pattern as allowed and denied (an
		// obvious mistake), so the allow-list here admits the writer through a glob that matches
		// every tool of the project, and the deny-list names it: the deny-list must still win.
		Entry("Deny-list takes precedence over allow-list", scenario{
			profile: withTools(func(s *safetyv1alpha1.SafetyProfileSpec, t map[toolRole]string) {
				s.AllowedTools = []string{t[writer][:len(t[writer])-len(writer)] + "*"}
				s.DeniedTools = []string{t[writer]}
			}),
			tool: writer, want: safety.ReasonToolAccessDenied, phrases: []string{"deny-list"}}),

		// ---- Built-in safety profiles ----
		Entry("Unrestricted built-in profile allows unsafe tools", scenario{
			builtin: safety.BuiltinUnrestricted, tool: unsafeTool}),
		Entry("Read-only built-in profile blocks unsafe tools", scenario{
			builtin: safety.BuiltinReadOnly, tool: unsafeTool,
			want: safety.ReasonToolSafetyViolation, phrases: []string{"unsafe"}}),
		Entry("Sandboxed built-in profile requires checkpoints", scenario{
			builtin: safety.BuiltinSandboxed, tool: writer,
			want: safety.ReasonToolCheckpointRequired, phrases: []string{"require_checkpoints"}}),
	)
})

var _ = Describe("AgentToolCall admission: request integrity and attacks", func() {
	var p *project
	BeforeEach(func() {
		p = newProject(nil)
	})

	It("denies an agent submitting for another ServiceAccount's plan", func() {
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted)})
		p.newAgent("other")
		p.plan("others", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted), ServiceAccountName: "other"})

		err := submit(p.agent, p.call("others", p.tools[reader], stepUnderTest, "src/a.go"))
		mustDeny(err, webhookv1alpha1.ReasonAgentIdentityMismatch,
			"accepts calls only from system:serviceaccount:"+p.ns+":other",
			"not from system:serviceaccount:"+p.ns+":"+agentSA)
		Expect(p.storedCalls()).To(BeEmpty())
	})

	It("denies the cluster admin, who is not the plan's ServiceAccount", func() {
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted)})

		err := submit(k8sClient, p.call(planName, p.tools[reader], stepUnderTest, "src/a.go"))
		mustDeny(err, webhookv1alpha1.ReasonAgentIdentityMismatch, "accepts calls only from system:serviceaccount:"+p.ns+":"+agentSA)
		Expect(p.storedCalls()).To(BeEmpty())
	})

	It("denies a tool that is not registered", func() {
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted)})

		err := submit(p.agent, p.call(planName, p.ns+"-not-registered", stepUnderTest, "src/a.go"))
		mustDeny(err, webhookv1alpha1.ReasonToolNotRegistered, `"`+p.ns+`-not-registered"`, "not a registered AgentTool")
		Expect(p.storedCalls()).To(BeEmpty())
	})

	It("denies a call for a plan that does not exist", func() {
		err := submit(p.agent, p.call("no-such-plan", p.tools[reader], stepUnderTest, "src/a.go"))
		mustDeny(err, webhookv1alpha1.ReasonPlanNotFound, `AgentPlan "no-such-plan" does not exist`)
		Expect(p.storedCalls()).To(BeEmpty())
	})

	It("denies a call before its plan is locked, saying why it is not", func() {
		missing := p.ns + "-missing"
		p.unlockedPlan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(missing)})
		call := p.call(planName, p.tools[reader], stepUnderTest, "src/a.go")
		By("waiting until the webhook's cache shows the plan and the controller's Locked=False condition")
		Eventually(func() error { return submit(p.agent, call.DeepCopy(), client.DryRunAll) }).
			WithTimeout(waitTimeout).WithPolling(waitInterval).Should(MatchError(ContainSubstring(missing)))

		err := submit(p.agent, call)
		mustDeny(err, webhookv1alpha1.ReasonPlanNotLocked, "is not locked yet", missing)
		Expect(p.storedCalls()).To(BeEmpty())
	})

	It("gains an agent nothing to claim capabilities in the call: the registry decides", func() {
		ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.RequireCheckpoints = new(true) }))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
		claims := map[string]any{"writes": false, "checkpointable": true, "unsafe": false,
			"actionClass": "read", "skillCategory": "code", "readOnly": false}

		for role, reason := range map[toolRole]string{writer: safety.ReasonToolCheckpointRequired, unsafeTool: safety.ReasonToolSafetyViolation} {
			By(fmt.Sprintf("submitting the %s honestly, then claiming it is harmless", role))
			honest := mustDeny(submit(p.agent, p.call(planName, p.tools[role], stepUnderTest, "src/a.go")), reason)
			claimed := mustDeny(p.agent.Create(ctx, unstructuredCall(p, p.tools[role], "src/a.go", claims, nil)), reason)
			Expect(claimed).To(Equal(honest))
		}
		Expect(p.storedCalls()).To(BeEmpty())
	})

	It("gains an agent nothing to claim a lower cost in the call: the plan's usage decides", func() {
		ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("1.00") }))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref, CostReporter: trustAgent()})
		p.spend(planName, "1.00")
		honestCall := p.call(planName, p.tools[reader], stepUnderTest, "src/a.go")
		awaitDecision(p.agent, honestCall, safety.ReasonToolCostLimitExceeded)

		honest := mustDeny(submit(p.agent, honestCall), safety.ReasonToolCostLimitExceeded, "max_cost_per_plan")
		claims := map[string]any{"accumulatedCost": "0", "totalCost": "0", "cost": "0"}
		status := map[string]any{"phase": "Succeeded", "cost": "0"}
		claimed := mustDeny(p.agent.Create(ctx, unstructuredCall(p, p.tools[reader], "src/a.go", claims, status)),
			safety.ReasonToolCostLimitExceeded, "max_cost_per_plan")
		Expect(claimed).To(Equal(honest))
		Expect(p.storedCalls()).To(HaveLen(1), "only the call that spent the budget")
	})

	It("ignores a status, and so a cost, the agent sets when it creates a call", func() {
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted)})
		u := unstructuredCall(p, p.tools[reader], "src/a.go", nil, map[string]any{"phase": "Succeeded", "cost": "1000"})
		mustAdmit(p.agent.Create(ctx, u))

		stored := &safetyv1alpha1.AgentToolCall{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: u.GetName()}, stored)).To(Succeed())
		Expect(stored.Status.Phase).To(BeEmpty())
		Expect(stored.Status.Cost).To(BeNil())
		Eventually(func(g Gomega) {
			got := &safetyv1alpha1.AgentPlan{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, got)).To(Succeed())
			g.Expect(got.Status.Usage.Calls).To(Equal(int64(1)))
			g.Expect(got.Status.Usage.AccumulatedCost).To(BeEmpty(), "nothing reserved, nothing reported")
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	})

	It("admits exactly maxRetriesPerStep+1 of 10 concurrent submissions for one step", func() {
		ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxRetriesPerStep = new(int32(3)) }))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})

		var wg sync.WaitGroup
		errs := make([]error, 10)
		for i := range errs {
			wg.Go(func() {
				errs[i] = submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, fmt.Sprintf("src/burst-%d.go", i)))
			})
		}
		wg.Wait()
		admitted := admittedAmong(errs, safety.ReasonToolRetryLimitExceeded, "max_retries_per_step 3")
		Expect(admitted).To(Equal(4), "the first attempt and 3 retries")
		Expect(p.storedCalls()).To(HaveLen(admitted))
	})

	It("denies the same call repeated more than 5 times a minute as a loop", func() {
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted)})
		for range 5 {
			mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/same.go")))
		}
		err := submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/same.go"))
		mustDeny(err, safety.ReasonToolLoopDetected, "same call", "6 times", "more than the 5 allowed")

		By("a call that differs only in its path is not the same call")
		mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/other.go")))
	})

	// The detector remembers at most DefaultLoopKeys calls per namespace. Before, the least
	// recently seen was forgotten first, so an agent denied for a loop sent that many distinct
	// calls, each refused before anything is counted (a step not in its plan), and its loop was
	// admitted again.
	It("keeps a loop denied after the agent floods the detector with distinct calls refused for free", func() {
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted), Steps: []string{stepUnderTest}})
		for range 5 {
			mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/same.go")))
		}
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/same.go")), safety.ReasonToolLoopDetected)
		p.refusedForFree(safety.DefaultLoopKeys+100, func(i int) []string { return []string{fmt.Sprintf("src/evict-%d.go", i)} })
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/same.go")), safety.ReasonToolLoopDetected)
	})

	// Forgetting the least repeated call first still let an agent hide a loop: it filled the
	// namespace's memory with calls seen twice (refused for free), then alternated its loop with
	// one other call, each new when it came and so evicting the other, the loop counted once
	// forever. A call forgotten now raises the namespace's floor, which a new call starts from.
	It("denies a loop alternating with one other call after the agent filled the detector with calls seen twice", func() {
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted), Steps: []string{stepUnderTest}})
		p.refusedForFree(safety.DefaultLoopKeys-1, func(i int) []string {
			return []string{fmt.Sprintf("src/pair-%d.go", i), fmt.Sprintf("src/pair-%d.go", i)}
		})
		// Counts may err high in a namespace this full (a new call starts from a floor the forgotten
		// calls seen twice raised), so the loop may be denied before its sixth run, never after it.
		var runs int
		for runs = 1; runs <= 6; runs++ {
			err := submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/same.go"))
			if err != nil {
				Expect(reasonOf(err)).To(Equal(safety.ReasonToolLoopDetected))
				break
			}
			p.refusedForFree(1, func(int) []string { return []string{"src/filler.go"} })
		}
		Expect(runs).To(BeNumerically("<=", 6), "the loop ran 6 times, alternating with one call, and was admitted each time")
	})
})

// unstructuredCall is an AgentToolCall of the project's main plan written as an agent could write
// it by hand, with extra spec fields and a status.
func unstructuredCall(p *project, tool, path string, specExtra, status map[string]any) *unstructured.Unstructured {
	spec := map[string]any{"plan": planName, "tool": tool, "step": stepUnderTest,
		"arguments": map[string]any{"paths": []any{path}}}
	maps.Copy(spec, specExtra)
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": safetyv1alpha1.GroupVersion.String(),
		"kind":       "AgentToolCall",
		"metadata":   map[string]any{"namespace": p.ns, "generateName": "claim-"},
		"spec":       spec,
	}}
	if status != nil {
		u.Object["status"] = status
	}
	return u
}

var _ = Describe("AgentToolCall admission: enforcement modes", func() {
	var p *project
	// violating submits an unsafe tool, which the profile forbids, under mode.
	violating := func(mode safetyv1alpha1.EnforcementMode) ([]string, error) {
		ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.EnforcementMode = mode }))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
		agent, w := p.agentWithWarnings()
		err := submit(agent, p.call(planName, p.tools[unsafeTool], stepUnderTest, "src/a.go"))
		return w.list(), err
	}
	BeforeEach(func() {
		p = newProject(nil)
	})

	It("Enforce denies the violating call", func() {
		_, err := violating(safetyv1alpha1.EnforcementModeEnforce)
		mustDeny(err, safety.ReasonToolSafetyViolation, "unsafe")
	})

	It("Warn admits the violating call with a warning naming the reason", func() {
		warnings, err := violating(safetyv1alpha1.EnforcementModeWarn)
		mustAdmit(err)
		Expect(warnings).To(ConsistOf(And(HavePrefix("["+safety.ReasonToolSafetyViolation+"] "), ContainSubstring("unsafe"))))
		Expect(p.storedCalls()).To(HaveLen(1))
	})

	It("Audit admits the violating call silently", func() {
		warnings, err := violating(safetyv1alpha1.EnforcementModeAudit)
		mustAdmit(err)
		Expect(warnings).To(BeEmpty())
		Expect(p.storedCalls()).To(HaveLen(1))
	})
})

var _ = Describe("AgentToolCall admission: dry-run", func() {
	var p *project
	BeforeEach(func() {
		p = newProject(nil)
	})

	It("denies a violating call with the same reason and stores nothing", func() {
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinSandboxed)})
		call := p.call(planName, p.tools[unsafeTool], stepUnderTest, "src/a.go")
		dry := mustDeny(submit(p.agent, call.DeepCopy(), client.DryRunAll), safety.ReasonToolSafetyViolation, "unsafe")
		Expect(p.storedCalls()).To(BeEmpty())
		Expect(mustDeny(submit(p.agent, call), safety.ReasonToolSafetyViolation)).To(Equal(dry))
	})

	It("admits an allowed call without storing it or counting it as an attempt", func() {
		ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxRetriesPerStep = new(int32(3)) }))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
		for range 5 {
			dry := p.call(planName, p.tools[reader], stepUnderTest, "src/a.go")
			mustAdmit(submit(p.agent, dry, client.DryRunAll))
			Expect(dry.Name).NotTo(BeEmpty())
			Expect(apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(dry), &safetyv1alpha1.AgentToolCall{}))).To(BeTrue())
		}
		Expect(p.storedCalls()).To(BeEmpty())

		By("a real submission is still the step's first attempt")
		mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/a.go")))
		p.attempts(planName, p.tools[reader], stepUnderTest, 3)
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/last.go")),
			safety.ReasonToolRetryLimitExceeded, "retried 4 times")
	})

	It("feeds nothing to loop detection", func() {
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted)})
		for range 10 {
			mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/same.go"), client.DryRunAll))
		}
		for range 5 {
			mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/same.go")))
		}
		mustDeny(submit(p.agent, p.call(planName, p.tools[reader], stepUnderTest, "src/same.go")),
			safety.ReasonToolLoopDetected, "6 times")
	})
})

var _ = Describe("AgentToolCall admission: the agent reporting on an admitted call", func() {
	var (
		p    *project
		call *safetyv1alpha1.AgentToolCall
	)
	BeforeEach(func() {
		p = newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted), CostReporter: trustAgent()})
		call = p.call(planName, p.tools[reader], stepUnderTest, "src/a.go")
		mustAdmit(submit(p.agent, call))
	})

	// mustDenyUpdate asserts an InvalidUpdate denial naming field.
	mustDenyUpdate := func(err error, field string, phrases ...string) {
		GinkgoHelper()
		mustDeny(err, webhookv1alpha1.ReasonInvalidUpdate, phrases...)
		Expect(causeOf(err).Field).To(Equal(field))
	}
	storedCost := func() string {
		GinkgoHelper()
		got := &safetyv1alpha1.AgentToolCall{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(call), got)).To(Succeed())
		if got.Status.Cost == nil {
			return ""
		}
		return got.Status.Cost.String()
	}

	It("accepts phases moving forward and a cost that increases", func() {
		Expect(report(p.agent, call, safetyv1alpha1.CallPhaseRunning, "0.10")).To(Succeed())
		Expect(report(p.agent, call, safetyv1alpha1.CallPhaseRunning, "0.25")).To(Succeed())
		Expect(report(p.agent, call, safetyv1alpha1.CallPhaseSucceeded, "0.30")).To(Succeed())
		Expect(storedCost()).To(Equal("300m"))
	})

	It("denies a cost that decreases", func() {
		Expect(report(p.agent, call, safetyv1alpha1.CallPhaseRunning, "0.50")).To(Succeed())
		mustDenyUpdate(report(p.agent, call, safetyv1alpha1.CallPhaseRunning, "0.40"), "status.cost", "cost cannot decrease")
		Expect(storedCost()).To(Equal("500m"))
	})

	It("denies a phase moving backward", func() {
		Expect(report(p.agent, call, safetyv1alpha1.CallPhaseRunning, "")).To(Succeed())
		mustDenyUpdate(report(p.agent, call, safetyv1alpha1.CallPhaseAdmitted, ""), "status.phase", "cannot move from Running to Admitted")
		Expect(report(p.agent, call, safetyv1alpha1.CallPhaseSucceeded, "0.10")).To(Succeed())
		mustDenyUpdate(report(p.agent, call, safetyv1alpha1.CallPhaseRunning, ""), "status.phase", "cannot move from Succeeded to Running")
		mustDenyUpdate(report(p.agent, call, safetyv1alpha1.CallPhaseFailed, ""), "status.phase", "cannot move from Succeeded to Failed")
	})

	It("rejects a changed spec as immutable", func() {
		By("the agent may not update a call at all, only report on it")
		changed := call.DeepCopy()
		changed.Spec.Tool = p.tools[writer]
		Expect(apierrors.IsForbidden(p.agent.Update(ctx, changed))).To(BeTrue())

		By("not even an admin may change the spec")
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(call), changed)).To(Succeed())
		changed.Spec.Tool = p.tools[writer]
		err := k8sClient.Update(ctx, changed)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err).To(MatchError(ContainSubstring("spec is immutable")))

		By("a spec sent with a status report is discarded")
		Expect(reportWithSpec(p, call, func(c *safetyv1alpha1.AgentToolCall) {
			c.Spec.Tool = p.tools[writer]
			c.Status.Phase = safetyv1alpha1.CallPhaseRunning
		})).To(Succeed())
		stored := &safetyv1alpha1.AgentToolCall{}
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(call), stored)).To(Succeed())
		Expect(stored.Spec.Tool).To(Equal(p.tools[reader]))
		Expect(stored.Status.Phase).To(Equal(safetyv1alpha1.CallPhaseRunning))
	})

	It("denies another ServiceAccount reporting on the call", func() {
		intruder := p.newAgent("intruder")
		err := report(intruder, call, safetyv1alpha1.CallPhaseSucceeded, "")
		mustDeny(err, webhookv1alpha1.ReasonAgentIdentityMismatch, "only the plan's ServiceAccount", "system:serviceaccount:"+p.ns+":intruder")
		mustDenyUpdate(report(intruder, call, safetyv1alpha1.CallPhaseSucceeded, "0.01"), "status.cost", "only plan "+planName+"'s cost reporter")
		Expect(storedCost()).To(BeEmpty())
	})

	It("lets another identity with RBAC for it change only metadata, as the operator's ServiceAccount does", func() {
		janitor := p.newAgent("janitor")
		cs, err := kubernetes.NewForConfig(cluster.Config)
		Expect(err).NotTo(HaveOccurred())
		_, err = cs.RbacV1().Roles(p.ns).Create(ctx, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "call-janitor"},
			Rules: []rbacv1.PolicyRule{{APIGroups: []string{safetyv1alpha1.GroupVersion.Group},
				Resources: []string{"agenttoolcalls", "agenttoolcalls/status"}, Verbs: []string{"get", "update"}}}}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		_, err = cs.RbacV1().RoleBindings(p.ns).Create(ctx, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "call-janitor"},
			RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "call-janitor"},
			Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: p.ns, Name: "janitor"}}}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())

		Eventually(func() error {
			return retry.RetryOnConflict(retry.DefaultRetry, func() error {
				latest := &safetyv1alpha1.AgentToolCall{}
				if err := janitor.Get(ctx, client.ObjectKeyFromObject(call), latest); err != nil {
					return err
				}
				metav1.SetMetaDataAnnotation(&latest.ObjectMeta, "example.com/reviewed", "true")
				return janitor.Update(ctx, latest)
			})
		}).WithTimeout(waitTimeout).Should(Succeed(), "RBAC propagates; then a metadata-only update is admitted")
		err = report(janitor, call, safetyv1alpha1.CallPhaseSucceeded, "")
		mustDeny(err, webhookv1alpha1.ReasonAgentIdentityMismatch, "only the plan's ServiceAccount")
		Expect(storedCost()).To(BeEmpty())

		By("but not the operator's bookkeeping: the completion annotation")
		latest := &safetyv1alpha1.AgentToolCall{}
		Expect(janitor.Get(ctx, client.ObjectKeyFromObject(call), latest)).To(Succeed())
		forged := latest.DeepCopy()
		metav1.SetMetaDataAnnotation(&forged.ObjectMeta, controller.CompletionRecordAnnotation, `{"uid":"`+string(latest.UID)+`"}`)
		mustDenyUpdate(janitor.Update(ctx, forged), "metadata.annotations", "only the toolgate operator")

		By("nor a finalizer, not even toolgate's own of earlier releases: a call it held would outlive its TTL until the next sweep")
		for _, f := range []string{"safety.toolgate.dev/usage", "example.com/hold"} {
			held := latest.DeepCopy()
			held.Finalizers = append(held.Finalizers, f)
			mustDenyUpdate(janitor.Update(ctx, held), "metadata.finalizers", "finalizer \""+f+"\"", "only the toolgate operator")
		}
		Expect(janitor.Get(ctx, client.ObjectKeyFromObject(call), latest)).To(Succeed())
		Expect(latest.Finalizers).To(BeEmpty())
	})

	It("rejects a negative cost", func() {
		err := report(p.agent, call, safetyv1alpha1.CallPhaseSucceeded, "-1")
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err).To(MatchError(ContainSubstring("must not be negative")))
		Expect(storedCost()).To(BeEmpty())
	})
})

// reportWithSpec has the project's agent send a status patch of call that carries a spec too (spec
// and status as mutate leaves them on a copy of call): an agent may not read calls, so it patches
// without a resourceVersion.
func reportWithSpec(p *project, call *safetyv1alpha1.AgentToolCall, mutate func(*safetyv1alpha1.AgentToolCall)) error {
	sent := call.DeepCopy()
	mutate(sent)
	data, err := json.Marshal(map[string]any{"spec": sent.Spec, "status": sent.Status})
	if err != nil {
		return err
	}
	return p.agent.Status().Patch(ctx, sent, client.RawPatch(types.MergePatchType, data))
}

// refusedForFree submits, eight at a time, the calls of the main plan reading paths(i) for i
// below n, in a step the plan does not declare: each is refused before anything is counted
// against the plan, so they cost its agent nothing, and the loop detector still observes each.
func (p *project) refusedForFree(n int, paths func(i int) []string) {
	GinkgoHelper()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			defer GinkgoRecover()
			for i := range jobs {
				for _, path := range paths(i) {
					err := submit(p.agent, p.call(planName, p.tools[reader], "undeclared", path))
					Expect(reasonOf(err)).To(Equal(policy.ReasonStepNotInPlan))
				}
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}
