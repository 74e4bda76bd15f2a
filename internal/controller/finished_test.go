package controller_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
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
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
	pkgagent "github.com/toolgate/toolgate/pkg/agent"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// defaultManager is the suite's production wiring without a ledger.
func defaultManager(mgr ctrl.Manager) error { return operator.Setup(mgr, operator.Options{}) }

// submitCall has the agent create a call of plan for step and report phase, cost and finishedAt
// (any of them may be empty or nil). It returns the stored call.
func submitCall(agent client.Client, ns, planName, name, step string, phase safetyv1alpha1.CallPhase, cost string,
	finishedAt *metav1.Time) *safetyv1alpha1.AgentToolCall {
	GinkgoHelper()
	call := &safetyv1alpha1.AgentToolCall{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: safetyv1alpha1.AgentToolCallSpec{Plan: planName, Tool: "read-file", Step: step,
			Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"src/" + name + ".go"}}},
	}
	Expect(agent.Create(ctx, call)).To(Succeed())
	if phase != "" {
		st := safetyv1alpha1.AgentToolCallStatus{Phase: phase, FinishedAt: finishedAt}
		if cost != "" {
			st.Cost = money(cost)
		}
		reportStatus(agent, call, st)
	}
	return call
}

// costFinal is the reporter's word that a call's cost is final.
func costFinal() metav1.Condition {
	return toolcall.CostFinal("the plan's reporter", metav1.Now())
}

// reportStatus has the agent report st on call with pkg/agent's Report, a status patch that needs
// no read of the call (an agent may read none) and does not conflict with the operator's writes.
func reportStatus(reporter client.Client, call *safetyv1alpha1.AgentToolCall, st safetyv1alpha1.AgentToolCallStatus) {
	GinkgoHelper()
	call.Status = st
	Expect(pkgagent.Report(ctx, reporter, call)).To(Succeed())
}

// directReconciler is a FinishedCallReconciler of its own, outside the manager, on a fake clock
// starting at now and a ledger of writer in a directory of its own, and a function that runs it
// once for a call.
func directReconciler(now time.Time, writer string) (*clocktesting.FakeClock, string, func(*safetyv1alpha1.AgentToolCall) ctrl.Result) {
	GinkgoHelper()
	clk := clocktesting.NewFakeClock(now)
	dir := GinkgoT().TempDir()
	j, err := ledger.Open(audit.Config(nil, dir, writer, clk))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(j.Close)
	r := &controller.FinishedCallReconciler{Client: k8sClient, Clock: clk, Log: &audit.Log{Journal: j}}
	return clk, dir, func(c *safetyv1alpha1.AgentToolCall) ctrl.Result {
		GinkgoHelper()
		res, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(c)})
		Expect(err).NotTo(HaveOccurred())
		return res
	}
}

// completions reads the completion records of namespace ns in the ledger under dir, by call UID:
// the manager records the finished calls other specs left too.
func completions(dir, ns string) map[string][]map[string]any {
	GinkgoHelper()
	lines, err := ledger.Tail(dir, 100000)
	Expect(err).NotTo(HaveOccurred())
	out := map[string][]map[string]any{}
	for _, line := range lines {
		var rec struct {
			Kind   string         `json:"kind"`
			Fields map[string]any `json:"fields"`
		}
		Expect(json.Unmarshal(line, &rec)).To(Succeed())
		if rec.Kind == audit.KindCompletion && rec.Fields["namespace"] == ns {
			uid, _ := rec.Fields["uid"].(string)
			out[uid] = append(out[uid], rec.Fields)
		}
	}
	return out
}

func getPlan(ns, name string) func(g Gomega) *safetyv1alpha1.AgentPlan {
	return func(g Gomega) *safetyv1alpha1.AgentPlan {
		p := &safetyv1alpha1.AgentPlan{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, p)).To(Succeed())
		return p
	}
}

// gone reports whether the object no longer exists (when obj has a UID, a newer object of the
// same name does not count as the old one).
func gone(obj client.Object) func() bool {
	uid := obj.GetUID()
	return func() bool {
		cur := obj.DeepCopyObject().(client.Object)
		err := k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), cur)
		return apierrors.IsNotFound(err) || (err == nil && uid != "" && cur.GetUID() != uid)
	}
}

// expectUsage waits until the plan's totals are the given ones.
func expectUsage(ns, name, cost string, calls int64, steps map[string]int32) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		u := usageOf(ns, name)(g)
		g.Expect(u.AccumulatedCost).To(Equal(cost))
		g.Expect(u.Calls).To(Equal(calls))
		g.Expect(u.StepAttempts).To(Equal(steps))
	}).WithTimeout(30 * time.Second).Should(Succeed())
}

