package controller_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

// lockCondition waits until the plan's Locked condition has status and reason, and returns the plan.
func lockCondition(p *safetyv1alpha1.AgentPlan, status metav1.ConditionStatus, reason string) *safetyv1alpha1.AgentPlan {
	GinkgoHelper()
	got := &safetyv1alpha1.AgentPlan{}
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), got)).To(Succeed())
		c := meta.FindStatusCondition(got.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)
		g.Expect(c).NotTo(BeNil())
		g.Expect(c.Status).To(Equal(status))
		g.Expect(c.Reason).To(Equal(reason))
	}).Should(Succeed())
	return got
}

var _ = Describe("locking a plan bound to a pod", func() {
	It("waits for the pod, refuses one running as another ServiceAccount, and records the pod's UID", func() {
		ns := newNamespace()
		p := plan(ns, "bound", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), PodName: "agent-pod"})
		create(p)
		lockCondition(p, metav1.ConditionFalse, safetyv1alpha1.AgentPlanPodNotFoundReason)

		By("a pod of that name running as another ServiceAccount")
		_, err := testenv.AgentPod(ctx, cfg, cluster.Scheme, ns, "someone-else", "agent-pod")
		Expect(err).NotTo(HaveOccurred())
		lockCondition(p, metav1.ConditionFalse, safetyv1alpha1.AgentPlanPodMismatchReason)

		By("the plan's own pod, after that one is gone")
		Expect(k8sClient.Delete(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "agent-pod"}},
			client.GracePeriodSeconds(0))).To(Succeed())
		var pod *testenv.PodAgent
		Eventually(func() error {
			pod, err = testenv.AgentPod(ctx, cfg, cluster.Scheme, ns, "agent", "agent-pod")
			return err
		}).Should(Succeed())
		got := lockCondition(p, metav1.ConditionTrue, safetyv1alpha1.AgentPlanLockedReason)
		Expect(got.Status.Snapshot.PodUID).To(Equal(string(pod.Pod.UID)))
	})
})

var _ = Describe("the PlanConflict backstop", func() {
	DescribeTable("locks one of two plans of a ServiceAccount that raced past the webhook, and refuses the other", func(podOfB string) {
		ns := newNamespace()
		if podOfB != "" {
			_, err := testenv.AgentPod(ctx, cfg, cluster.Scheme, ns, "agent", podOfB)
			Expect(err).NotTo(HaveOccurred())
		}
		By("letting the two creations past the AgentPlan webhook, as two replicas racing might")
		bypass(ns)
		a := plan(ns, "a", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted")})
		b := plan(ns, "b", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), PodName: podOfB})
		create(a)
		create(b)
		var locked, refused int
		Eventually(func(g Gomega) {
			locked, refused = 0, 0
			for _, p := range []*safetyv1alpha1.AgentPlan{a, b} {
				got := &safetyv1alpha1.AgentPlan{}
				g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), got)).To(Succeed())
				c := meta.FindStatusCondition(got.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)
				g.Expect(c).NotTo(BeNil())
				switch {
				case c.Status == metav1.ConditionTrue:
					locked++
				case c.Reason == safetyv1alpha1.AgentPlanConflictReason:
					refused++
				}
			}
			g.Expect([]int{locked, refused}).To(Equal([]int{1, 1}))
		}).Should(Succeed())
		Consistently(func(g Gomega) int {
			n := 0
			for _, p := range []*safetyv1alpha1.AgentPlan{a, b} {
				got := &safetyv1alpha1.AgentPlan{}
				g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), got)).To(Succeed())
				if got.Status.Snapshot != nil {
					n++
				}
			}
			return n
		}).WithTimeout(2 * time.Second).Should(Equal(1))
	},
		Entry("both bound to no pod", ""),
		Entry("one bound to no pod, one to a pod: a pod-less plan stands alone", "agent-pod"),
	)
})

// bypass exempts namespace ns from the AgentPlan webhook until the test ends, by a namespace
// selector on its registration, and waits until the API server applies it.
func bypass(ns string) {
	GinkgoHelper()
	const label = "toolgate.test/bypass-agentplan-webhook"
	n := &corev1.Namespace{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Name: ns}, n)).To(Succeed())
	update(n, func(n *corev1.Namespace) { n.Labels = map[string]string{label: "true"} })
	cfg := &admissionregistrationv1.ValidatingWebhookConfiguration{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Name: "validating-webhook-configuration"}, cfg)).To(Succeed())
	set := func(sel *metav1.LabelSelector) {
		update(cfg, func(c *admissionregistrationv1.ValidatingWebhookConfiguration) {
			for i := range c.Webhooks {
				if c.Webhooks[i].Name == "vagentplan-v1alpha1.toolgate.dev" {
					c.Webhooks[i].NamespaceSelector = sel
				}
			}
		})
	}
	set(&metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: label, Operator: metav1.LabelSelectorOpNotIn, Values: []string{"true"}}}})
	DeferCleanup(func() { set(&metav1.LabelSelector{}) })
	By("waiting until a second pod-less plan is no longer refused (a dry run)")
	Eventually(func() error {
		first := plan(ns, "probe-1", safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "probe"})
		if err := k8sClient.Create(ctx, first); client.IgnoreAlreadyExists(err) != nil {
			return err
		}
		return k8sClient.Create(ctx, plan(ns, "probe-2", safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "probe"}), client.DryRunAll)
	}).Should(Succeed())
}
