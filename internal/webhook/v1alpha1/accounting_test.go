package v1alpha1_test

import (
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// The attacks of issue 14 on steps, cost and budgets, each through the real API server with the
// agent's real token, next to its near miss.
var _ = Describe("AgentToolCall accounting: what the agent cannot choose", func() {
	var p *project
	BeforeEach(func() { p = newProject(nil) })

	planUsage := func(name string) safetyv1alpha1.PlanUsage {
		GinkgoHelper()
		return storedPlan(counters, p.ns, name).Status.Usage
	}
	// costly registers a reader tool of the project that reserves cost per call.
	costly := func(cost string) string {
		GinkgoHelper()
		t := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: p.ns + "-metered"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead, CostPerCall: new(resource.MustParse(cost))}}
		createCluster(t)
		p.tools["metered"] = t.Name
		return t.Name
	}

	Describe("steps", func() {
		It("refuses a respelled step name at the schema, naming spec.step", func() {
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted)})
			for _, step := range []string{"Build", "build ", "ｂｕｉｌｄ", "build\u200b", "-build"} {
				err := submit(p.agent, p.call(planName, p.tools[reader], step, "src/a.go"))
				Expect(apierrors.IsInvalid(err)).To(BeTrue(), "step %q: %v", step, err)
				Expect(err).To(MatchError(ContainSubstring("spec.step")))
				Expect(err).To(MatchError(ContainSubstring("must be a DNS label")))
			}
			Expect(p.storedCalls()).To(BeEmpty())
			By("the near miss: the step spelled as a DNS label")
			mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], "build", "src/a.go")))
		})

		It("denies a step the plan does not declare StepNotInPlan, and admits a declared one", func() {
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted), Steps: []string{"build", "test"}})
			mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "build-2", "src/a.go")), policy.ReasonStepNotInPlan, `"build-2" is not one of them`)
			mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], "build", "src/a.go")))
			mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], "test", "src/a.go")))
		})

		It("bounds the distinct steps of a plan without declared steps by maxStepsPerPlan", func() {
			ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) {
				s.MaxRetriesPerStep, s.MaxStepsPerPlan = new(int32(0)), new(int32(2))
			}))
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
			mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], "build", "src/a.go")))
			mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "build", "src/b.go")), safety.ReasonToolRetryLimitExceeded)
			mustAdmit(submit(p.agent, p.call(planName, p.tools[reader], "build-2", "src/c.go")))
			mustDeny(submit(p.agent, p.call(planName, p.tools[reader], "build-3", "src/d.go")), policy.ReasonStepLimitExceeded, "maxStepsPerPlan 2")
			Expect(planUsage(planName).StepAttempts).To(Equal(map[string]int32{"build": 1, "build-2": 1}))
		})
	})

	Describe("cost", func() {
		var meter client.Client
		BeforeEach(func() { meter = p.newAgent("meter") })
		meterReports := func() *safetyv1alpha1.CostReporter {
			return &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "meter"}
		}

		It("reserves costPerCall at admission, so an agent that never reports still reaches maxCostPerPlan", func() {
			tool := costly("0.6")
			ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("1") }))
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref, CostReporter: meterReports()})
			mustAdmit(submit(p.agent, p.call(planName, tool, "a", "src/a.go")))
			mustAdmit(submit(p.agent, p.call(planName, tool, "b", "src/b.go")))
			mustDeny(submit(p.agent, p.call(planName, tool, "c", "src/c.go")), safety.ReasonToolCostLimitExceeded, "max_cost_per_plan")
			u := planUsage(planName)
			Expect(u.ReservedCost).To(Equal("1.2"))
			Expect(u.AccumulatedCost).To(Equal("1.2"))
		})

		It("refuses the agent's own report of cost 0 when the plan names another reporter, and takes the reporter's", func() {
			tool := costly("0.5")
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted), CostReporter: meterReports()})
			call := p.call(planName, tool, "a", "src/a.go")
			mustAdmit(submit(p.agent, call))
			err := report(p.agent, call, safetyv1alpha1.CallPhaseSucceeded, "0")
			mustDeny(err, "InvalidUpdate", "only plan "+planName+"'s cost reporter", "system:serviceaccount:"+p.ns+":meter")
			Expect(causeOf(err).Field).To(Equal("status.cost"))
			By("the agent may still report the phase")
			Expect(report(p.agent, call, safetyv1alpha1.CallPhaseSucceeded, "")).To(Succeed())

			By("the near miss: the reporter's cost below the reservation leaves the reservation")
			Expect(report(meter, call, safetyv1alpha1.CallPhaseSucceeded, "0.2")).To(Succeed())
			Expect(planUsage(planName).AccumulatedCost).To(Equal("0.5"))
			By("and above it replaces it")
			Expect(report(meter, call, safetyv1alpha1.CallPhaseSucceeded, "1.75")).To(Succeed())
			u := planUsage(planName)
			Expect(u.AccumulatedCost).To(Equal("1.75"))
			Expect(u.ReportedCost).To(Equal("1.75"))
		})

		It("refuses any cost report on a plan that names no reporter", func() {
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted)})
			call := p.call(planName, p.tools[reader], "a", "src/a.go")
			mustAdmit(submit(p.agent, call))
			mustDeny(report(p.agent, call, safetyv1alpha1.CallPhaseSucceeded, "3"), "InvalidUpdate", "names no spec.costReporter")
			mustDeny(report(meter, call, safetyv1alpha1.CallPhaseSucceeded, "3"), "InvalidUpdate", "names no spec.costReporter")
		})

		It("counts the reporter's cost of a call admitted before a re-lock that raised its tool's price", func() {
			// The call reserved nothing (costPerCall 0 when it was admitted); the platform then
			// raises the price and re-locks the plan, which pins the tool anew. The report of the
			// earlier call must count against the price it was admitted at, not the new one: else
			// what it reports up to the new price is counted nowhere.
			tool := costly("0")
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted), CostReporter: meterReports()})
			early := p.call(planName, tool, "a", "src/a.go")
			mustAdmit(submit(p.agent, early))

			By("the platform raises the tool's price to 5 and re-locks the plan")
			plan := editToolAndRelock(p.ns, planName, tool, "price-raised", func(t *safetyv1alpha1.AgentTool) {
				t.Spec.CostPerCall = new(resource.MustParse("5"))
			})
			By("the near miss: the call that pins the new price, a second after the re-lock, reserved it; its report below it adds nothing")
			Eventually(func() time.Time { return time.Now() }).WithTimeout(3*time.Second).
				Should(BeTemporally(">=", plan.Status.Snapshot.LockedAt.Add(time.Second)), "a creation time the re-lock's second cannot share")
			pinning := p.call(planName, tool, "b", "src/b.go")
			mustAdmit(submit(p.agent, pinning))
			Expect(planUsage(planName).AccumulatedCost).To(Equal("5"), "a call after the re-lock reserves the new price")
			Expect(report(meter, pinning, safetyv1alpha1.CallPhaseSucceeded, "2")).To(Succeed())
			Expect(planUsage(planName).AccumulatedCost).To(Equal("5"), "reserved 5 and reported 2, it costs 5")

			By("the reporter's cost of the early call counts in full")
			Expect(report(meter, early, safetyv1alpha1.CallPhaseSucceeded, "3")).To(Succeed())
			u := planUsage(planName)
			Expect(u.ReportedCost).To(Equal("5"))
			Expect(u.AccumulatedCost).To(Equal("8"), "0 reserved and 3 reported for the early call, 5 reserved for the other")
		})

		It("counts a reported cost as the same money however it is spelled, and takes nothing that is not money", func() {
			tool := costly("0.5")
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef(safety.BuiltinUnrestricted), CostReporter: meterReports()})
			call := p.call(planName, tool, "a", "src/a.go")
			mustAdmit(submit(p.agent, call))
			// Raw merge patches, as any client may send them: the Go client would canonicalise.
			patch := func(c client.Client, cost string) error {
				return c.Status().Patch(ctx, call.DeepCopy(), client.RawPatch(types.MergePatchType, []byte(`{"status":{"cost":`+cost+`}}`)))
			}
			By("the agent's own spelling of a cost is no report, whatever the spelling")
			for _, cost := range []string{`"1e-10"`, `0`, `"0e3"`, `"-0"`} {
				Expect(patch(p.agent, cost)).NotTo(Succeed(), "cost %s from the agent", cost)
			}
			By("the reporter's exponent, suffix and JSON-number spellings count as the amounts they are, and never less")
			for _, step := range []struct{ cost, accumulated string }{
				{`"1e-10"`, "0.5"}, // below a nano-dollar: rounded up to one, below the reservation
				{`"5e-1"`, "0.5"}, {`"1Ki"`, "1024"}, {`2048`, "2048"}, {`"2.5e3"`, "2500"}, {`"3k"`, "3000"},
			} {
				Expect(patch(meter, step.cost)).To(Succeed(), "cost %s", step.cost)
				Expect(planUsage(planName).AccumulatedCost).To(Equal(step.accumulated), "after cost %s", step.cost)
			}
			By("nothing that is not money, lower, or over the bound is taken, and nothing more is counted")
			for _, cost := range []string{`"-0"`, `"-1e3"`, `-1`, `"1E"`, `"1e10"`, `"1e1000"`, `"1000000000.000000001"`,
				`"0x10"`, `"NaN"`, `"Inf"`, `"2999.999999999"`, `"2.9k"`, `"1e-10"`, `null`, `true`, `"3k "`} {
				Expect(patch(meter, cost)).NotTo(Succeed(), "cost %s", cost)
			}
			got := &safetyv1alpha1.AgentToolCall{}
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(call), got)).To(Succeed())
			Expect(got.Status.Cost.String()).To(Equal("3k"))
			Expect(planUsage(planName).AccumulatedCost).To(Equal("3000"))
			By("the same amount spelled otherwise is no new report")
			Expect(patch(meter, `"3e3"`)).To(Succeed())
			Expect(patch(meter, `3000`)).To(Succeed())
			u := planUsage(planName)
			Expect(u.AccumulatedCost).To(Equal("3000"))
			Expect(u.ReportedCost).To(Equal("3000"))
		})

		It("admits exactly the calls that fit a budget when they arrive in parallel", func() {
			tool := costly("0.3")
			ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("1") }))
			p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
			errs := p.submitInParallel(planName, tool, 12)
			admitted := admittedAmong(errs, safety.ReasonToolCostLimitExceeded, "max_cost_per_plan")
			// 0, 0.3, 0.6 and 0.9 are below 1: the fourth call crosses it, by less than one call's cost.
			Expect(admitted).To(Equal(4))
			Expect(planUsage(planName).AccumulatedCost).To(Equal("1.2"))
		})
	})

	Describe("the project's budget", func() {
		It("keeps a deleted plan's spend in the project's total, so deleting a plan gives nothing back", func() {
			tool := costly("0.6")
			ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxTotalCost = money("1") }))
			p.plan("first", safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
			mustAdmit(submit(p.agent, p.call("first", tool, "a", "src/a.go")))
			mustAdmit(submit(p.agent, p.call("first", tool, "b", "src/b.go")))
			mustDeny(submit(p.agent, p.call("first", tool, "c", "src/c.go")), safety.ReasonToolCostLimitExceeded, "max_total_cost")

			first := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: p.ns, Name: "first"}}
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(first), first)).To(Succeed())
			Expect(first.Finalizers).To(ContainElement(safetyv1alpha1.PlanFinalizer))
			Expect(k8sClient.Delete(ctx, first)).To(Succeed())
			awaitGone(first)
			pp := &safetyv1alpha1.ProjectPolicy{}
			Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: "project"}, pp)).To(Succeed())
			Expect(pp.Status.Settled).NotTo(BeNil())
			Expect(pp.Status.Settled.Cost).To(Equal("1.2"))
			Expect(pp.Status.Settled.Plans).To(Equal(int64(1)))
			By("deleting the ProjectPolicy that holds it is refused too")
			mustRefusePlan(k8sClient.Delete(ctx, pp), webhookv1alpha1.ReasonSettledSpendHeld, "status.settled", "cost 1.2")

			By("a new plan of the same project is still over the project's budget")
			p.plan("second", safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
			next := p.call("second", tool, "a", "src/a.go")
			awaitDecision(p.agent, next, safety.ReasonToolCostLimitExceeded)
			mustDeny(submit(p.agent, next), safety.ReasonToolCostLimitExceeded, "max_total_cost")
			By("the near miss: a plan (of another agent) whose own profile sets no project limit is admitted")
			other := p.newAgent("other")
			p.plan("third", safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "other", ProfileRef: spRef(safety.BuiltinUnrestricted)})
			mustAdmit(submit(other, p.call("third", tool, "a", "src/a.go")))
		})

		It("admits exactly the calls that fit the project's budget when two plans' calls arrive in parallel", func() {
			tool := costly("0.6")
			ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxTotalCost = money("1") }))
			other := p.newAgent("other")
			p.plan("first", safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
			p.plan("second", safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "other", ProfileRef: ref})
			var wg sync.WaitGroup
			errs := make([]error, 16)
			for i := range errs {
				agent, plan := p.agent, "first"
				if i%2 == 1 {
					agent, plan = other, "second"
				}
				wg.Go(func() {
					errs[i] = submit(agent, p.call(plan, tool, fmt.Sprintf("s-%d", i), fmt.Sprintf("src/%d.go", i)))
				})
			}
			wg.Wait()
			admitted := admittedAmong(errs, safety.ReasonToolCostLimitExceeded, "max_total_cost")
			// 0 and 0.6 are below 1: two calls fit in the namespace, whichever plans they are of.
			Expect(admitted).To(Equal(2))
			first, second := storedPlan(counters, p.ns, "first"), storedPlan(counters, p.ns, "second")
			Expect(safety.MustParseMoney(orZero(first.Status.Usage.AccumulatedCost)).SaturatingAdd(
				safety.MustParseMoney(orZero(second.Status.Usage.AccumulatedCost))).String()).To(Equal("1.2"))
		})
	})
})

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// editToolAndRelock changes the registered tool as a platform team would, then re-locks plan with
// token and waits until the manager's cache, by which the webhook decides, holds the second lock,
// which it returns.
func editToolAndRelock(ns, plan, tool, token string, edit func(*safetyv1alpha1.AgentTool)) *safetyv1alpha1.AgentPlan {
	GinkgoHelper()
	t := &safetyv1alpha1.AgentTool{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Name: tool}, t)).To(Succeed())
	edit(t)
	Expect(k8sClient.Update(ctx, t)).To(Succeed())
	p := &safetyv1alpha1.AgentPlan{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: plan}, p)).To(Succeed())
	patch := client.MergeFrom(p.DeepCopy())
	p.Annotations = map[string]string{safetyv1alpha1.RelockAnnotation: token}
	Expect(k8sClient.Patch(ctx, p, patch)).To(Succeed())
	Eventually(func(g Gomega) {
		g.Expect(managerClient.Get(ctx, client.ObjectKeyFromObject(p), p)).To(Succeed())
		g.Expect(p.Status.Snapshot.Epoch).To(Equal(int32(2)))
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	return p
}
