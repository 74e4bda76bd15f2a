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
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/operator"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/testenv"
)

// withLedger runs the manager with a journal under a new directory and clk, until the spec ends,
// and returns the directory and the AuditLedger (TTL ttl) that re-times the calls when updated.
func withLedger(clk *clocktesting.FakeClock, writer string, ttl int64) (string, *safetyv1alpha1.AuditLedger, func(ctrl.Manager) error) {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	j, err := ledger.Open(audit.Config(nil, dir, writer, clk))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(j.Close)
	setup := func(mgr ctrl.Manager) error {
		return operator.Setup(mgr, operator.Options{Controllers: controller.Options{Clock: clk, Journal: j, LedgerDir: dir}})
	}
	Expect(cluster.RestartManager(setup)).To(Succeed())
	DeferCleanup(func() { Expect(cluster.RestartManager(defaultManager)).To(Succeed()) })
	al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName},
		Spec: safetyv1alpha1.AuditLedgerSpec{FinishedCallTTLSeconds: new(ttl)}}
	create(al)
	return dir, al, setup
}

// retime sets the AuditLedger's TTL to ttl: a change of its spec re-times every call waiting
// for its TTL, which is how these specs make the controllers look at the injected clock again.
func retime(al *safetyv1alpha1.AuditLedger, ttl int64) {
	GinkgoHelper()
	update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.FinishedCallTTLSeconds = new(ttl) })
}

