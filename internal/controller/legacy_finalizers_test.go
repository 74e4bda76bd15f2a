package controller_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// legacyUsageFinalizer is what releases before usage counters put on every call.
const legacyUsageFinalizer = "safety.toolgate.dev/usage"

var _ = Describe("AgentToolCalls stored by an earlier release", func() {
	It("lose the usage finalizer nothing releases any more when this release's manager starts, so deleting them finishes, finished or not", func() {
		ns, agent := lockedPlan("upgraded")

		By("an earlier release's finalizers: on a running call being deleted, and on one that never reported, next to someone else's")
		running := submitCall(agent, ns, "upgraded", "running", "a", safetyv1alpha1.CallPhaseRunning, "", nil)
		update(running, func(c *safetyv1alpha1.AgentToolCall) { c.Finalizers = append(c.Finalizers, legacyUsageFinalizer) })
		Expect(k8sClient.Delete(ctx, running)).To(Succeed())
		pending := submitCall(agent, ns, "upgraded", "pending", "b", "", "", nil)
		update(pending, func(c *safetyv1alpha1.AgentToolCall) {
			c.Finalizers = append(c.Finalizers, legacyUsageFinalizer, "example.com/keep")
		})
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(running), running)).To(Succeed(), "the finalizer holds the deleted call")

		By("the manager of this release starting, as after an upgrade")
		Expect(cluster.RestartManager(defaultManager)).To(Succeed())
		Eventually(gone(running)).Should(BeTrue())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pending), pending)).To(Succeed())
			g.Expect(pending.Finalizers).To(Equal([]string{"example.com/keep"}))
		}).Should(Succeed(), "only toolgate's own finalizer is released")
		update(pending, func(c *safetyv1alpha1.AgentToolCall) { c.Finalizers = nil })
		Expect(k8sClient.Delete(ctx, pending)).To(Succeed())
		Eventually(gone(pending)).Should(BeTrue())
	})
})
