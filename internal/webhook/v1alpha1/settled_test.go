package v1alpha1_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// awaitGone waits until the API server no longer has obj.
func awaitGone(obj client.Object) {
	GinkgoHelper()
	Eventually(func() bool {
		return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj.DeepCopyObject().(client.Object)))
	}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(BeTrue())
}

// Deleting calls (by their TTL, or by hand) must not hand a plan back the budget it spent: the
// webhook counted each call into the plan's status when it admitted it, and deleting the object
// changes no counter. These specs play the agent that waits for its calls to go away.
var _ = Describe("AgentToolCall gate after calls are deleted", func() {
	var p *project
	BeforeEach(func() { p = newProject(nil) })

	It("still denies a retry beyond maxRetriesPerStep once the earlier attempts are deleted", func() {
		ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxRetriesPerStep = new(int32(1)) }))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref})
		tool := p.tools[reader]
		p.attempts(planName, tool, stepUnderTest, 2)
		mustDeny(submit(p.agent, p.call(planName, tool, stepUnderTest, "src/c.go")),
			safety.ReasonToolRetryLimitExceeded, "retried 2 times", "max_retries_per_step 1")

		By("both attempts deleted and gone, with no finalizer holding them")
		for _, c := range p.storedCalls() {
			Expect(c.Finalizers).To(BeEmpty())
			Expect(k8sClient.Delete(ctx, &c)).To(Succeed())
			awaitGone(&c)
		}
		Expect(p.storedCalls()).To(BeEmpty())

		By("the next retry is denied as if the attempts were still there")
		mustDeny(submit(p.agent, p.call(planName, tool, stepUnderTest, "src/d.go")), safety.ReasonToolRetryLimitExceeded, "retried 2 times")
		Expect(p.storedCalls()).To(BeEmpty())

		By("another step keeps its own budget")
		mustAdmit(submit(p.agent, p.call(planName, tool, "step-2", "src/e.go")))
	})

	It("still denies a call over maxCostPerPlan once the calls that spent the budget are deleted", func() {
		ref := p.profile(profileWith(func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("1") }))
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: ref, CostReporter: trustAgent()})
		p.spend(planName, "0.6", "0.4")
		next := p.call(planName, p.tools[reader], "after", "src/after.go")
		mustDeny(submit(p.agent, next.DeepCopy()), safety.ReasonToolCostLimitExceeded, "max_cost_per_plan")

		for _, c := range p.storedCalls() {
			Expect(k8sClient.Delete(ctx, &c)).To(Succeed())
			awaitGone(&c)
		}
		mustDeny(submit(p.agent, next), safety.ReasonToolCostLimitExceeded, "max_cost_per_plan")
		plan := storedPlan(counters, p.ns, planName)
		Expect(plan.Status.Usage.AccumulatedCost).To(Equal("1"))
		Expect(plan.Status.Usage.Calls).To(Equal(int64(2)))
	})
})
