package hook_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/hook"
	"github.com/toolgate/toolgate/internal/testenv"
)

// The gateway and the hook are two doors to one gate (issue 19, item 5: one mapping, the answer a
// typed result). Through the gateway a call of a pod whose plan has ended is submitted naming that
// plan, so the webhook refuses it PlanExpired: the agent reads a typed reason and the ledger holds
// the refusal (internal/gateway's "refuses a call of an expired plan PlanExpired, writing nothing
// but its ledger record"). A caller no plan names is refused [PlanNotFound]. The hook must answer
// the same calls the same way.
var _ = Describe("toolgate-hook, for a pod whose plan has ended or that no plan names", Ordered, ContinueOnFailure, func() {
	var ns string

	argsFor := func(tokenFile string) []string {
		return []string{"--server", cluster.Config.Host, "--certificate-authority", caFile, "--namespace", ns,
			"--token-file", tokenFile}
	}

	BeforeAll(func() {
		ns = testNamespace("hook-ended-")
		read := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: "read"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}}
		if err := k8sClient.Create(ctx, read); err != nil {
			Expect(client.IgnoreAlreadyExists(err)).To(Succeed())
		}
	})

	It("denies a call of a pod whose plan has ended [PlanExpired], as the gateway does, and the ledger holds it", func() {
		tokenFile := agentTokenFile(ns, "late-agent", "late-pod")
		plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "brief"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "late-agent", PodName: "late-pod",
				ActiveDeadlineSeconds: new(int64(1))}}
		Expect(k8sClient.Create(ctx, plan)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
			g.Expect(meta.IsStatusConditionFalse(plan.Status.Conditions, safetyv1alpha1.AgentPlanActiveCondition)).To(BeTrue())
		}).WithTimeout(30 * time.Second).Should(Succeed())

		out := run(payload("read.json"), argsFor(tokenFile)...)
		Expect(out.PermissionDecision).To(Equal(hook.Deny))
		Expect(out.PermissionDecisionReason).To(HavePrefix("[PlanExpired] "),
			"the gateway answers this call [PlanExpired] from the webhook; the hook answers: %s", out.PermissionDecisionReason)
		Eventually(func() ([]map[string]any, error) { return testenv.Decisions(ledgerDir, ns) }).
			WithTimeout(10*time.Second).Should(ContainElement(And(HaveKeyWithValue("plan", "brief"),
			HaveKeyWithValue("reason", "PlanExpired"))), "the refusal is in the ledger, as the gateway's is")
	})

	It("denies a call of a pod no plan names with the typed reason [PlanNotFound], as the gateway does", func() {
		out := run(payload("read.json"), argsFor(agentTokenFile(ns, "stranger", "stranger-pod"))...)
		Expect(out.PermissionDecision).To(Equal(hook.Deny))
		Expect(out.PermissionDecisionReason).To(HavePrefix("[PlanNotFound] "),
			"the gateway's denial is typed [PlanNotFound]; the hook answers: %s", out.PermissionDecisionReason)
	})
})
