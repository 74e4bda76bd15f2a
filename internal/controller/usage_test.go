package controller_test

import (
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/operator"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/testenv"
	pkgagent "github.com/toolgate/toolgate/pkg/agent"
)

// reportCalls has the agent submit n calls for the plan (spread over 100 steps, each touching its
// own file so none is a loop) and report cost for each, from workers goroutines at once.
func reportCalls(agent client.Client, ns, planName, step string, n, workers int, cost string) {
	GinkgoHelper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	jobs := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				call := &safetyv1alpha1.AgentToolCall{
					ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: fmt.Sprintf("%s-%s-%d-", planName, step, i)},
					Spec: safetyv1alpha1.AgentToolCallSpec{Plan: planName, Tool: "read-file", Step: fmt.Sprintf("%s-%d", step, i%100),
						Arguments: safetyv1alpha1.ToolArguments{Paths: []string{fmt.Sprintf("src/%s/file-%d.go", step, i)}}},
				}
				if err := agent.Create(ctx, call); err != nil {
					errs <- err
					continue
				}
				call.Status = safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseSucceeded, Cost: money(cost)}
				if err := pkgagent.Report(ctx, agent, call); err != nil {
					errs <- err
				}
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	close(errs)
	for err := range errs {
		Expect(err).NotTo(HaveOccurred())
	}
}

func usageOf(ns, name string) func(g Gomega) safetyv1alpha1.PlanUsage {
	return func(g Gomega) safetyv1alpha1.PlanUsage {
		p := &safetyv1alpha1.AgentPlan{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, p)).To(Succeed())
		return p.Status.Usage
	}
}

var _ = Describe("usage accounting", func() {
	It("adds 1000 concurrent calls of 0.01 to exactly 10, survives a manager restart, and rolls up to the project", func() {
		ns := newNamespace()
		agent, err := testenv.Agent(ctx, cfg, cluster.Scheme, ns, "agent")
		Expect(err).NotTo(HaveOccurred())
		registerReadFile()
		create(&safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"}})
		// One pod-less plan per ServiceAccount (PlanConflict): the other plan has its own agent.
		otherAgent, err := testenv.Agent(ctx, cfg, cluster.Scheme, ns, "other")
		Expect(err).NotTo(HaveOccurred())
		p := plan(ns, "spender", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted")})
		other := plan(ns, "other", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), ServiceAccountName: "other"})
		create(p)
		create(other)
		lockedSnapshot(p)
		lockedSnapshot(other)

		reportCalls(agent, ns, "spender", "build", 1000, 16, "0.01")
		reportCalls(otherAgent, ns, "other", "probe", 3, 3, "0.333333333")
		Eventually(func(g Gomega) {
			u := usageOf(ns, "spender")(g)
			g.Expect(u.AccumulatedCost).To(Equal("10"))
			g.Expect(u.Calls).To(Equal(int64(1000)))
			g.Expect(u.StepAttempts).To(HaveLen(100))
			g.Expect(u.StepAttempts).To(HaveEach(int32(10)))
		}).WithTimeout(60 * time.Second).Should(Succeed())

		By("restarting the manager: nothing is counted twice")
		Expect(cluster.RestartManager(func(mgr ctrl.Manager) error { return operator.Setup(mgr, operator.Options{}) })).To(Succeed())
		// The plan already uses its profile's 100 steps (maxStepsPerPlan), so these retry two of them.
		reportCalls(agent, ns, "spender", "build", 2, 2, "0.005")
		Eventually(func(g Gomega) {
			u := usageOf(ns, "spender")(g)
			g.Expect(u.AccumulatedCost).To(Equal("10.01"))
			g.Expect(u.Calls).To(Equal(int64(1002)))
		}).Should(Succeed())
		Consistently(func(g Gomega) string { return usageOf(ns, "spender")(g).AccumulatedCost }).
			WithTimeout(2 * time.Second).Should(Equal("10.01"))

		By("rolling both plans up into the project's total")
		Eventually(func(g Gomega) {
			pp := &safetyv1alpha1.ProjectPolicy{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "project"}, pp)).To(Succeed())
			g.Expect(pp.Status.TotalCost).To(Equal("11.009999999"))
			g.Expect(pp.Status.Plans).To(Equal(int32(2)))
		}).Should(Succeed())
	})
})

