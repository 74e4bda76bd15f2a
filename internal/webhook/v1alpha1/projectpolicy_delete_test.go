package v1alpha1_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

var _ = Describe("Deleting a ProjectPolicy", func() {
	// policyWith creates the namespace's ProjectPolicy and stores settled as its status, as the
	// operator does when it settles a deleted plan.
	policyWith := func(ns string, settled *safetyv1alpha1.SettledPlans) *safetyv1alpha1.ProjectPolicy {
		GinkgoHelper()
		pp := &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"}}
		Expect(k8sClient.Create(ctx, pp)).To(Succeed())
		if settled != nil {
			Eventually(func() error {
				if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(pp), pp); err != nil {
					return err
				}
				pp.Status.Settled = settled
				return k8sClient.Status().Update(ctx, pp)
			}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		}
		return pp
	}

	It("is refused while it holds the settled spend of deleted plans and its namespace stays, and goes with its namespace", func() {
		p := newProject(nil)
		pp := policyWith(p.ns, &safetyv1alpha1.SettledPlans{Plans: 2, Cost: "1.2", Calls: 3})
		mustRefusePlan(k8sClient.Delete(ctx, pp), webhookv1alpha1.ReasonSettledSpendHeld, "status.settled",
			"holds the settled spend of 2 deleted plans (cost 1.2, 3 calls)", "Edit its spec instead")
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pp), pp)).To(Succeed())
		Expect(pp.DeletionTimestamp).To(BeNil())
		Expect(pp.Status.Settled.Cost).To(Equal("1.2"))

		By("the near misses: a policy that holds no settled spend is deleted")
		empty := newProject(nil)
		Expect(k8sClient.Delete(ctx, policyWith(empty.ns, nil))).To(Succeed())
		zero := newProject(nil)
		Expect(k8sClient.Delete(ctx, policyWith(zero.ns, &safetyv1alpha1.SettledPlans{Cost: "0"}))).To(Succeed())

		By("and once its namespace is being deleted, the policy that holds the spend goes with it")
		Expect(k8sClient.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: p.ns}})).To(Succeed())
		Eventually(func() error { return k8sClient.Delete(ctx, pp) }).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(pp), &safetyv1alpha1.ProjectPolicy{}))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(BeTrue())
	})
})
