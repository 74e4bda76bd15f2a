package controller_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/testenv"
)

var _ = Describe("spent ToolApprovals", func() {
	// approverOfPlan makes a namespace with plan p (read-file registered) and a person, alice,
	// who may approve its calls.
	approverOfPlan := func() (string, *testenv.Human) {
		GinkgoHelper()
		ns := newNamespace()
		registerReadFile()
		create(plan(ns, "p", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted")}))
		alice, err := testenv.Person(ctx, cluster.Env, cluster.Scheme, "alice-"+ns+"@example.com")
		Expect(err).NotTo(HaveOccurred())
		return ns, alice
	}

	It("are deleted the TTL after they expire or are used up, and never while they can still admit a call", func() {
		ns, alice := approverOfPlan()
		approve := func(uses int32) *safetyv1alpha1.ToolApproval {
			a := &safetyv1alpha1.ToolApproval{ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: "a-"},
				Spec: safetyv1alpha1.ToolApprovalSpec{Plan: "p", Tool: "read-file", Approver: alice.Name, Uses: uses}}
			Expect(alice.Client.Create(ctx, a)).To(Succeed())
			return a
		}
		unused, spent := approve(1), approve(2)
		created := unused.CreationTimestamp.Time
		clk := clocktesting.NewFakeClock(created)
		r := &controller.SpentApprovalReconciler{Client: k8sClient, Clock: clk}
		reconcile := func(a *safetyv1alpha1.ToolApproval) ctrl.Result {
			GinkgoHelper()
			res, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(a)})
			Expect(err).NotTo(HaveOccurred())
			return res
		}
		exists := func(a *safetyv1alpha1.ToolApproval) bool {
			return k8sClient.Get(ctx, client.ObjectKeyFromObject(a), &safetyv1alpha1.ToolApproval{}) == nil
		}

		By("an unused approval waits for its expiry (1h by default) plus the TTL (1h without an AuditLedger)")
		Expect(reconcile(unused).RequeueAfter).To(Equal(2 * time.Hour))
		clk.SetTime(created.Add(2*time.Hour - time.Second))
		Expect(reconcile(unused).RequeueAfter).To(Equal(time.Second))
		Expect(exists(unused)).To(BeTrue())

		By("an approval used up before it expires waits for the TTL from its last use")
		lastUse := created.Add(10 * time.Minute).Truncate(time.Second)
		spent.Status = safetyv1alpha1.ToolApprovalStatus{Used: 2, UsedBy: []safetyv1alpha1.ApprovalUse{
			{Call: "c1", Requester: "system:serviceaccount:" + ns + ":agent", Time: metav1.NewTime(lastUse.Add(-time.Minute))},
			{Call: "c2", Requester: "system:serviceaccount:" + ns + ":agent", Time: metav1.NewTime(lastUse)},
		}}
		Expect(k8sClient.Status().Update(ctx, spent)).To(Succeed())
		Expect(reconcile(spent)).To(Equal(ctrl.Result{}), "spent at %s: deleted at %s", lastUse, clk.Now())
		Expect(exists(spent)).To(BeFalse())

		By("the unused one goes once its time has come")
		clk.SetTime(created.Add(2 * time.Hour))
		Expect(reconcile(unused)).To(Equal(ctrl.Result{}))
		Expect(exists(unused)).To(BeFalse())
		Expect(reconcile(unused)).To(Equal(ctrl.Result{}), "a deleted approval is nothing to do")
	})

	It("carry status.expiresAt, their creation plus expirationSeconds, put right when written otherwise", func() {
		ns, alice := approverOfPlan()
		a := &safetyv1alpha1.ToolApproval{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "a"},
			Spec: safetyv1alpha1.ToolApprovalSpec{Plan: "p", Tool: "read-file", Approver: alice.Name,
				ExpirationSeconds: 900, Uses: 3}}
		Expect(alice.Client.Create(ctx, a)).To(Succeed())
		want := a.CreationTimestamp.Add(900 * time.Second)
		r := &controller.SpentApprovalReconciler{Client: k8sClient, Clock: clocktesting.NewFakeClock(a.CreationTimestamp.Time)}
		reconcile := func() *safetyv1alpha1.ToolApproval {
			GinkgoHelper()
			_, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(a)})
			Expect(err).NotTo(HaveOccurred())
			got := &safetyv1alpha1.ToolApproval{}
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(a), got)).To(Succeed())
			return got
		}

		got := reconcile()
		Expect(got.Status.ExpiresAt).NotTo(BeNil())
		Expect(got.Status.ExpiresAt.Time).To(BeTemporally("==", want))

		By("a use counted meanwhile is kept, and a wrong expiresAt is put right")
		got.Status.Used = 1
		got.Status.UsedBy = []safetyv1alpha1.ApprovalUse{{Call: "c1",
			Requester: "system:serviceaccount:" + ns + ":agent", Time: metav1.NewTime(want.Add(-time.Minute))}}
		got.Status.ExpiresAt = &metav1.Time{Time: want.Add(24 * time.Hour)}
		Expect(k8sClient.Status().Update(ctx, got)).To(Succeed())
		got = reconcile()
		Expect(got.Status.ExpiresAt.Time).To(BeTemporally("==", want))
		Expect(got.Status.Used).To(Equal(int32(1)))
		Expect(got.Status.UsedBy).To(HaveLen(1))
	})
})
