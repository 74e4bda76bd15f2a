package controller_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/testenv"
)

// The webhook and the lock read approvals and plans live; these lookups must come back from the
// API server with what they are for and nothing else of the namespace, which keeps every plan run
// there until a week after it ended (endedPlanTTLSeconds) and the approvals made for them.
var _ = Describe("live lookups by selectable field", func() {
	It("return a plan's approvals and a ServiceAccount's plans, not the rest of the namespace", func() {
		ns := newNamespace()
		registerReadFile()
		// other's two plans are bound to two pods, so both may stand.
		for name, agent := range map[string][2]string{"p": {"agent"}, "p2": {"other", "pod-a"}, "q": {"other", "pod-b"}, "r": {"third"}} {
			create(plan(ns, name, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), ServiceAccountName: agent[0], PodName: agent[1]}))
		}
		alice, err := testenv.Person(ctx, cluster.Env, cluster.Scheme, "alice-"+ns+"@example.com")
		Expect(err).NotTo(HaveOccurred())
		approvalsOf := map[string][]string{}
		for _, p := range []string{"p", "p2", "q", "q", "r"} {
			a := &safetyv1alpha1.ToolApproval{ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: p + "-"},
				Spec: safetyv1alpha1.ToolApprovalSpec{Plan: p, Tool: "read-file", Approver: alice.Name, Uses: 1}}
			Expect(alice.Client.Create(ctx, a)).To(Succeed())
			approvalsOf[p] = append(approvalsOf[p], a.Name)
		}

		names := func(items []safetyv1alpha1.ToolApproval) []string {
			out := make([]string, len(items))
			for i := range items {
				out[i] = items[i].Name
			}
			return out
		}
		for _, p := range []string{"p", "q", "none"} {
			got, err := controller.ApprovalsOfPlan(ctx, k8sClient, ns, p)
			Expect(err).NotTo(HaveOccurred())
			Expect(names(got)).To(ConsistOf(approvalsOf[p]), "the approvals of plan %s", p)
		}

		plansOf := func(sa string) []string {
			got, err := controller.PlansOfServiceAccount(ctx, k8sClient, ns, sa)
			Expect(err).NotTo(HaveOccurred())
			out := make([]string, len(got))
			for i := range got {
				out[i] = got[i].Name
			}
			return out
		}
		Expect(plansOf("other")).To(ConsistOf("p2", "q"))
		Expect(plansOf("agent")).To(ConsistOf("p"))
		Expect(plansOf("nobody")).To(BeEmpty())
	})
})