var _ = Describe("unfinished calls", func() {
	It("of an ended plan are recorded and settled, then deleted after the window and the TTL, not before; "+
		"a call that finishes meanwhile is the finished path's, once; an active plan's stay", func() {
		clk := clocktesting.NewFakeClock(aheadOfTheAPIServer())
		dir, al, _ := withLedger(clk, "unfinished", 600)

		By("a plan that ends two hours after its creation, and one active for a month")
		ns := newNamespace()
		agent, err := testenv.Agent(ctx, cfg, cluster.Scheme, ns, "agent")
		Expect(err).NotTo(HaveOccurred())
		registerReadFile()
		p := plan(ns, "ends", safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), ActiveDeadlineSeconds: new(int64(7200))})
		create(p)
		lockedSnapshot(p)
		deadline := policy.PlanDeadline(p)
		activeNs, activeAgent := lockedPlan("active")

		hook := submitCall(agent, ns, "ends", "hook", "a", "", "", nil) // as the coding-agent hook leaves it
		running := submitCall(agent, ns, "ends", "running", "b", safetyv1alpha1.CallPhaseRunning, "0.5", nil)
		later := submitCall(agent, ns, "ends", "later", "a", "", "", nil)
		old := submitCall(activeAgent, activeNs, "active", "old", "a", safetyv1alpha1.CallPhaseRunning, "", nil)
		expectUsage(ns, "ends", "0.5", 3, map[string]int32{"a": 2, "b": 1})
		unfinished := []*safetyv1alpha1.AgentToolCall{hook, running}

		By("the plan has ended, and the TTL since has not passed: nothing is recorded or deleted")
		clk.SetTime(deadline.Add(9 * time.Minute))
		retime(al, 599)
		Consistently(func() map[string][]map[string]any { return completions(dir, ns) }).WithTimeout(2 * time.Second).Should(BeEmpty())
		for _, c := range append(unfinished, later, old) {
			Expect(gone(c)()).To(BeFalse(), "%s is deleted before its TTL", c.Name)
		}

		By("one call finishes meanwhile: the finished-call controller records it")
		reportStatus(agent, later, safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseSucceeded, Cost: money("0.25")})
		Eventually(func() map[string][]map[string]any { return completions(dir, ns) }).Should(HaveKey(string(later.UID)))

		By("passing the TTL since the plan ended: the unfinished calls are recorded unfinished, settled and deleted")
		clk.SetTime(deadline.Add(10*time.Minute + time.Second))
		retime(al, 600)
		for _, c := range unfinished {
			Eventually(gone(c)).Should(BeTrue(), c.Name)
		}
		recs := completions(dir, ns)
		Expect(recs[string(hook.UID)]).To(ConsistOf(And(HaveKeyWithValue("phase", audit.PhaseUnfinished), Not(HaveKey("lastPhase")),
			HaveKeyWithValue("plan", "ends"), HaveKeyWithValue("call", "hook"), HaveKeyWithValue("step", "a"),
			HaveKeyWithValue("cost", ""), HaveKeyWithValue("finishedAt", stamp(deadline)))), "its TTL counted from the plan's end")
		Expect(recs[string(running.UID)]).To(ConsistOf(And(HaveKeyWithValue("phase", audit.PhaseUnfinished),
			HaveKeyWithValue("lastPhase", "Running"), HaveKeyWithValue("cost", "0.5"))))
		u := usageOf(ns, "ends")(Default)
		Expect(u.Deleted).NotTo(BeNil(), "settled into the plan's deleted part before being deleted")
		Expect(*u.Deleted).To(And(HaveField("Calls", int64(2)), HaveField("StepAttempts", map[string]int32{"a": 1, "b": 1}),
			HaveField("ReportedCost", "0.5")))
		Expect(u.Calls).To(Equal(int64(3)), "deleting calls lowers no counter")

		By("the call that finished stays for its own TTL, with its one record")
		Expect(gone(later)()).To(BeFalse())
		Expect(recs[string(later.UID)]).To(ConsistOf(HaveKeyWithValue("phase", "Succeeded")))
		clk.Step(10 * time.Minute)
		retime(al, 601)
		Eventually(gone(later)).Should(BeTrue())
		Expect(completions(dir, ns)[string(later.UID)]).To(HaveLen(1), "no unfinished record of a finished call")

		By("the active plan's call stays however old, until its plan ends")
		clk.SetTime(getPlan(activeNs, "active")(Default).CreationTimestamp.Add(29 * 24 * time.Hour))
		retime(al, 0)
		r := &controller.UnfinishedCallReconciler{Client: k8sClient, APIReader: k8sClient, Clock: clk, Log: &audit.Log{Journal: nil}}
		res, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKey{Namespace: activeNs, Name: "active"}})
		Expect(err).NotTo(HaveOccurred(), "it records nothing (it has no journal to)")
		Expect(res.RequeueAfter).To(Equal(24*time.Hour), "it comes back when the plan ends")
		Consistently(gone(old)).WithTimeout(2 * time.Second).Should(BeFalse())
		Expect(completions(dir, activeNs)).NotTo(HaveKey(string(old.UID)))
		report, err := ledger.Verify(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(report.OK()).To(BeTrue(), report.Summary())
	})

	It("of a deleted plan go after the TTL, also when the plan went before a restart", func() {
		clk := clocktesting.NewFakeClock(aheadOfTheAPIServer())
		dir, al, setup := withLedger(clk, "orphans", 600)
		deleted := func(name string) (string, *safetyv1alpha1.AgentToolCall) {
			GinkgoHelper()
			ns, agent := lockedPlan(name)
			c := submitCall(agent, ns, name, "left", "a", "", "", nil)
			expectUsage(ns, name, "", 1, map[string]int32{"a": 1})
			p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
			Eventually(func(g Gomega) []string { return getPlan(ns, name)(g).Finalizers }).Should(ContainElement(safetyv1alpha1.PlanFinalizer))
			Expect(k8sClient.Delete(ctx, p)).To(Succeed())
			Eventually(gone(p)).Should(BeTrue())
			return ns, c
		}

		By("a plan deleted while its call is left")
		ns, c := deleted("gone-plan")
		retime(al, 599)
		Consistently(gone(c)).WithTimeout(2*time.Second).Should(BeFalse(), "deleted before the TTL")
		clk.Step(10 * time.Minute)
		retime(al, 600)
		Eventually(gone(c)).Should(BeTrue())
		Expect(completions(dir, ns)[string(c.UID)]).To(ConsistOf(HaveKeyWithValue("phase", audit.PhaseUnfinished)))

		By("a plan deleted, then the manager restarted: its deletion is not seen again, the start-up sweep finds the call")
		ns, c = deleted("before-restart")
		Expect(cluster.RestartManager(setup)).To(Succeed())
		ttl := int64(600)
		Eventually(func(g Gomega) {
			clk.Step(11 * time.Minute)
			ttl = 1199 - ttl // a change each time
			retime(al, ttl)
			g.Expect(gone(c)()).To(BeTrue())
		}).WithTimeout(30 * time.Second).WithPolling(time.Second).Should(Succeed())
		Expect(completions(dir, ns)[string(c.UID)]).To(ConsistOf(HaveKeyWithValue("phase", audit.PhaseUnfinished)))
	})

	It("wait out the reporter's window from their creation, however short the TTL, also when their plan is gone", func() {
		// A minute ahead only: the plan goes well inside its call's window.
		clk := clocktesting.NewFakeClock(time.Now().Add(time.Minute))
		dir, al, _ := withLedger(clk, "window-unfinished", 0)
		ns, agent := lockedPlan("short")
		aMinuteAhead(clk)
		c := submitCall(agent, ns, "short", "left", "a", "", "", nil)
		p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "short"}}
		Eventually(func(g Gomega) []string { return getPlan(ns, "short")(g).Finalizers }).Should(ContainElement(safetyv1alpha1.PlanFinalizer))
		Expect(k8sClient.Delete(ctx, p)).To(Succeed())
		Eventually(gone(p)).Should(BeTrue())
		retime(al, 1)
		Consistently(gone(c)).WithTimeout(2*time.Second).Should(BeFalse(), "deleted at a TTL of 1s, inside the reporter's window")
		clk.Step(policy.ReportWindow)
		retime(al, 0)
		Eventually(gone(c)).Should(BeTrue())
		Expect(completions(dir, ns)[string(c.UID)]).To(ConsistOf(HaveKeyWithValue("phase", audit.PhaseUnfinished)))
	})
})