// lockedPlan creates an unrestricted plan in a new namespace with an agent, and waits for its lock.
func lockedPlan(name string) (string, client.Client) {
	GinkgoHelper()
	ns := newNamespace()
	agent, err := testenv.Agent(ctx, cfg, cluster.Scheme, ns, "agent")
	Expect(err).NotTo(HaveOccurred())
	registerReadFile()
	// Active for a month: the fake clocks of these tests run days ahead of the API server's.
	p := plan(ns, name, safetyv1alpha1.AgentPlanSpec{ProfileRef: spRef("unrestricted"), ActiveDeadlineSeconds: new(int64(30 * 86400))})
	create(p)
	lockedSnapshot(p)
	return ns, agent
}

var _ = Describe("finished calls", func() {
	It("get one completion record each, are deleted after the TTL, and leave the plan's usage as it was", func() {
		t0 := aheadOfTheAPIServer()
		clk := clocktesting.NewFakeClock(t0)
		dir := GinkgoT().TempDir()
		j, err := ledger.Open(audit.Config(nil, dir, "leader", clk))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(j.Close)
		By("running the manager with a journal and an injected clock")
		Expect(cluster.RestartManager(func(mgr ctrl.Manager) error {
			return operator.Setup(mgr, operator.Options{Controllers: controller.Options{Clock: clk, Journal: j, LedgerDir: dir}})
		})).To(Succeed())
		DeferCleanup(func() { Expect(cluster.RestartManager(defaultManager)).To(Succeed()) })
		al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName},
			Spec: safetyv1alpha1.AuditLedgerSpec{FinishedCallTTLSeconds: new(int64(600))}}
		create(al)

		ns, agent := lockedPlan("ttl")
		finishedAt := &metav1.Time{Time: t0.Add(-time.Minute)}
		build1 := submitCall(agent, ns, "ttl", "build-1", "build", safetyv1alpha1.CallPhaseFailed, "0.25", finishedAt)
		build2 := submitCall(agent, ns, "ttl", "build-2", "build", safetyv1alpha1.CallPhaseSucceeded, "0.5", finishedAt)
		test1 := submitCall(agent, ns, "ttl", "test-1", "test", safetyv1alpha1.CallPhaseSucceeded, "0.125", nil)
		running := submitCall(agent, ns, "ttl", "test-2", "test", safetyv1alpha1.CallPhaseRunning, "0.1", nil)
		finished := []*safetyv1alpha1.AgentToolCall{build1, build2, test1}
		wantSteps := map[string]int32{"build": 2, "test": 2}
		expectUsage(ns, "ttl", "0.975", 4, wantSteps)

		By("recording each finished call once, with what it was and how it ended")
		Eventually(func() map[string][]map[string]any { return completions(dir, ns) }).Should(HaveLen(3))
		recs := completions(dir, ns)
		Expect(recs[string(build1.UID)]).To(ConsistOf(And(
			HaveKeyWithValue("namespace", ns), HaveKeyWithValue("plan", "ttl"), HaveKeyWithValue("call", "build-1"),
			HaveKeyWithValue("tool", "read-file"), HaveKeyWithValue("step", "build"), HaveKeyWithValue("phase", "Failed"),
			HaveKeyWithValue("cost", "0.25"), HaveKeyWithValue("finishedAt", stamp(t0)),
			HaveKeyWithValue("reportedFinishedAt", stamp(t0.Add(-time.Minute))))), "the TTL counts from when the operator saw it finished")
		Expect(recs[string(test1.UID)]).To(ConsistOf(And(HaveKeyWithValue("phase", "Succeeded"),
			HaveKeyWithValue("finishedAt", stamp(t0)), Not(HaveKey("reportedFinishedAt")))),
			"no finishedAt: the time it was first seen finished")
		Expect(recs).NotTo(HaveKey(string(running.UID)))
		for _, c := range finished {
			cur := &safetyv1alpha1.AgentToolCall{}
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(c), cur)).To(Succeed())
			Expect(cur.Annotations).NotTo(HaveKey(controller.CompletionRecordAnnotation), "recording costs the call no write")
		}
		Consistently(func() int { return len(completions(dir, ns)[string(build2.UID)]) }).
			WithTimeout(2*time.Second).Should(Equal(1), "later reconciles write no second record")
		for _, c := range append(finished, running) {
			Expect(gone(c)()).To(BeFalse(), "%s is deleted before its TTL", c.Name)
		}

		By("passing the TTL on the injected clock; a TTL change re-times every finished call at once")
		clk.Step(10 * time.Minute)
		update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.FinishedCallTTLSeconds = new(int64(540)) })
		for _, c := range finished {
			Eventually(gone(c)).Should(BeTrue(), c.Name)
		}
		Consistently(gone(running)).WithTimeout(2*time.Second).Should(BeFalse(), "an unfinished call of an active plan is never deleted")

		By("keeping the plan's cost, calls and attempts: deleting calls lowers no counter")
		expectUsage(ns, "ttl", "0.975", 4, wantSteps)
		Consistently(usageOf(ns, "ttl")).WithTimeout(time.Second).Should(HaveField("AccumulatedCost", "0.975"))

		By("much later, its plan still active: still one record per call, the unfinished call still there, the ledger intact")
		clk.Step(29 * 24 * time.Hour) // the plan is active for 30 days: an unfinished call goes only after it ends (unfinished_test.go)
		update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.FinishedCallTTLSeconds = new(int64(0)) })
		Consistently(gone(running)).WithTimeout(2 * time.Second).Should(BeFalse())
		recs = completions(dir, ns)
		Expect(recs).To(HaveLen(3))
		for _, c := range finished {
			Expect(recs[string(c.UID)]).To(HaveLen(1), c.Name)
		}
		report, err := ledger.Verify(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(report.OK()).To(BeTrue(), report.Summary())
	})

	It("are counted into their plan's deleted part, stored before each is deleted, and a restart counts every call once", func() {
		t0 := aheadOfTheAPIServer()
		clk := clocktesting.NewFakeClock(t0)
		dir := GinkgoT().TempDir()
		j, err := ledger.Open(audit.Config(nil, dir, "deleted", clk))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(j.Close)
		withJournal := func(mgr ctrl.Manager) error {
			return operator.Setup(mgr, operator.Options{Controllers: controller.Options{Clock: clk, Journal: j, LedgerDir: dir}})
		}
		Expect(cluster.RestartManager(withJournal)).To(Succeed())
		DeferCleanup(func() { Expect(cluster.RestartManager(defaultManager)).To(Succeed()) })
		al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName},
			Spec: safetyv1alpha1.AuditLedgerSpec{FinishedCallTTLSeconds: new(int64(600))}}
		create(al)

		ns, agent := lockedPlan("deleted")
		finished := []*safetyv1alpha1.AgentToolCall{
			submitCall(agent, ns, "deleted", "build-1", "build", safetyv1alpha1.CallPhaseFailed, "0.25", nil),
			submitCall(agent, ns, "deleted", "build-2", "build", safetyv1alpha1.CallPhaseSucceeded, "0.5", nil),
			submitCall(agent, ns, "deleted", "test-1", "test", safetyv1alpha1.CallPhaseSucceeded, "0.125", nil),
		}
		running := submitCall(agent, ns, "deleted", "test-2", "test", safetyv1alpha1.CallPhaseRunning, "0.1", nil)
		expectUsage(ns, "deleted", "0.975", 4, map[string]int32{"build": 2, "test": 2})

		By("passing the TTL: the finished calls go, each counted into the deleted part first")
		clk.Step(11 * time.Minute)
		update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.FinishedCallTTLSeconds = new(int64(599)) })
		for _, c := range finished {
			Eventually(gone(c)).Should(BeTrue(), c.Name)
		}
		u := usageOf(ns, "deleted")(Default)
		Expect(u.Deleted).NotTo(BeNil())
		Expect(*u.Deleted).To(And(HaveField("Calls", int64(3)), HaveField("StepAttempts", map[string]int32{"build": 2, "test": 1}),
			HaveField("AccumulatedCost", "0.875"), HaveField("ReportedCost", "0.875")))
		Expect(u.Calls).To(Equal(int64(4)), "deleting calls lowers no counter and adds none")
		Expect(gone(running)()).To(BeFalse())

		By("the next write lists the deleted calls pending no more")
		submitCall(agent, ns, "deleted", "test-3", "test", "", "", nil)
		Eventually(func(g Gomega) {
			u := usageOf(ns, "deleted")(g)
			g.Expect(u.Calls).To(Equal(int64(5)))
			g.Expect(u.Deleted.Pending).To(BeEmpty())
		}).Should(Succeed())

		By("restarting the manager: the new one counts the deleted part and the calls there once each, no more")
		Expect(cluster.RestartManager(withJournal)).To(Succeed())
		submitCall(agent, ns, "deleted", "test-4", "test", "", "", nil)
		expectUsage(ns, "deleted", "0.975", 6, map[string]int32{"build": 2, "test": 4})
		Consistently(func() int64 { return usageOf(ns, "deleted")(Default).Calls }).WithTimeout(2 * time.Second).Should(Equal(int64(6)))
	})

	It("wait for the TTL with RequeueAfter, ignore forged marks and never touch unfinished calls", func() {
		now := aheadOfTheAPIServer()
		clk, dir, reconcileCall := directReconciler(now, "direct")

		ns, agent := lockedPlan("direct")
		done := submitCall(agent, ns, "direct", "done", "a", safetyv1alpha1.CallPhaseSucceeded, "1", &metav1.Time{Time: now.Add(-10 * time.Minute)})
		running := submitCall(agent, ns, "direct", "running", "a", safetyv1alpha1.CallPhaseRunning, "", nil)
		epoch := submitCall(agent, ns, "direct", "epoch", "c", safetyv1alpha1.CallPhaseSucceeded, "", &metav1.Time{Time: time.Unix(0, 0)})
		By("an agent pre-marking its call as recorded, to keep it out of the ledger: refused at create")
		mark := `{"uid":"made-up","finishedAt":"2000-01-01T00:00:00Z","seq":1}`
		forged := &safetyv1alpha1.AgentToolCall{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "forged", Annotations: map[string]string{
				controller.CompletionRecordAnnotation: mark}},
			Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "direct", Tool: "read-file", Step: "b",
				Arguments: safetyv1alpha1.ToolArguments{Paths: []string{"src/forged.go"}}},
		}
		Expect(agent.Create(ctx, forged.DeepCopy())).To(MatchError(ContainSubstring("[BadRequest]")))
		By("the same mark written afterwards by someone RBAC let write it (here the operator's own identity)")
		forged.Annotations = nil
		Expect(agent.Create(ctx, forged)).To(Succeed())
		update(forged, func(c *safetyv1alpha1.AgentToolCall) {
			c.Annotations = map[string]string{controller.CompletionRecordAnnotation: mark}
		})
		reportStatus(agent, forged, safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseSucceeded,
			FinishedAt: &metav1.Time{Time: now.Add(time.Hour)}})
		expectUsage(ns, "direct", "1", 4, map[string]int32{"a": 2, "b": 1, "c": 1})

		By("the default TTL (no AuditLedger): the requeue lands an hour after the operator saw the call finished")
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: audit.LedgerName}, &safetyv1alpha1.AuditLedger{})).
			To(Satisfy(apierrors.IsNotFound), "this spec needs the default TTL")
		Expect(reconcileCall(done).RequeueAfter).To(Equal(time.Hour), "a finishedAt 10 minutes ago does not shorten it")
		Expect(reconcileCall(done).RequeueAfter).To(Equal(time.Hour), "the second run appends nothing")
		Expect(reconcileCall(forged).RequeueAfter).To(Equal(time.Hour), "a finish time in the future counts from now")
		Expect(reconcileCall(epoch).RequeueAfter).To(Equal(time.Hour), "a finishedAt of 1970-01-01 does not make the TTL 0")
		Expect(reconcileCall(running)).To(Equal(ctrl.Result{}))
		recs := completions(dir, ns)
		Expect(recs).To(HaveLen(3))
		Expect(recs[string(epoch.UID)]).To(ConsistOf(And(HaveKeyWithValue("finishedAt", stamp(now)),
			HaveKeyWithValue("reportedFinishedAt", "1970-01-01T00:00:00Z"))), "the claim is recorded, not believed")
		Expect(recs[string(done.UID)]).To(HaveLen(1))
		Expect(recs[string(forged.UID)]).To(ConsistOf(HaveKeyWithValue("finishedAt", stamp(now))))
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(forged), forged)).To(Succeed())
		Expect(forged.Annotations[controller.CompletionRecordAnnotation]).To(ContainSubstring("made-up"), "the forged mark is ignored, and left as it was")

		By("deleting after the TTL, not before")
		clk.Step(50 * time.Minute)
		Expect(reconcileCall(done).RequeueAfter).To(Equal(10 * time.Minute))
		Expect(reconcileCall(epoch).RequeueAfter).To(Equal(10 * time.Minute))
		clk.Step(10 * time.Minute)
		for _, c := range []*safetyv1alpha1.AgentToolCall{done, epoch} {
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(c), c)).To(Succeed())
			Expect(reconcileCall(c)).To(Equal(ctrl.Result{}))
			Eventually(gone(c)).Should(BeTrue())
		}

		By("never deleting an unfinished call, however late")
		clk.Step(365 * 24 * time.Hour)
		Expect(reconcileCall(running)).To(Equal(ctrl.Result{}))
		Expect(gone(running)()).To(BeFalse())
		Expect(completions(dir, ns)).To(HaveLen(3))
		expectUsage(ns, "direct", "1", 4, map[string]int32{"a": 2, "b": 1, "c": 1})
	})

	It("record a cost raised after the call was recorded finished once more, when it goes, however often it was raised", func() {
		// A reporter may raise a finished call's cost as often as it writes, by a billionth, within
		// what the call reserved and so for free: a record per raise would fill the ledger's volume.
		clk, dir, reconcileCall := directReconciler(aheadOfTheAPIServer(), "raised")
		ns, agent := lockedPlan("raised")
		call := submitCall(agent, ns, "raised", "raised", "a", safetyv1alpha1.CallPhaseFailed, "", nil)
		Expect(reconcileCall(call).RequeueAfter).To(BeNumerically(">", 0), "recorded, and kept for its TTL")
		By("its reporter (here the agent: the plan trusts it) raises the cost by a billionth, twenty times")
		for i := 1; i <= 20; i++ {
			reportStatus(agent, call, safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseFailed,
				Cost: money(fmt.Sprintf("0.%09d", i))})
			Expect(reconcileCall(call).RequeueAfter).To(BeNumerically(">", 0))
		}
		Expect(completions(dir, ns)[string(call.UID)]).To(HaveLen(1), "no record per raise")
		By("at its TTL it is recorded once more, with the cost it goes with, and deleted")
		clk.Step(time.Hour)
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(call), call)).To(Succeed())
		Expect(reconcileCall(call)).To(Equal(ctrl.Result{}))
		Eventually(gone(call)).Should(BeTrue())
		recs := completions(dir, ns)[string(call.UID)]
		Expect(recs).To(HaveLen(2))
		Expect(recs[0]["finishedAt"]).To(Equal(recs[1]["finishedAt"]), "the TTL still counts from the first")
		Expect(recs[1]).To(HaveKeyWithValue("cost", "0.00000002"))
	})

	It("wait out the reporter's window from their creation, however short the TTL, for the reporter's cost", func() {
		// A minute ahead: the operator sees the call finished after its creation, well inside the window.
		clk := clocktesting.NewFakeClock(time.Now().Add(time.Minute))
		dir := GinkgoT().TempDir()
		j, err := ledger.Open(audit.Config(nil, dir, "window", clk))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(j.Close)
		Expect(cluster.RestartManager(func(mgr ctrl.Manager) error {
			return operator.Setup(mgr, operator.Options{Controllers: controller.Options{Clock: clk, Journal: j, LedgerDir: dir}})
		})).To(Succeed())
		DeferCleanup(func() { Expect(cluster.RestartManager(defaultManager)).To(Succeed()) })
		al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName},
			Spec: safetyv1alpha1.AuditLedgerSpec{FinishedCallTTLSeconds: new(int64(0))}}
		create(al)
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, al))).To(Succeed()) })

		ns, agent := lockedPlan("window")
		aMinuteAhead(clk)
		By("the agent marks its own call finished at once, before the tool has run and its cost is reported")
		early := submitCall(agent, ns, "window", "early", "a", safetyv1alpha1.CallPhaseFailed, "", nil)
		abandoned := submitCall(agent, ns, "window", "abandoned", "c", safetyv1alpha1.CallPhaseFailed, "", nil)
		Eventually(func() map[string][]map[string]any { return completions(dir, ns) }).Should(
			And(HaveKey(string(early.UID)), HaveKey(string(abandoned.UID))))
		Consistently(gone(early)).WithTimeout(2*time.Second).Should(BeFalse(), "deleted at a TTL of 0, before the reporter could report")
		By("a cost reported while the call ran, then the agent's finish: the reporter has not said the cost is final, and may report more")
		partial := submitCall(agent, ns, "window", "partial", "d", safetyv1alpha1.CallPhaseRunning, "0.1", nil)
		reportStatus(agent, partial, safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseSucceeded, Cost: money("0.1")})
		Eventually(func() map[string][]map[string]any { return completions(dir, ns) }).Should(HaveKey(string(partial.UID)))
		Consistently(gone(partial)).WithTimeout(2*time.Second).Should(BeFalse(), "deleted at a TTL of 0, before the reporter's final cost")
		By("the near miss: a call whose reporter said its cost is final is deleted at the TTL of 0")
		reported := submitCall(agent, ns, "window", "reported", "b", safetyv1alpha1.CallPhaseSucceeded, "0.2", nil)
		reportStatus(agent, reported, safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseSucceeded, Cost: money("0.2"),
			Conditions: []metav1.Condition{costFinal()}})
		Eventually(gone(reported)).Should(BeTrue())
		By("the reporter's final cost of the call the agent finished still finds it, and counts; the call then goes")
		reportStatus(agent, partial, safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseSucceeded, Cost: money("0.4"),
			Conditions: []metav1.Condition{costFinal()}})
		Eventually(gone(partial)).Should(BeTrue())
		By("the reporter's final cost (here the agent's: the plan trusts it) still finds the call, which then goes")
		reportStatus(agent, early, safetyv1alpha1.AgentToolCallStatus{Phase: safetyv1alpha1.CallPhaseFailed, Cost: money("0.7"),
			Conditions: []metav1.Condition{costFinal()}})
		Eventually(gone(early)).Should(BeTrue())
		By("the ledger holds that cost: a completion recorded before the cost was reported is recorded again with it")
		Expect(completions(dir, ns)[string(early.UID)]).To(ContainElement(And(HaveKeyWithValue("cost", "0.7"),
			HaveKeyWithValue("phase", string(safetyv1alpha1.CallPhaseFailed)))))
		Expect(completions(dir, ns)[string(reported.UID)]).To(HaveLen(1), "a call finished with its cost is recorded once")
		expectUsage(ns, "window", "1.3", 4, map[string]int32{"a": 1, "b": 1, "c": 1, "d": 1})

		By("once the window has passed, the TTL of 0 deletes a call never reported too")
		Expect(gone(abandoned)()).To(BeFalse())
		clk.Step(policy.ReportWindow + time.Second)
		update(al, func(al *safetyv1alpha1.AuditLedger) { al.Spec.FinishedCallTTLSeconds = new(int64(1)) }) // re-times every finished call
		Eventually(gone(abandoned)).Should(BeTrue())
	})

	It("do not delete a call whose completion cannot be recorded", func() {
		clk := clocktesting.NewFakeClock(aheadOfTheAPIServer())
		j, err := ledger.Open(audit.Config(nil, GinkgoT().TempDir(), "closed", clk))
		Expect(err).NotTo(HaveOccurred())
		Expect(j.Close()).To(Succeed())
		r := &controller.FinishedCallReconciler{Client: k8sClient, Clock: clk, Log: &audit.Log{Journal: j}}
		ns, agent := lockedPlan("broken")
		c := submitCall(agent, ns, "broken", "c", "a", safetyv1alpha1.CallPhaseSucceeded, "", &metav1.Time{Time: clk.Now().Add(-48 * time.Hour)})
		_, err = r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(c)})
		Expect(err).To(MatchError(ledger.ErrClosed))
		Expect(gone(c)()).To(BeFalse())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(c), c)).To(Succeed())
		Expect(c.Annotations).NotTo(HaveKey(controller.CompletionRecordAnnotation))
	})
})

