//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

// Three manager binaries on a control plane of their own, behind a round-robin proxy on the
// webhook's port: the leader decides every plan's counters and the other two forward their
// AgentToolCall reviews to it over the peer listener. Agents use real ServiceAccount tokens.
var _ = Describe("three manager binaries serving the webhook", Ordered, func() {
	const replicas = 3
	var (
		cluster *testenv.Local
		set     *testenv.LocalReplicas
		admin   client.Client
	)
	BeforeAll(func() {
		var err error
		cluster, err = testenv.StartLocal(ctx, GinkgoT().TempDir(), GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(cluster.Env.Stop()).To(Succeed()) })
		admin, err = client.New(cluster.Admin, client.Options{Scheme: k8sClient.Scheme()})
		Expect(err).NotTo(HaveOccurred())
		set, err = cluster.StartManagers(ctx, replicas)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(set.Stop()).To(Succeed()) })
	})

	// world makes a namespace with an agent, a reader tool (reserving cost, if given), a profile
	// and a plan locked by the leader's controllers.
	world := func(cost string, spec safetyv1alpha1.SafetyProfileSpec) (string, client.Client, string) {
		GinkgoHelper()
		wait, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		p, err := testenv.LockedProject(wait, admin, cluster.Admin, k8sClient.Scheme(),
			"replicas-", "agent", "plan", cost, spec)
		Expect(err).NotTo(HaveOccurred())
		return p.Namespace, p.Agent, p.Tool
	}
	// burst submits n calls at once and returns how many were admitted; every other must be
	// refused with reason.
	burst := func(coder client.Client, ns, tool string, n int, step func(i int) string, reason string) int {
		GinkgoHelper()
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range errs {
			wg.Go(func() {
				errs[i] = coder.Create(ctx, &safetyv1alpha1.AgentToolCall{
					ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: "call-"},
					Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "plan", Tool: tool, Step: step(i),
						Arguments: safetyv1alpha1.ToolArguments{Paths: []string{fmt.Sprintf("src/%d.go", i)}}}})
			})
		}
		wg.Wait()
		admitted := 0
		for _, err := range errs {
			if err == nil {
				admitted++
				continue
			}
			Expect(err.Error()).To(ContainSubstring("[" + reason + "]"))
		}
		return admitted
	}
	usage := func(ns string) func(g Gomega) safetyv1alpha1.PlanUsage {
		return func(g Gomega) safetyv1alpha1.PlanUsage {
			p := &safetyv1alpha1.AgentPlan{}
			g.Expect(admin.Get(ctx, client.ObjectKey{Namespace: ns, Name: "plan"}, p)).To(Succeed())
			return p.Status.Usage
		}
	}

	It("admits exactly maxRetriesPerStep+1 of 24 concurrent attempts of one step, whichever process is asked", func() {
		ns, coder, tool := world("", safetyv1alpha1.SafetyProfileSpec{MaxRetriesPerStep: new(int32(3))})
		// The proxy spreads connections, not requests: the API server sends an attempt on a
		// connection an earlier answer left idle if it can, and on a loaded machine the attempts
		// come far enough apart for that. Held at the proxy until 24 connections carry one, the
		// attempts are all in flight at once, each on a connection of its own.
		held, release := set.Hold(24)
		DeferCleanup(release)
		Expect(burst(coder, ns, tool, 24, func(int) string { return "build" }, "ToolRetryLimitExceeded")).To(Equal(4))
		release() // released already: no attempt could be answered before
		asked := <-held
		GinkgoWriter.Printf("the replicas were asked %v\n", asked)
		for i := range asked {
			Expect(asked[i]).To(BeNumerically(">=", 24/replicas-1), "replica %d was asked its share (%v)", i, asked)
		}
		var calls safetyv1alpha1.AgentToolCallList
		Expect(admin.List(ctx, &calls, client.InNamespace(ns))).To(Succeed())
		Expect(calls.Items).To(HaveLen(4))
		Eventually(usage(ns)).WithTimeout(30 * time.Second).Should(And(
			HaveField("StepAttempts", Equal(map[string]int32{"build": 4})), HaveField("Calls", Equal(int64(4)))))
	})

	It("never lets concurrent calls on three processes overrun maxCostPerPlan by more than the last reservation", func() {
		ns, coder, tool := world("0.3", safetyv1alpha1.SafetyProfileSpec{MaxCostPerPlan: new(resource.MustParse("1"))})
		// 0, 0.3, 0.6 and 0.9 are below the limit: exactly four calls fit, the fourth ending at 1.2.
		steps := func(i int) string { return fmt.Sprintf("s-%d", i) }
		Expect(burst(coder, ns, tool, 24, steps, "ToolCostLimitExceeded")).To(Equal(4))
		Eventually(usage(ns)).WithTimeout(30 * time.Second).Should(And(
			HaveField("AccumulatedCost", "1.2"), HaveField("ReservedCost", "1.2")))
	})
})
