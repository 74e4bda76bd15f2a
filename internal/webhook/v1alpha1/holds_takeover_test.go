package v1alpha1_test

import (
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/testenv"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
	"github.com/toolgate/toolgate/pkg/agent"
)

// What calls in flight hold is kept in the memory of the replica that decides the plan; the one
// that takes the plan over recounts it from the calls stored. The agent may write its call's
// phase, so a final phase with a cost does not say the cost is final: the agent may have written
// the phase after a cost its reporter reported while the call ran. Only the reporter's
// CostFinal condition says so.
var _ = Describe("What calls in flight hold, across a change of the deciding replica", Ordered, func() {
	const replicas = 2
	var (
		r      *testenv.Replicas
		stores [replicas]*webhookv1alpha1.CounterStore
	)
	BeforeAll(func() { r = startDeciders(stores[:]) })

	// retried does what do does until it gets an answer the caller can act on: a replica that
	// stopped deciding answers 503 without a reason, which pkg/agent and the gateway retry.
	retried := func(do func() error) error {
		deadline := time.Now().Add(waitTimeout)
		for {
			err := do()
			if reasonOf(err) != "?" || time.Now().After(deadline) {
				return err
			}
		}
	}
	// reportFinal is the reporter's word that call's cost is final: cost, and CostFinal, in the
	// report that moves it to phase.
	reportFinal := func(c client.Client, call *safetyv1alpha1.AgentToolCall, phase safetyv1alpha1.CallPhase, cost string) error {
		final := &safetyv1alpha1.AgentToolCall{Status: safetyv1alpha1.AgentToolCallStatus{Phase: phase, Cost: new(resource.MustParse(cost))}}
		agent.MarkCostFinal(final, "the plan's reporter")
		return reportStatus(c, call, final.Status)
	}

	It("keeps the hold of a call the agent finished after a cost reported while it ran, until the reporter says the cost is final", func() {
		admin := r.Client
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "holds-takeover-"}}
		Expect(admin.Create(ctx, ns)).To(Succeed())
		agent, err := testenv.Agent(ctx, r.Config, r.Scheme, ns.Name, agentSA)
		Expect(err).NotTo(HaveOccurred())
		meter, err := testenv.Agent(ctx, r.Config, r.Scheme, ns.Name, "meter")
		Expect(err).NotTo(HaveOccurred())
		tool := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: ns.Name + "-priced"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead, CostPerCall: money("0.1"), MaxCostPerCall: money("1")}}
		profile := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: ns.Name},
			Spec: profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("1.4") })}
		plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns.Name, Name: planName},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: agentSA, ProfileRef: spRef(ns.Name),
				CostReporter: &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "meter"}}}
		for _, obj := range []client.Object{tool, profile, plan} {
			Expect(admin.Create(ctx, obj)).To(Succeed())
		}
		DeferCleanup(func() { _ = admin.Delete(ctx, tool); _ = admin.Delete(ctx, profile) })
		Eventually(func(g Gomega) {
			g.Expect(admin.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
			g.Expect(plan.Status.Snapshot).NotTo(BeNil())
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		call := func(name string) *safetyv1alpha1.AgentToolCall {
			return &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns.Name, Name: name},
				Spec: safetyv1alpha1.AgentToolCallSpec{Plan: planName, Tool: tool.Name, Step: name,
					Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"src/" + name + ".go"}}}}
		}
		create := func(c *safetyv1alpha1.AgentToolCall) error {
			return retried(func() error { return agent.Create(ctx, c.DeepCopy()) })
		}
		a, b := call("a"), call("b")
		mustAdmit(create(a))
		mustAdmit(create(b))
		Expect(admin.Get(ctx, client.ObjectKeyFromObject(a), a)).To(Succeed())
		Expect(admin.Get(ctx, client.ObjectKeyFromObject(b), b)).To(Succeed())

		By("the reporter reports a's cost while it runs, and the agent then marks a finished itself")
		Expect(retried(func() error { return report(meter, a, safetyv1alpha1.CallPhaseRunning, "0.3") })).To(Succeed())
		Expect(retried(func() error { return report(agent, a, safetyv1alpha1.CallPhaseSucceeded, "") })).To(Succeed())
		By("the near miss: the reporter's final report of b, with CostFinal, ends b's hold")
		Expect(retried(func() error { return reportFinal(meter, b, safetyv1alpha1.CallPhaseSucceeded, "0.2") })).To(Succeed())
		By("0.5 spent and a's 0.9 held reach 1.4 on the replica that saw it all")
		const full = "accumulated cost 0.5, with 0.9 held for calls whose cost is not reported yet, has reached max_cost_per_plan 1.4"
		mustDeny(create(call("c")), safety.ReasonToolCostLimitExceeded, full)

		leader := r.Leader()
		Expect(leader).NotTo(Equal(-1))
		Expect(stores[leader].Store(ctx, client.ObjectKeyFromObject(plan))).To(Succeed())
		By(fmt.Sprintf("stopping the leader, replica %d, as a rollout stops its pod", leader))
		Expect(r.StopReplica(leader)).To(Succeed())
		Eventually(r.Leader).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(
			And(Not(Equal(-1)), Not(Equal(leader))), "the other replica takes the lead")

		By("the new leader recounts a's hold from the stored calls: a's final phase is the agent's, not the reporter's word")
		mustDeny(create(call("c")), safety.ReasonToolCostLimitExceeded, full)

		By("the agent may not say a's cost is final")
		err = retried(func() error { return reportFinal(agent, a, safetyv1alpha1.CallPhaseSucceeded, "0.3") })
		mustDeny(err, webhookv1alpha1.ReasonInvalidUpdate, "only plan "+planName+"'s cost reporter may write condition CostFinal")
		Expect(causeOf(err).Field).To(Equal("status.conditions"))

		By("the reporter may, on the call the agent finished: a costs 0.5 and holds nothing more; b still holds nothing")
		Expect(retried(func() error { return reportFinal(meter, a, safetyv1alpha1.CallPhaseSucceeded, "0.5") })).To(Succeed())
		mustAdmit(create(call("c")))
		mustDeny(create(call("d")), safety.ReasonToolCostLimitExceeded,
			"accumulated cost 0.8, with 0.9 held for calls whose cost is not reported yet, has reached max_cost_per_plan 1.4")
	})
})