// aheadOfTheAPIServer is an injected clock's start: a whole minute an hour after the real time,
// so that every call the spec creates (the API server stamps its creationTimestamp with the real
// time) was created before the operator's clock says it saw the call finished. A fixed date would
// stop holding once the real time passed it.
func aheadOfTheAPIServer() time.Time { return time.Now().UTC().Add(time.Hour).Truncate(time.Minute) }

// aMinuteAhead sets clk a minute ahead of the real time, with which the API server stamps a
// call's creation, when a spec is about to create its calls: set when the spec started, the
// minute was also the time to restart the manager and lock the plan, which a loaded machine may
// take (a restarted manager first works through the calls earlier specs left), and a call created
// after the clock's time is seen finished before it was created and its window ends after the
// spec's step past it.
func aMinuteAhead(clk *clocktesting.FakeClock) {
	if t := time.Now().Add(time.Minute); t.After(clk.Now()) {
		clk.SetTime(t)
	}
}

// stamp is t as a completion record writes it.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// errCrash stands for the controller dying right after a status write.
var errCrash = errors.New("simulated crash before the finalizer is released")

// crashBeforeRelease is the manager's client, except that every patch of an AgentPlan fails: the
// plan controller writes the plan's settlement into the project and then "dies" before releasing
// the plan's finalizer.
type crashBeforeRelease struct{ client.Client }

