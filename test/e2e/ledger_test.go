//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

var _ = Describe("the ledger across a manager crash", Ordered, func() {
	It("keeps every decision whose answer reached the agent when the manager is killed mid-load", func() {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "crash-"}}
		Expect(k8sClient.Create(ctx, ns)).To(Succeed())
		coder, err := testenv.Agent(ctx, local.Admin, k8sClient.Scheme(), ns.Name, "coder")
		Expect(err).NotTo(HaveOccurred())
		Expect(k8sClient.Create(ctx, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: ns.Name + "-read"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}})).To(Succeed())
		plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns.Name, Name: "p"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coder",
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "unrestricted"}}}
		Expect(k8sClient.Create(ctx, plan)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
			g.Expect(plan.Status.Snapshot).NotTo(BeNil())
		}).WithTimeout(30e9).Should(Succeed())

		By("submitting calls from 8 agents at once and killing the manager with SIGKILL in the middle")
		var mu sync.Mutex
		answered := map[string]string{} // call -> admitted / denied reason, only when an answer arrived
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := range 40 {
					name := fmt.Sprintf("w%d-%d", w, i)
					call := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns.Name, Name: name},
						Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "p", Tool: ns.Name + "-read", Step: name,
							Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"src/" + name}}}}
					err := coder.Create(ctx, call)
					mu.Lock()
					switch {
					case err == nil:
						answered[name] = "allow"
					case agent.ReasonOf(agent.FromError(err, call.Spec.Tool)) != "":
						answered[name] = "deny"
					}
					mu.Unlock()
				}
			})
		}
		answers := func() int { mu.Lock(); defer mu.Unlock(); return len(answered) }
		Eventually(answers).WithTimeout(30e9).Should(BeNumerically(">=", 40))
		Expect(local.StopManager(true)).To(Succeed())
		wg.Wait()

		By("restarting the manager: it recovers the ledger and serves again")
		Expect(local.StartManager(ctx)).To(Succeed())
		report, err := ledger.Verify(local.LedgerDir)
		Expect(err).NotTo(HaveOccurred())
		Expect(report.OK()).To(BeTrue(), report.Summary())
		lines, err := ledger.Tail(local.LedgerDir, 100000)
		Expect(err).NotTo(HaveOccurred())
		recorded := map[string]bool{}
		for _, l := range lines {
			s := string(l)
			if strings.Contains(s, `"namespace":"`+ns.Name+`"`) {
				for name := range answered {
					if strings.Contains(s, `"call":"`+name+`"`) {
						recorded[name] = true
					}
				}
			}
		}
		mu.Lock()
		defer mu.Unlock()
		for name, decision := range answered {
			Expect(recorded).To(HaveKey(name), "call %s was answered (%s) but is not in the ledger", name, decision)
		}
		GinkgoWriter.Printf("%d answered decisions, all in the ledger; %s\n", len(answered), report.Summary())
	})
})
