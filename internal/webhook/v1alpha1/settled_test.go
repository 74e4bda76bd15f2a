package v1alpha1_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// Deleting calls (by their TTL, or by hand) must not hand a plan back the budget it spent: the plan
// controller settles a deleted call's cost and attempt into the plan before the call goes, and the
// gate counts settled attempts. These specs play the agent that waits for its calls to go away.
var _ = Describe("AgentToolCall gate after calls are deleted", func() {
	var p *project
	BeforeEach(func() { p = newProject(nil) })

	// settledPlan waits until the plan's settled usage satisfies match.
	settledPlan := func(match func(g Gomega, s *safetyv1alpha1.SettledUsage)) {
		GinkgoHelper()
		Eventually(func(g Gomega) {
			plan := &safetyv1alpha1.AgentPlan{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: p.ns, Name: planName}, plan)).To(Succeed())
			g.Expect(plan.Status.Usage.Settled).NotTo(BeNil())
			match(g, plan.Status.Usage.Settled)
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
	}
	// awaitGone waits until the API server no longer has the call.
	awaitGone := func(call *safetyv1alpha1.AgentToolCall) {
		GinkgoHelper()
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(call), &safetyv1alpha1.AgentToolCall{}))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(BeTrue())
	}
	// awaitHeld waits until the plan controller holds the call with its usage finalizer.
	awaitHeld := func(call *safetyv1alpha1.AgentToolCall) {
		GinkgoHelper()
		Eventually(func(g Gomega) []string {
			cur := &safetyv1alpha1.AgentToolCall{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(call), cur)).To(Succeed())
			return cur.Finalizers
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(ContainElement(safetyv1alpha1.UsageFinalizer))
	}

	It("still denies a retry beyond maxRetriesPerStep once the earlier attempts are deleted", func() {
		ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxRetriesPerStep = new(int32(1)) }))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
		tool := p.tools[reader]

		By("a first attempt that another finalizer keeps after its deletion")
		held := p.call(planName, tool, stepUnderTest, "src/a.go")
		mustAdmit(submit(p.agent, held))
		// Added by an administrator after the create: a call created with a foreign finalizer is
		// denied (BadRequest).
		Eventually(func() error {
			if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(held), held); err != nil {
				return err
			}
			controllerutil.AddFinalizer(held, "example.com/hold")
			return k8sClient.Update(ctx, held)
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		awaitHeld(held)
		Expect(k8sClient.Delete(ctx, held)).To(Succeed())
		settledPlan(func(g Gomega, s *safetyv1alpha1.SettledUsage) {
			g.Expect(s.UIDs).To(ConsistOf(string(held.UID)))
			g.Expect(s.Steps).To(ConsistOf(safetyv1alpha1.StepUsage{Step: stepUnderTest, Attempts: 1}))
		})

		By("the settled call, still in the cache, counts once: one retry is still allowed")
		retry := p.call(planName, tool, stepUnderTest, "src/b.go")
		awaitDecision(p.agent, retry, "")
		mustAdmit(submit(p.agent, retry))
		mustDeny(submit(p.agent, p.call(planName, tool, stepUnderTest, "src/c.go")),
			safety.ReasonToolRetryLimitExceeded, "retried 2 times", "max_retries_per_step 1")

		By("both attempts deleted and gone")
		update := func(c *safetyv1alpha1.AgentToolCall) error {
			if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(c), c); err != nil {
				return err
			}
			controllerutil.RemoveFinalizer(c, "example.com/hold")
			return k8sClient.Update(ctx, c)
		}
		Eventually(func() error { return update(held) }).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		awaitHeld(retry)
		Expect(k8sClient.Delete(ctx, retry)).To(Succeed())
		awaitGone(held)
		awaitGone(retry)
		Expect(p.storedCalls()).To(BeEmpty())
		settledPlan(func(g Gomega, s *safetyv1alpha1.SettledUsage) {
			g.Expect(s.Calls).To(Equal(int64(2)))
			g.Expect(s.UIDs).To(BeEmpty())
		})

		By("the next retry is denied as if the attempts were still there")
		again := p.call(planName, tool, stepUnderTest, "src/d.go")
		awaitDecision(p.agent, again, safety.ReasonToolRetryLimitExceeded)
		mustDeny(submit(p.agent, again), safety.ReasonToolRetryLimitExceeded, "retried 2 times")
		Expect(p.storedCalls()).To(BeEmpty())

		By("another step keeps its own budget")
		mustAdmit(submit(p.agent, p.call(planName, tool, "step-2", "src/e.go")))
	})

	It("still denies a call over maxCostPerPlan once the calls that spent the budget are deleted", func() {
		ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("1") }))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
		p.spend(planName, "0.6", "0.4")
		next := p.call(planName, p.tools[reader], "after", "src/after.go")
		awaitDecision(p.agent, next, safety.ReasonToolCostLimitExceeded)

		for _, c := range p.storedCalls() {
			awaitHeld(&c)
			Expect(k8sClient.Delete(ctx, &c)).To(Succeed())
			awaitGone(&c)
		}
		settledPlan(func(g Gomega, s *safetyv1alpha1.SettledUsage) {
			g.Expect(s.AccumulatedCost).To(Equal("1"))
			g.Expect(s.Calls).To(Equal(int64(2)))
		})
		mustDeny(submit(p.agent, next), safety.ReasonToolCostLimitExceeded, "max_cost_per_plan")
	})
})
