package v1alpha1_test

import (
	"context"
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/operator"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/testenv"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// startDeciders starts len(stores) managers serving the webhooks for one leader Lease, as
// main.go's --leader-elect replicas do, with replica i's counters in stores[i]; it waits until one
// of them leads, and stops them all when the container ends.
func startDeciders(stores []*webhookv1alpha1.CounterStore) *testenv.Replicas {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	j, err := ledger.Open(audit.Config(nil, dir, "replica-0", nil))
	Expect(err).NotTo(HaveOccurred())
	r, err := testenv.StartReplicas(len(stores), func(r *testenv.Replicas, i int, mgr ctrl.Manager) error {
		owner, err := r.Owner(i)
		if err != nil {
			return err
		}
		stores[i] = &webhookv1alpha1.CounterStore{}
		return operator.Setup(mgr, operator.Options{Controllers: controller.Options{Journal: j, LedgerDir: dir},
			Owner: owner, Peers: r.Peers[i], Counters: stores[i]})
	})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() {
		Expect(r.Stop()).To(Succeed())
		Expect(j.Close()).To(Succeed())
	})
	Eventually(r.Leader).WithTimeout(waitTimeout).WithPolling(waitInterval).ShouldNot(Equal(-1))
	return r
}

// Three webhook replicas behind one API server, each a manager of its own with its own cache,
// reached through a round-robin proxy that sends each admission to the next replica. As with
// main.go's --leader-elect, they run for one leader Lease: the leader runs the controllers and
// decides every plan's counters, and the other two forward their AgentToolCall reviews to it
// over the peer listener (mutual TLS with the serving certificate).
var _ = Describe("AgentToolCall admission with three webhook replicas", Ordered, func() {
	const replicas = 3
	var (
		r      *testenv.Replicas
		admin  client.Client
		stores [replicas]*webhookv1alpha1.CounterStore
	)
	BeforeAll(func() {
		r = startDeciders(stores[:])
		admin = r.Client
	})
	// stored reads a plan once every replica has written the counters it decided for it.
	stored := func(ns, name string) *safetyv1alpha1.AgentPlan {
		GinkgoHelper()
		key := client.ObjectKey{Namespace: ns, Name: name}
		for _, s := range stores {
			Expect(s.Store(ctx, key)).To(Succeed())
		}
		plan := &safetyv1alpha1.AgentPlan{}
		Expect(admin.Get(ctx, key, plan)).To(Succeed())
		return plan
	}

	// world creates a namespace with an agent, a reader tool reserving cost, a profile and a
	// locked plan, and returns the namespace, the agent, the tool and the plan's name.
	world := func(cost string, restrict func(*safetyv1alpha1.SafetyProfileSpec)) (string, client.Client, string) {
		GinkgoHelper()
		wait, cancel := context.WithTimeout(ctx, waitTimeout)
		defer cancel()
		p, err := testenv.LockedProject(wait, admin, r.Config, r.Scheme, "replicas-", agentSA, planName, cost, profileWith(restrict))
		Expect(err).NotTo(HaveOccurred())
		return p.Namespace, p.Agent, p.Tool
	}
	call := func(ns, tool, step string, i int) *safetyv1alpha1.AgentToolCall {
		return &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: "call-"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: planName, Tool: tool, Step: step,
				Arguments: safetyv1alpha1.ToolArguments{Paths: []string{fmt.Sprintf("src/%d.go", i)}}}}
	}
	// burst submits n calls at once (step(i) names each one's step) and returns the errors.
	burst := func(agent client.Client, n int, mk func(i int) *safetyv1alpha1.AgentToolCall) []error {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range errs {
			wg.Go(func() { errs[i] = agent.Create(ctx, mk(i)) })
		}
		wg.Wait()
		return errs
	}
	connections := func() []int64 {
		out := make([]int64, replicas)
		for i := range out {
			out[i] = r.Connections[i].Load()
		}
		return out
	}

	It("admits exactly maxRetriesPerStep+1 of 24 concurrent submissions for one step, whichever replica decides", func() {
		ns, agent, tool := world("", func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxRetriesPerStep = new(int32(3)) })
		before := connections()
		errs := burst(agent, 24, func(i int) *safetyv1alpha1.AgentToolCall { return call(ns, tool, stepUnderTest, i) })
		admitted := admittedAmong(errs, safety.ReasonToolRetryLimitExceeded, "max_retries_per_step 3")
		Expect(admitted).To(Equal(4), "the first attempt and 3 retries")
		after := connections()
		for i := range after {
			Expect(after[i]-before[i]).To(BeNumerically(">=", 24/replicas-1), "replica %d decided its share (%v -> %v)", i, before, after)
		}
		var calls safetyv1alpha1.AgentToolCallList
		Expect(admin.List(ctx, &calls, client.InNamespace(ns))).To(Succeed())
		Expect(calls.Items).To(HaveLen(4))
		plan := stored(ns, planName)
		Expect(plan.Status.Usage.StepAttempts).To(Equal(map[string]int32{stepUnderTest: 4}))
		Expect(plan.Status.Usage.Calls).To(Equal(int64(4)))
	})

	It("never lets concurrent calls on three replicas overrun maxCostPerPlan by more than the last call's reservation", func() {
		ns, agent, tool := world("0.3", func(s *safetyv1alpha1.SafetyProfileSpec) { s.MaxCostPerPlan = money("1") })
		errs := burst(agent, 24, func(i int) *safetyv1alpha1.AgentToolCall { return call(ns, tool, fmt.Sprintf("s-%d", i), i) })
		admitted := admittedAmong(errs, safety.ReasonToolCostLimitExceeded, "max_cost_per_plan")
		// 0, 0.3, 0.6 and 0.9 are below the limit: exactly four calls fit, the fourth ending at 1.2.
		Expect(admitted).To(Equal(4))
		plan := stored(ns, planName)
		Expect(plan.Status.Usage.AccumulatedCost).To(Equal("1.2"))
		Expect(plan.Status.Usage.ReservedCost).To(Equal("1.2"))
	})

	DescribeTable("costs the API server at most four writes per call, controller writes included", func(sticky bool, bound float64) {
		const calls, clients = 120, 8
		r.Sticky.Store(sticky)
		DeferCleanup(func() { r.Sticky.Store(false) })
		ns, _, tool := world("0.01", nil)
		Expect(admin.Create(ctx, &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"}})).To(Succeed())
		ledgerConfig := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName},
			Spec: safetyv1alpha1.AuditLedgerSpec{FinishedCallTTLSeconds: new(int64(0))}}
		Expect(admin.Create(ctx, ledgerConfig)).To(Succeed())
		DeferCleanup(func() { Expect(admin.Delete(ctx, ledgerConfig)).To(Succeed()) })
		// The plan of world has no reporter; this one names the gateway that reports for the agent.
		gatewayCfg, err := testenv.AgentConfig(ctx, r.Config, ns, "gateway")
		Expect(err).NotTo(HaveOccurred())
		// Another agent's plan, so no agent has two plans at once.
		plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "metered"},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "metered-agent", ProfileRef: spRef(ns),
				CostReporter: &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "gateway"}}}
		Expect(admin.Create(ctx, plan)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(admin.Get(ctx, client.ObjectKeyFromObject(plan), plan)).To(Succeed())
			g.Expect(plan.Status.Snapshot).NotTo(BeNil())
			g.Expect(plan.Finalizers).To(ContainElement(safetyv1alpha1.PlanFinalizer))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		agentCfg, err := testenv.AgentConfig(ctx, r.Config, ns, "metered-agent")
		Expect(err).NotTo(HaveOccurred())

		r.Writes.Reset()
		agent, err := client.New(r.Writes.Wrap(agentCfg), client.Options{Scheme: r.Scheme})
		Expect(err).NotTo(HaveOccurred())
		gateway, err := client.New(r.Writes.Wrap(gatewayCfg), client.Options{Scheme: r.Scheme})
		Expect(err).NotTo(HaveOccurred())
		By(fmt.Sprintf("%d clients each creating a call, then the gateway reporting its phase and cost", clients))
		var wg sync.WaitGroup
		jobs := make(chan int)
		for range clients {
			wg.Go(func() {
				defer GinkgoRecover()
				for i := range jobs {
					c := call(ns, tool, fmt.Sprintf("s-%d", i%50), i)
					c.Spec.Plan = plan.Name
					Expect(agent.Create(ctx, c)).To(Succeed())
					c.Status = safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseSucceeded, Cost: money("0.005"),
						Conditions: []metav1.Condition{toolcall.CostFinal("the stand-in gateway", metav1.Now())}} // as the gateway reports
					Expect(gateway.Status().Update(ctx, c)).To(Succeed())
				}
			})
		}
		for i := range calls {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		By("the controllers recording, deleting and accounting for them")
		Eventually(func(g Gomega) {
			var left safetyv1alpha1.AgentToolCallList
			g.Expect(admin.List(ctx, &left, client.InNamespace(ns))).To(Succeed())
			g.Expect(left.Items).To(BeEmpty())
			pp := &safetyv1alpha1.ProjectPolicy{}
			g.Expect(admin.Get(ctx, client.ObjectKey{Namespace: ns, Name: "project"}, pp)).To(Succeed())
			g.Expect(pp.Status.TotalCost).To(Equal("1.2"))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		got := stored(ns, plan.Name)
		Expect(got.Status.Usage.Calls).To(Equal(int64(calls)))
		Expect(got.Status.Usage.AccumulatedCost).To(Equal("1.2"), "each call reserved 0.01 and reported less")

		_, total := r.Writes.Counts()
		perCall := float64(total) / calls
		spread := "every admission to the next replica"
		if sticky {
			spread = "the API server's connections on one replica"
		}
		report := fmt.Sprintf("%d calls from %d clients, %s: %d API writes, %.2f per call\n%s", calls, clients, spread, total, perCall, r.Writes.String())
		AddReportEntry("API writes per call", report)
		GinkgoWriter.Print(report)
		Expect(perCall).To(BeNumerically("<=", bound), report)
	},
		Entry("with the API server's connections on one replica", true, 4.0),
		// The two replicas that do not decide forward to the one that does: no race for the plan.
		Entry("with every admission sent to the next of three replicas", false, 4.0),
	)
})
