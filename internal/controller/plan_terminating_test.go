package controller_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

var _ = Describe("A plan in a namespace being deleted", func() {
	It("is released unsettled instead of holding the namespace", func() {
		ns := newNamespace()
		p := plan(ns, "p", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted")})
		Expect(k8sClient.Create(ctx, p)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), p)).To(Succeed())
			g.Expect(p.Finalizers).To(ContainElement(safetyv1alpha1.PlanFinalizer))
		}).Should(Succeed())
		// No namespace controller runs here: the namespace stays Terminating, refusing creates
		// (the ProjectPolicy that would hold the spend), and its plan is deleted by hand.
		Expect(k8sClient.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())
		Expect(k8sClient.Delete(ctx, p)).To(Succeed())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), &safetyv1alpha1.AgentPlan{}))
		}).Should(BeTrue())
	})
})