var _ = Describe("absurd costs", func() {
	It("saturate a plan's and a project's totals instead of stopping their accounting", func() {
		ns := newNamespace()
		agent, err := testenv.Agent(ctx, cfg, cluster.Scheme, ns, "agent")
		Expect(err).NotTo(HaveOccurred())
		registerReadFile()
		create(&safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "project"}})
		// One pod-less plan per ServiceAccount (PlanConflict): "bigger" has its own agent.
		biggerAgent, err := testenv.Agent(ctx, cfg, cluster.Scheme, ns, "bigger")
		Expect(err).NotTo(HaveOccurred())
		for name, sa := range map[string]string{"big": "agent", "bigger": "bigger"} {
			p := plan(ns, name, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), ServiceAccountName: sa})
			create(p)
			lockedSnapshot(p)
		}
		By("a cost above a billion is refused by the schema")
		call := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "too-much"},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "big", Tool: "read-file", Step: "s"}}
		Expect(agent.Create(ctx, call)).To(Succeed())
		call.Status.Cost = money("1000000000.000000001")
		err = agent.Status().Update(ctx, call)
		Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("must be at most 1000000000"))

		By("ten calls of a billion each overflow what Money holds: the total saturates, and the next call still counts")
		reportCalls(agent, ns, "big", "s", 10, 4, "1000000000")
		reportCalls(biggerAgent, ns, "bigger", "s", 1, 1, "1000000000")
		Eventually(func(g Gomega) {
			u := usageOf(ns, "big")(g)
			g.Expect(u.AccumulatedCost).To(Equal(safety.MaxMoney.String()))
			g.Expect(u.Calls).To(Equal(int64(11)))
		}).Should(Succeed())
		Eventually(func(g Gomega) string {
			pp := &safetyv1alpha1.ProjectPolicy{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "project"}, pp)).To(Succeed())
			return pp.Status.TotalCost
		}).Should(Equal(safety.MaxMoney.String()))
	})
})

var _ = Describe("built-in SafetyProfiles", func() {
	It("exist at start-up and are restored after an edit", func() {
		for _, name := range []string{"unrestricted", "read-only", "sandboxed"} {
			Eventually(func() error {
				return k8sClient.Get(ctx, client.ObjectKey{Name: name}, &safetyv1alpha1.SafetyProfile{})
			}).Should(Succeed(), name)
		}
		sp := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: "sandboxed"}}
		update(sp, func(sp *safetyv1alpha1.SafetyProfile) { sp.Spec.RequireSandbox = new(false) })
		Eventually(func(g Gomega) bool {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(sp), sp)).To(Succeed())
			return *sp.Spec.RequireSandbox
		}).Should(BeTrue())
	})
})

var _ = Describe("lock events", func() {
	It("records why a plan is not locked as an event kubectl describe shows", func() {
		ns := newNamespace()
		p := plan(ns, "orphan", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("does-not-exist")})
		create(p)
		Eventually(func(g Gomega) {
			var events eventsv1.EventList
			g.Expect(k8sClient.List(ctx, &events, client.InNamespace(ns))).To(Succeed())
			g.Expect(events.Items).To(ContainElement(And(
				HaveField("Reason", safetyv1alpha1.AgentPlanProfileNotFoundReason),
				HaveField("Regarding.Name", "orphan"),
				HaveField("Note", ContainSubstring(`SafetyProfile "does-not-exist"`)),
			)))
		}).Should(Succeed())
	})
})
