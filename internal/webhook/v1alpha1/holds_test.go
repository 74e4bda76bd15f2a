package v1alpha1_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// A call of a tool whose cost is reported after it ran holds the tool's maxCostPerCall until its
// final report: calls in flight together (through several gateway replicas, or from a reporter
// other than the gateway) must not all be judged against a spend that counts none of them.
var _ = Describe("AgentToolCall accounting: what calls in flight hold", func() {
	const heldMessage = "held for calls whose cost is not reported yet"
	var p *project
	BeforeEach(func() { p = newProject(nil) })

	// priced registers a reader tool of the project with costPerCall 0.1 and maxCostPerCall 1.
	priced := func() string {
		GinkgoHelper()
		t := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: p.ns + "-priced"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead,
				CostPerCall: money("0.1"), MaxCostPerCall: money("1")}}
		createCluster(t)
		return t.Name
	}
	reportedByMeter := &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "meter"}
	budget := func(perPlan, total string) *safetyv1alpha1.ProfileRef {
		GinkgoHelper()
		return p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) {
			if perPlan != "" {
				s.MaxCostPerPlan = money(perPlan)
			}
			if total != "" {
				s.MaxTotalCost = money(total)
			}
		}))
	}

	It("holds maxCostPerCall until the reporter's final report, which releases it once", func() {
		meter := p.newAgent("meter")
		tool := priced()
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: budget("2", ""), CostReporter: reportedByMeter})
		a, b := p.call(planName, tool, "a", "src/a.go"), p.call(planName, tool, "b", "src/b.go")
		mustAdmit(submit(p.agent, a))
		mustAdmit(submit(p.agent, b))
		By("0.2 spent and 1.8 held reach 2: a third call is refused, naming what is held")
		c := p.call(planName, tool, "c", "src/c.go")
		mustDeny(submit(p.agent, c), safety.ReasonToolCostLimitExceeded, "accumulated cost 0.2, with 1.8 "+heldMessage, "max_cost_per_plan 2")
		Expect(storedPlan(counters, p.ns, planName).Status.Usage.AccumulatedCost).To(Equal("0.2"))

		By("a cost reported while the call runs may grow yet: the call still holds")
		Expect(report(meter, a, safetyv1alpha1.CallPhaseRunning, "0.3")).To(Succeed())
		mustDeny(submit(p.agent, c), safety.ReasonToolCostLimitExceeded, "accumulated cost 0.4, with 1.8 "+heldMessage)
		By("the reporter's final report of a (its cost, as it moves a to a final phase) releases a's hold: 0.4 spent and 0.9 held leave room")
		Expect(report(meter, a, safetyv1alpha1.CallPhaseSucceeded, "0.3")).To(Succeed())
		mustAdmit(submit(p.agent, c))
		d := p.call(planName, tool, "d", "src/d.go")
		mustDeny(submit(p.agent, d), safety.ReasonToolCostLimitExceeded, "accumulated cost 0.5, with 1.8 "+heldMessage)

		By("a later report of the same call counts its cost, and releases nothing more")
		Expect(report(meter, a, safetyv1alpha1.CallPhaseSucceeded, "0.4")).To(Succeed())
		mustDeny(submit(p.agent, d), safety.ReasonToolCostLimitExceeded, "accumulated cost 0.6, with 1.8 "+heldMessage)
	})

	It("admits exactly the calls whose holds fit the budget when they arrive in parallel", func() {
		p.newAgent("meter")
		tool := priced()
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: budget("2.5", ""), CostReporter: reportedByMeter})
		errs := p.submitInParallel(planName, tool, 10)
		// Each admitted call counts 1 (0.1 reserved, 0.9 held): 0, 1 and 2 are below 2.5.
		Expect(admittedAmong(errs, safety.ReasonToolCostLimitExceeded, "max_cost_per_plan")).To(Equal(3))
		Expect(storedPlan(counters, p.ns, planName).Status.Usage.AccumulatedCost).To(Equal("0.3"))
		mustDeny(submit(p.agent, p.call(planName, tool, "next", "src/next.go")), safety.ReasonToolCostLimitExceeded, "with 2.7 "+heldMessage)
	})

	// twoPlans makes plans "first" (of the project's agent) and "second" (of agent "other", which it
	// returns) under one namespace budget of total, both reported by the meter.
	twoPlans := func(total string) client.Client {
		GinkgoHelper()
		p.newAgent("meter")
		other := p.newAgent("other")
		ref := budget("", total)
		p.plan("first", safetyv1alpha1.AgentPlanSpec{ProfileRef: ref, CostReporter: reportedByMeter})
		p.plan("second", safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "other", ProfileRef: ref, CostReporter: reportedByMeter})
		return other
	}

	It("counts other plans' holds in the project's total", func() {
		tool := priced()
		other := twoPlans("1.5")
		mustAdmit(submit(p.agent, p.call("first", tool, "a", "src/a.go")))
		By("0.1 spent and 0.9 held by the first plan: the second plan's first call fits")
		mustAdmit(submit(other, p.call("second", tool, "a", "src/a.go")))
		By("0.2 spent and 1.8 held in the namespace reach 1.5, whichever plan holds them")
		mustDeny(submit(other, p.call("second", tool, "b", "src/b.go")), safety.ReasonToolCostLimitExceeded, "max_total_cost 1.5")
		mustDeny(submit(p.agent, p.call("first", tool, "b", "src/b.go")), safety.ReasonToolCostLimitExceeded, "max_total_cost 1.5")
	})

	It("counts nothing in a plan for a report of a call of an earlier plan of its name", func() {
		meter := p.newAgent("meter")
		tool := priced()
		spec := safetyv1alpha1.AgentPlanSpec{ProfileRef: budget("2", ""), CostReporter: reportedByMeter}
		p.plan(planName, spec)
		old := p.call(planName, tool, "a", "src/a.go")
		mustAdmit(submit(p.agent, old))
		first := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: planName}}
		Expect(k8sClient.Delete(ctx, first)).To(Succeed())
		awaitGone(first)
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(old), old)).To(Succeed())
		// Creation times are in whole seconds: the new plan must be seen to be younger than the call.
		Eventually(func() bool { return time.Now().Truncate(time.Second).After(old.CreationTimestamp.Time) }).Should(BeTrue())
		p.plan(planName, spec)
		mustAdmit(submit(p.agent, p.call(planName, tool, "b", "src/b.go")))

		By("the reporter's final report of the earlier plan's call: refused, and neither its cost nor a release counts")
		mustDeny(report(meter, old, safetyv1alpha1.CallPhaseSucceeded, "5"), "AgentIdentityMismatch", "earlier plan")
		Expect(storedPlan(counters, p.ns, planName).Status.Usage.AccumulatedCost).To(Equal("0.1"))
		mustAdmit(submit(p.agent, p.call(planName, tool, "c", "src/c.go")))
		mustDeny(submit(p.agent, p.call(planName, tool, "d", "src/d.go")), safety.ReasonToolCostLimitExceeded,
			"accumulated cost 0.2, with 1.8 "+heldMessage)
	})

	It("keeps a call's hold when the agent marks it finished before the reporter's cost", func() {
		meter := p.newAgent("meter")
		tool := priced()
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: budget("2", ""), CostReporter: reportedByMeter})
		a := p.call(planName, tool, "a", "src/a.go")
		mustAdmit(submit(p.agent, a))
		mustAdmit(submit(p.agent, p.call(planName, tool, "b", "src/b.go")))
		Expect(report(p.agent, a, safetyv1alpha1.CallPhaseSucceeded, "")).To(Succeed())
		By("the reporter's cost, on a call the agent called finished, is not the reporter's word that it is final")
		Expect(report(meter, a, safetyv1alpha1.CallPhaseSucceeded, "0.3")).To(Succeed())
		mustDeny(submit(p.agent, p.call(planName, tool, "c", "src/c.go")), safety.ReasonToolCostLimitExceeded,
			"accumulated cost 0.4, with 1.8 "+heldMessage)
	})

	It("releases a call admitted before a re-lock by what it held, whatever the tool's new pin holds", func() {
		meter := p.newAgent("meter")
		tool := priced()
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: budget("1.1", ""), CostReporter: reportedByMeter})
		early := p.call(planName, tool, "a", "src/a.go")
		mustAdmit(submit(p.agent, early))

		By("the platform drops the tool's maxCostPerCall and re-locks the plan: its calls from now on hold nothing")
		editToolAndRelock(p.ns, planName, tool, "ceiling-dropped", func(t *safetyv1alpha1.AgentTool) { t.Spec.MaxCostPerCall = nil })

		By("the reporter's final report of the early call releases the 0.9 it held, and counts from the 0.1 it reserved")
		Expect(report(meter, early, safetyv1alpha1.CallPhaseSucceeded, "0.2")).To(Succeed())
		mustAdmit(submit(p.agent, p.call(planName, tool, "b", "src/b.go")))
		Expect(storedPlan(counters, p.ns, planName).Status.Usage.AccumulatedCost).To(Equal("0.3"),
			"the early call costs the larger of 0.1 and 0.2, the next one reserves 0.1")
	})

	It("settles a deleted plan's calls in flight at their ceiling, so deleting the plan gives no held budget back", func() {
		meter := p.newAgent("meter")
		tool := priced()
		spec := safetyv1alpha1.AgentPlanSpec{ProfileRef: budget("", "2.5"), CostReporter: reportedByMeter}
		p.plan("first", spec)
		done, inFlight := p.call("first", tool, "a", "src/a.go"), p.call("first", tool, "b", "src/b.go")
		mustAdmit(submit(p.agent, done))
		mustAdmit(submit(p.agent, inFlight))
		By("the near miss: a call finally reported before the deletion is settled at its reported cost")
		Expect(report(meter, done, safetyv1alpha1.CallPhaseSucceeded, "0.2")).To(Succeed())

		first := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "first"}}
		Expect(k8sClient.Delete(ctx, first)).To(Succeed())
		awaitGone(first)
		By("the call still in flight is settled at its ceiling (1): its cost can no longer be reported to its plan")
		mustDeny(report(meter, inFlight, safetyv1alpha1.CallPhaseSucceeded, "0.9"), "AgentIdentityMismatch", "does not exist")
		pp := &safetyv1alpha1.ProjectPolicy{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: "project"}, pp)).To(Succeed())
		Expect(pp.Status.Settled).NotTo(BeNil())
		Expect(pp.Status.Settled.Cost).To(Equal("1.2"))

		By("a new plan of the project sees that spend: 1.2 spent and one call's 1 leave room for one call, not two")
		p.plan("second", spec)
		mustAdmit(submit(p.agent, p.call("second", tool, "a", "src/a.go")))
		mustDeny(submit(p.agent, p.call("second", tool, "b", "src/b.go")), safety.ReasonToolCostLimitExceeded, "max_total_cost 2.5")
	})

	It("holds nothing for a dry run, and a dry run changes nothing another plan sees", func() {
		tool := priced()
		other := twoPlans("2.5")
		mustAdmit(submit(p.agent, p.call("first", tool, "a", "src/a.go")))
		mustAdmit(submit(p.agent, p.call("first", tool, "b", "src/b.go")))
		mustAdmit(submit(other, p.call("second", tool, "a", "src/a.go")))
		By("0.3 spent and 2.7 held in the namespace reach 2.5")
		mustDeny(submit(other, p.call("second", tool, "b", "src/b.go")), safety.ReasonToolCostLimitExceeded, "max_total_cost 2.5")
		Expect(p.agent.Create(ctx, p.call("first", tool, "dry", "src/dry.go"), client.DryRunAll)).To(Succeed())
		mustDeny(submit(other, p.call("second", tool, "b", "src/b.go")), safety.ReasonToolCostLimitExceeded, "max_total_cost 2.5")
	})

	It("holds nothing for a plan that names no reporter: its calls cost exactly their costPerCall", func() {
		tool := priced()
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: budget("0.25", "")})
		mustAdmit(submit(p.agent, p.call(planName, tool, "a", "src/a.go")))
		mustAdmit(submit(p.agent, p.call(planName, tool, "b", "src/b.go")))
		mustAdmit(submit(p.agent, p.call(planName, tool, "c", "src/c.go")))
		mustDeny(submit(p.agent, p.call(planName, tool, "d", "src/d.go")), safety.ReasonToolCostLimitExceeded, "accumulated cost 0.3 has reached")
	})
})