func (c crashBeforeRelease) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	if _, ok := obj.(*safetyv1alpha1.AgentPlan); ok {
		return errCrash
	}
	return c.Client.Patch(ctx, obj, patch, opts...)
}

// projectSettled reads the namespace's ProjectPolicy status.settled.
func projectSettled(ns string) func(g Gomega) *safetyv1alpha1.SettledPlans {
	return func(g Gomega) *safetyv1alpha1.SettledPlans {
		pp := &safetyv1alpha1.ProjectPolicy{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: controller.ProjectPolicyName}, pp)).To(Succeed())
		g.Expect(pp.Status.Settled).NotTo(BeNil())
		return pp.Status.Settled
	}
}

var _ = Describe("settled plans", func() {
	It("settle a deleted plan into its project exactly once across a crash after the write and a manager restart", func() {
		ns, agent := lockedPlan("settle")
		submitCall(agent, ns, "settle", "running", "s", safetyv1alpha1.CallPhaseRunning, "0.5", nil)
		submitCall(agent, ns, "settle", "done", "s", safetyv1alpha1.CallPhaseSucceeded, "0.25", nil)
		expectUsage(ns, "settle", "0.75", 2, map[string]int32{"s": 2})
		p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "settle"}}
		Eventually(func(g Gomega) []string { return getPlan(ns, "settle")(g).Finalizers }).Should(ContainElement(safetyv1alpha1.PlanFinalizer))
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(p), p)).To(Succeed())

		By("stopping the controllers; only the webhooks and the cache run")
		var mgr ctrl.Manager
		Expect(cluster.RestartManager(func(m ctrl.Manager) error {
			mgr = m
			if err := controller.SetupIndexes(context.Background(), m.GetFieldIndexer()); err != nil {
				return err
			}
			return webhookv1alpha1.SetupWithManager(m, webhookv1alpha1.Options{})
		})).To(Succeed())
		DeferCleanup(func() { Expect(cluster.RestartManager(defaultManager)).To(Succeed()) })

		By("deleting the plan: its finalizer holds it, and the webhook admits nothing more for it")
		Expect(k8sClient.Delete(ctx, p)).To(Succeed())
		Consistently(gone(p)).WithTimeout(time.Second).Should(BeFalse())
		Eventually(func() error {
			return agent.Create(ctx, &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: ns, GenerateName: "late-"},
				Spec: safetyv1alpha1.AgentToolCallSpec{Plan: "settle", Tool: "read-file", Step: "s"}})
		}).Should(MatchError(ContainSubstring("is being deleted")))

		r := &controller.AgentPlanReconciler{Client: crashBeforeRelease{mgr.GetClient()}, APIReader: mgr.GetAPIReader(),
			Clock: clock.RealClock{}, Recorder: mgr.GetEventRecorder("test")}
		req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: "settle"}}
		settledOnce := func(g Gomega) {
			s := projectSettled(ns)(g)
			g.Expect(s.Plans).To(Equal(int64(1)))
			g.Expect(s.Calls).To(Equal(int64(2)))
			g.Expect(s.Cost).To(Equal("0.75"))
			g.Expect(s.UIDs).To(ConsistOf(string(p.UID)))
		}
		Eventually(func(g Gomega) {
			_, err := r.Reconcile(ctx, req)
			g.Expect(err).To(MatchError(errCrash))
			settledOnce(g)
		}).Should(Succeed())

		By("reconciling again after the crash: the UID in settled.uids keeps it from being settled twice")
		for range 5 {
			_, err := r.Reconcile(ctx, req)
			Expect(err).To(MatchError(errCrash))
			settledOnce(Default)
		}
		Expect(gone(p)()).To(BeFalse(), "the finalizer was never released")

		By("restarting the real controllers: the finalizer is released, the UID forgotten, nothing counted twice")
		Expect(cluster.RestartManager(defaultManager)).To(Succeed())
		Eventually(gone(p)).Should(BeTrue())
		Eventually(func(g Gomega) {
			s := projectSettled(ns)(g)
			g.Expect(s.Plans).To(Equal(int64(1)))
			g.Expect(s.Cost).To(Equal("0.75"))
			g.Expect(s.UIDs).To(BeEmpty())
		}).Should(Succeed())
		Eventually(func(g Gomega) string {
			pp := &safetyv1alpha1.ProjectPolicy{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: controller.ProjectPolicyName}, pp)).To(Succeed())
			return pp.Status.TotalCost
		}).Should(Equal("0.75"))
	})

	It("keep their project's settled spend: neither it nor the project's status can be taken away", func() {
		ns, agent := lockedPlan("gone")
		submitCall(agent, ns, "gone", "done", "s", safetyv1alpha1.CallPhaseSucceeded, "0.5", nil)
		expectUsage(ns, "gone", "0.5", 1, map[string]int32{"s": 1})
		p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "gone"}}
		Eventually(func(g Gomega) []string { return getPlan(ns, "gone")(g).Finalizers }).Should(ContainElement(safetyv1alpha1.PlanFinalizer))
		Expect(k8sClient.Delete(ctx, p)).To(Succeed())
		Eventually(func(g Gomega) { g.Expect(projectSettled(ns)(g).Cost).To(Equal("0.5")) }).Should(Succeed())
		for patch, message := range map[string]string{
			`{"status":{"settled":null}}`: "settled spend never goes away",
			`{"status":null}`:             "status never goes away",
		} {
			pp := &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: controller.ProjectPolicyName}}
			err := k8sClient.Status().Patch(ctx, pp, client.RawPatch(types.MergePatchType, []byte(patch)))
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%s: %v", patch, err)
			Expect(err.Error()).To(ContainSubstring(message))
		}
		Expect(projectSettled(ns)(Default).Cost).To(Equal("0.5"))
	})

	It("are refused by the API server when an edit would lower a counter", func() {
		ns, agent := lockedPlan("held")
		submitCall(agent, ns, "held", "c", "s", safetyv1alpha1.CallPhaseSucceeded, "2", nil)
		expectUsage(ns, "held", "2", 1, map[string]int32{"s": 1})
		rejectedPlan := func(mutate func(*safetyv1alpha1.AgentPlan), message string) {
			GinkgoHelper()
			Eventually(func(g Gomega) {
				p := getPlan(ns, "held")(g)
				mutate(p)
				err := k8sClient.Status().Update(ctx, p)
				g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
				g.Expect(err.Error()).To(ContainSubstring(message))
			}).Should(Succeed())
		}
		rejected := func(mutate func(*safetyv1alpha1.PlanUsage), message string) {
			GinkgoHelper()
			rejectedPlan(func(p *safetyv1alpha1.AgentPlan) { mutate(&p.Status.Usage) }, message)
		}
		rejected(func(u *safetyv1alpha1.PlanUsage) { u.Calls = 0 }, "calls never decrease")
		rejected(func(u *safetyv1alpha1.PlanUsage) { u.AccumulatedCost = "1" }, "accumulatedCost never decreases")
		rejected(func(u *safetyv1alpha1.PlanUsage) { u.ReportedCost = "" }, "reportedCost never decreases")
		By("a step's attempts, and the counters taken away whole")
		rejected(func(u *safetyv1alpha1.PlanUsage) { u.StepAttempts["s"] = 0 }, "a step's attempts never decrease")
		rejected(func(u *safetyv1alpha1.PlanUsage) { u.StepAttempts = map[string]int32{"t": 5} }, "a step's attempts never decrease")
		rejected(func(u *safetyv1alpha1.PlanUsage) { *u = safetyv1alpha1.PlanUsage{} }, "usage never goes away")
		rejectedPlan(func(p *safetyv1alpha1.AgentPlan) { p.Status = safetyv1alpha1.AgentPlanStatus{} }, "status never goes away")

		By("nor by taking the usage or the whole status away, where the rules on them are not evaluated")
		for patch, message := range map[string]string{
			`{"status":{"usage":null}}`: "usage never goes away",
			`{"status":null}`:           "status never goes away",
		} {
			p := getPlan(ns, "held")(Default)
			err := k8sClient.Status().Patch(ctx, p, client.RawPatch(types.MergePatchType, []byte(patch)))
			Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%s: %v", patch, err)
			Expect(err.Error()).To(ContainSubstring(message))
		}
		Expect(getPlan(ns, "held")(Default).Status.Snapshot).NotTo(BeNil(), "the locked snapshot stays")
		expectUsage(ns, "held", "2", 1, map[string]int32{"s": 1})
	})

	It("keep the settled spend of a ProjectPolicy: no status write takes it away", func() {
		ns := newNamespace()
		pp := &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: controller.ProjectPolicyName}}
		Expect(k8sClient.Create(ctx, pp)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pp), pp)).To(Succeed())
			pp.Status.Settled = &safetyv1alpha1.SettledPlans{Cost: "1.5", Plans: 1, Calls: 3}
			g.Expect(k8sClient.Status().Update(ctx, pp)).To(Succeed())
		}).Should(Succeed())
		rejected := func(mutate func(*safetyv1alpha1.ProjectPolicy), message string) {
			GinkgoHelper()
			Eventually(func(g Gomega) {
				g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pp), pp)).To(Succeed())
				mutate(pp)
				err := k8sClient.Status().Update(ctx, pp)
				g.Expect(apierrors.IsInvalid(err)).To(BeTrue(), "%v", err)
				g.Expect(err.Error()).To(ContainSubstring(message))
			}).Should(Succeed())
		}
		rejected(func(p *safetyv1alpha1.ProjectPolicy) { p.Status.Settled.Cost = "1" }, "settled cost never decreases")
		rejected(func(p *safetyv1alpha1.ProjectPolicy) { p.Status.Settled.Plans = 0 }, "settled plans never decrease")
		rejected(func(p *safetyv1alpha1.ProjectPolicy) { p.Status.Settled.Calls = 1 }, "settled calls never decrease")
		rejected(func(p *safetyv1alpha1.ProjectPolicy) { p.Status.Settled = nil }, "settled spend never goes away")
		rejected(func(p *safetyv1alpha1.ProjectPolicy) { p.Status = safetyv1alpha1.ProjectPolicyStatus{} }, "status never goes away")
		Expect(projectSettled(ns)(Default).Cost).To(Equal("1.5"))
	})
})
