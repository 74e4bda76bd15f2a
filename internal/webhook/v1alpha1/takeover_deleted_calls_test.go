package v1alpha1

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// Issue 15, "exact under several replicas" / "counters that only grow": a plan whose
// status stores 5 attempts of step a (their calls since deleted by the finished-call TTL) and whose
// deciding replica was killed (SIGKILL, OOM, node loss) less than a flush interval after admitting
// 3 more attempts of step a (stored as calls, not yet in the status). The replica that takes over
// must count 8, not 5. Each deleted call was counted into the status's deleted part before it was
// deleted (usage_deleted.go), so the deleted part plus the recount of the calls that exist is 8.
func TestATakeoverAfterACrashKeepsTheUnstoredCountsOfAPlanWithDeletedCalls(t *testing.T) {
	c, plan := recountWorld(t, v1alpha1.PlanUsage{Calls: 5, StepAttempts: map[string]int32{"a": 5}, AccumulatedCost: "2.5", ReservedCost: "2.5",
		Deleted: &v1alpha1.DeletedCalls{Calls: 5, StepAttempts: map[string]int32{"a": 5}, AccumulatedCost: "2.5", ReservedCost: "2.5"}},
		callOf("n1", "paid", "a", ""), callOf("n2", "paid", "a", ""), callOf("n3", "paid", "a", ""))
	u := countersOf(t, newUsageCommitter(c, c, newProjectTotals(c), time.Now), plan)
	want := policy.Usage{Calls: 8, Steps: map[string]int32{"a": 8}, Reserved: safety.MustParseMoney("4"), Accumulated: safety.MustParseMoney("4")}
	if !u.Equal(want) {
		t.Fatalf("counters after takeover: %+v, want %+v (every admitted attempt counted)", u, want)
	}
}

// The same, played out: a replica admits five calls and stores them, the finished-call
// controller deletes them after their TTL, the replica admits three more and is killed before it
// stores them; the next replica counts all eight. Then the case of the class with reports: one
// deleted call was reported 0.8 by the plan's reporter before its deletion (a report after it
// was counted into the deleted part, so its deletion is settled again), and its cost survives.
func TestACrashAfterTheTTLDeletedCallsLosesNoAdmission(t *testing.T) {
	w := newDeletionWorld(t)
	a := w.committer(t)
	w.admit(t, a, "a", 5, "d")
	w.store(t, a)
	w.report(t, a, "d0", "0.8")
	for i := range 5 {
		w.expire(t, a, fmt.Sprintf("d%d", i))
	}
	w.kill(a) // nothing a decides from now on is stored
	w.admit(t, a, "a", 3, "n")
	b := w.committer(t)
	want := policy.Usage{Calls: 8, Steps: map[string]int32{"a": 8}, Reserved: safety.MustParseMoney("4"), Accumulated: safety.MustParseMoney("4.3"),
		Reported: safety.MustParseMoney("0.8")}
	if u := countersOf(t, b, w.plan); !u.Equal(want) {
		t.Fatalf("counters after the takeover: %+v, want %+v", u, want)
	}
}

// A graceful handoff is exact: the replica that stops stores everything, some calls are listed
// pending (counted into the deleted part, not deleted yet), and the next replica counts each call
// once. Deleting the pending calls afterwards, through the next replica, adds nothing to them.
func TestAGracefulHandoffWithDeletionsInFlightCountsEachCallOnce(t *testing.T) {
	w := newDeletionWorld(t)
	a := w.committer(t)
	w.admit(t, a, "a", 5, "d")
	for i := range 3 {
		w.expire(t, a, fmt.Sprintf("d%d", i))
	}
	// d3 and d4 are counted into the deleted part and stored, and not deleted: the controller
	// stopped in between.
	for _, name := range []string{"d3", "d4"} {
		w.finish(t, name)
		w.settle(t, a, name)
	}
	w.stop(t, a)
	want := policy.Usage{Calls: 5, Steps: map[string]int32{"a": 5}, Reserved: safety.MustParseMoney("2.5"), Accumulated: safety.MustParseMoney("2.5")}
	b := w.committer(t)
	if u := countersOf(t, b, w.plan); !u.Equal(want) {
		t.Fatalf("counters after a graceful handoff: %+v, want %+v (no call counted twice)", u, want)
	}
	for _, name := range []string{"d3", "d4"} {
		w.expire(t, b, name)
	}
	w.admit(t, b, "a", 1, "m")
	w.store(t, b)
	want = policy.Usage{Calls: 6, Steps: map[string]int32{"a": 6}, Reserved: safety.MustParseMoney("3"), Accumulated: safety.MustParseMoney("3")}
	assertStored(t, w.c, w.plan, want)
	if d := w.deleted(t); d.Calls != 5 || len(w.storedPlan(t).Status.Usage.Deleted.Pending) != 0 {
		t.Fatalf("deleted part %+v, pending %v: want the five calls, none pending", d, w.storedPlan(t).Status.Usage.Deleted.Pending)
	}
	w.stop(t, b)
	if u := countersOf(t, w.committer(t), w.plan); !u.Equal(want) {
		t.Fatalf("counters after a second handoff: %+v, want %+v", u, want)
	}
}

// A replica killed between storing a call's deleted part and deleting it leaves the call listed
// pending: the next one counts it once (not twice, and never not at all), and so do the ones
// after it once the call is deleted. A report on the call in between adds only what it grew by.
func TestACrashBetweenSettlingAndDeletingCountsTheCallOnce(t *testing.T) {
	w := newDeletionWorld(t)
	a := w.committer(t)
	w.admit(t, a, "a", 2, "d")
	w.finish(t, "d0")
	w.settle(t, a, "d0")
	w.kill(a)
	w.admit(t, a, "b", 1, "n") // admitted after the write, never stored
	b := w.committer(t)
	want := policy.Usage{Calls: 3, Steps: map[string]int32{"a": 2, "b": 1}, Reserved: safety.MustParseMoney("1.5"), Accumulated: safety.MustParseMoney("1.5")}
	if u := countersOf(t, b, w.plan); !u.Equal(want) {
		t.Fatalf("counters after the crash: %+v, want %+v", u, want)
	}
	// The reporter reports d0 at 0.8 before the new replica's controller deletes it.
	w.report(t, b, "d0", "0.8")
	w.expire(t, b, "d0")
	w.kill(b)
	w.admit(t, b, "b", 1, "m") // lost with b: only the deleted part with d0's report and the recount hold it
	want = policy.Usage{Calls: 4, Steps: map[string]int32{"a": 2, "b": 2}, Reserved: safety.MustParseMoney("2"), Accumulated: safety.MustParseMoney("2.3"),
		Reported: safety.MustParseMoney("0.8")}
	if u := countersOf(t, w.committer(t), w.plan); !u.Equal(want) {
		t.Fatalf("counters after the second crash: %+v, want %+v", u, want)
	}
}

// A write in flight when a call is settled does not carry it: the controller is told the call is
// stored only after a write that holds it, and deletes it only then.
func TestADeletionRacingAFlushWaitsForTheWriteThatHoldsIt(t *testing.T) {
	w := newDeletionWorld(t)
	gate := make(chan struct{})
	entered := make(chan struct{}, 8)
	a := newUsageCommitter(w.c, enteredStatus{gatedStatus{w.c, gate}, entered}, newProjectTotals(w.c), time.Now)
	w.admit(t, a, "a", 2, "d")
	w.finish(t, "d0")
	w.finish(t, "d1")
	<-entered // the write of the two admissions waits at the gate
	if stored, err := a.settleCall(context.Background(), w.plan, w.call(t, "d0")); err != nil || stored {
		t.Fatalf("settle d0 during the write: stored %v, %v; want not stored", stored, err)
	}
	gate <- struct{}{} // the first write, which holds no deletion, goes through
	<-entered          // the next, holding d0, waits
	if stored, _ := a.settleCall(context.Background(), w.plan, w.call(t, "d0")); stored {
		t.Fatal("d0 reported stored before the write that holds it")
	}
	if stored, _ := a.settleCall(context.Background(), w.plan, w.call(t, "d1")); stored {
		t.Fatal("d1 reported stored before any write holds it")
	}
	close(gate)
	w.settle(t, a, "d0")
	w.settle(t, a, "d1")
	if d := w.deleted(t); d.Calls != 2 {
		t.Fatalf("deleted part %+v, want both calls", d)
	}
	listed := map[string]bool{}
	for _, p := range w.storedPlan(t).Status.Usage.Deleted.Pending {
		listed[p.UID] = true
	}
	if !listed[string(w.call(t, "d0").UID)] || !listed[string(w.call(t, "d1").UID)] {
		t.Fatalf("pending %v, want d0 and d1", listed)
	}
}

// Two plans, each with deleted calls and admissions lost in one crash: each is counted on its own.
func TestACrashLosesNoAdmissionOfSeveralPlansWithDeletedCalls(t *testing.T) {
	w := newDeletionWorld(t)
	other := w.addPlan(t, "q")
	a := w.committer(t)
	w.admit(t, a, "a", 4, "d")
	w.admitTo(t, a, other, "x", 2, "e")
	w.store(t, a)
	for i := range 4 {
		w.expire(t, a, fmt.Sprintf("d%d", i))
	}
	w.expire(t, a, "e0")
	w.kill(a)
	w.admit(t, a, "a", 1, "n")
	w.admitTo(t, a, other, "x", 3, "f")
	b := w.committer(t)
	if u, want := countersOf(t, b, w.plan), (policy.Usage{Calls: 5, Steps: map[string]int32{"a": 5}, Reserved: safety.MustParseMoney("2.5"),
		Accumulated: safety.MustParseMoney("2.5")}); !u.Equal(want) {
		t.Fatalf("plan p after the crash: %+v, want %+v", u, want)
	}
	if u, want := countersOf(t, b, other), (policy.Usage{Calls: 5, Steps: map[string]int32{"x": 5}, Reserved: safety.MustParseMoney("2.5"),
		Accumulated: safety.MustParseMoney("2.5")}); !u.Equal(want) {
		t.Fatalf("plan q after the crash: %+v, want %+v", u, want)
	}
}

// A plan lists at most MaxPendingDeletions calls pending: the next waits until a write lists the
// deleted ones no more, and is then settled.
func TestPendingDeletionsAreBoundedAndMakeRoom(t *testing.T) {
	w := newDeletionWorld(t)
	a := w.committer(t)
	n := v1alpha1.MaxPendingDeletions + 1
	w.admit(t, a, "a", n, "d")
	for i := range n {
		w.finish(t, fmt.Sprintf("d%d", i))
	}
	for i := range n - 1 {
		if _, err := a.settleCall(context.Background(), w.plan, w.call(t, fmt.Sprintf("d%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	last := w.call(t, fmt.Sprintf("d%d", n-1))
	if _, err := a.settleCall(context.Background(), w.plan, last); !errors.Is(err, errNoRoomToSettle) {
		t.Fatalf("settling one call past the bound: %v, want errNoRoomToSettle", err)
	}
	w.expire(t, a, "d0") // deleted: the next write lists it no more
	w.expire(t, a, last.Name)
	if got := len(w.storedPlan(t).Status.Usage.Deleted.Pending); got > v1alpha1.MaxPendingDeletions {
		t.Fatalf("%d calls pending, more than %d", got, v1alpha1.MaxPendingDeletions)
	}
}

// deletionWorld is a plan on the in-memory client with the finished-call controller of this
// process deleting its calls (TTL 0) through the replica given.
type deletionWorld struct {
	c       client.Client
	plan    *v1alpha1.AgentPlan
	created time.Time
	clock   *clocktesting.FakePassiveClock
}

func newDeletionWorld(t *testing.T) *deletionWorld {
	t.Helper()
	c, plan := recountWorld(t, v1alpha1.PlanUsage{})
	zero := int64(0)
	if err := c.Create(context.Background(), &v1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: audit.LedgerName},
		Spec: v1alpha1.AuditLedgerSpec{FinishedCallTTLSeconds: &zero}}); err != nil {
		t.Fatal(err)
	}
	return &deletionWorld{c: c, plan: plan, created: plan.CreationTimestamp.Add(time.Minute), clock: clocktesting.NewFakePassiveClock(time.Now())}
}

func (w *deletionWorld) addPlan(t *testing.T, name string) *v1alpha1.AgentPlan {
	t.Helper()
	p := &v1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID(name + "-uid"), CreationTimestamp: w.plan.CreationTimestamp},
		Status: v1alpha1.AgentPlanStatus{Tools: w.plan.Status.Tools}}
	if err := w.c.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return p
}

// committer is a replica starting to decide, with its own term (a fresh committer).
func (w *deletionWorld) committer(t *testing.T) *usageCommitter {
	t.Helper()
	c := newUsageCommitter(w.c, &killable{Client: w.c}, newProjectTotals(w.c), time.Now)
	c.flushInterval, c.maxFlushInterval = 10*time.Millisecond, 50*time.Millisecond
	return c
}

func (w *deletionWorld) admit(t *testing.T, c *usageCommitter, step string, n int, prefix string) {
	t.Helper()
	w.admitTo(t, c, w.plan, step, n, prefix)
}

// admitTo admits n calls of step in plan and creates them, as the API server does after the
// webhook's answer.
func (w *deletionWorld) admitTo(t *testing.T, c *usageCommitter, plan *v1alpha1.AgentPlan, step string, n int, prefix string) {
	t.Helper()
	for i := range n {
		if _, err := c.submit(context.Background(), plan, func(u *policy.Usage) (outcome, error) {
			u.Admit(step, safety.MustParseMoney("0.5"))
			return outcome{}, nil
		}); err != nil {
			t.Fatal(err)
		}
		call := callOf(fmt.Sprintf("%s%d", prefix, i), "paid", step, "")
		call.Namespace, call.Spec.Plan, call.CreationTimestamp = "ns", plan.Name, metav1.NewTime(w.created)
		call.UID = types.UID(fmt.Sprintf("%s-%s%d", plan.Name, prefix, i))
		if err := w.c.Create(context.Background(), &call); err != nil {
			t.Fatal(err)
		}
	}
}

// report counts a report of the call's cost by the plan's reporter and stores it on the call.
func (w *deletionWorld) report(t *testing.T, c *usageCommitter, name, cost string) {
	t.Helper()
	call := w.call(t, name)
	before, _ := policy.ReportedCost(call.Status.Cost)
	if err := c.settle(context.Background(), w.plan, call.UID, &costReport{safety.MustParseMoney("0.5"), before, safety.MustParseMoney(cost)}, false); err != nil {
		t.Fatal(err)
	}
	call.Status.Cost = quantity(cost)
	if err := w.c.Update(context.Background(), call); err != nil {
		t.Fatal(err)
	}
}

func (w *deletionWorld) finish(t *testing.T, name string) {
	t.Helper()
	call := w.call(t, name)
	if call.Status.Phase == v1alpha1.CallPhaseSucceeded {
		return
	}
	call.Status.Phase = v1alpha1.CallPhaseSucceeded
	if err := w.c.Update(context.Background(), call); err != nil {
		t.Fatal(err)
	}
}

// settle counts the finished call into the deleted part through c, until that is stored.
func (w *deletionWorld) settle(t *testing.T, c *usageCommitter, name string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		plan := w.planOf(t, name)
		stored, err := c.settleCall(context.Background(), plan, w.call(t, name))
		if err != nil {
			t.Fatal(err)
		}
		if stored {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("call %s never stored as settled", name)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// expire finishes the call and runs the finished-call controller, with c as this process's
// webhook, until the call is deleted.
func (w *deletionWorld) expire(t *testing.T, c *usageCommitter, name string) {
	t.Helper()
	w.finish(t, name)
	store := &CounterStore{}
	store.attach(c)
	r := &controller.FinishedCallReconciler{Client: w.c, Clock: w.clock, Log: nopCompletions{}, Counters: store}
	req := ctrl.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: name}}
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := r.Reconcile(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		err := w.c.Get(context.Background(), req.NamespacedName, &v1alpha1.AgentToolCall{})
		if apierrors.IsNotFound(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("call %s never deleted: %v", name, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// store waits until c's counters of every plan are written.
func (w *deletionWorld) store(t *testing.T, c *usageCommitter) {
	t.Helper()
	store := &CounterStore{}
	store.attach(c)
	for key := range c.plans {
		if err := store.Store(context.Background(), key); err != nil {
			t.Fatal(err)
		}
	}
}

// kill makes c a replica killed now: nothing it holds is written any more.
func (w *deletionWorld) kill(c *usageCommitter) {
	c.writer.(*killable).dead.Store(true)
}

// stop stops c gracefully: it writes what it holds, then decides nothing more.
func (w *deletionWorld) stop(t *testing.T, c *usageCommitter) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
}

func (w *deletionWorld) call(t *testing.T, name string) *v1alpha1.AgentToolCall {
	t.Helper()
	call := &v1alpha1.AgentToolCall{}
	if err := w.c.Get(context.Background(), types.NamespacedName{Namespace: "ns", Name: name}, call); err != nil {
		t.Fatal(err)
	}
	return call
}

func (w *deletionWorld) planOf(t *testing.T, call string) *v1alpha1.AgentPlan {
	t.Helper()
	plan := &v1alpha1.AgentPlan{}
	if err := w.c.Get(context.Background(), types.NamespacedName{Namespace: "ns", Name: w.call(t, call).Spec.Plan}, plan); err != nil {
		t.Fatal(err)
	}
	return plan
}

func (w *deletionWorld) storedPlan(t *testing.T) *v1alpha1.AgentPlan {
	t.Helper()
	plan := &v1alpha1.AgentPlan{}
	if err := w.c.Get(context.Background(), client.ObjectKeyFromObject(w.plan), plan); err != nil {
		t.Fatal(err)
	}
	if plan.Status.Usage.Deleted == nil {
		plan.Status.Usage.Deleted = &v1alpha1.DeletedCalls{}
	}
	return plan
}

func (w *deletionWorld) deleted(t *testing.T) policy.Usage {
	t.Helper()
	d, err := policy.DeletedOf(w.storedPlan(t))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// killable is a status writer that fails every write once its replica is killed.
type killable struct {
	client.Client
	dead atomic.Bool
}

func (k *killable) Status() client.SubResourceWriter { return killableWriter{k.Client.Status(), k} }

type killableWriter struct {
	client.SubResourceWriter
	k *killable
}

func (w killableWriter) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	if w.k.dead.Load() {
		return errors.New("killed")
	}
	return w.SubResourceWriter.Update(ctx, obj, opts...)
}

// enteredStatus tells entered whenever a write begins.
type enteredStatus struct {
	gatedStatus
	entered chan struct{}
}

func (e enteredStatus) Status() client.SubResourceWriter {
	return enteredWriter{e.gatedStatus.Status(), e.entered}
}

type enteredWriter struct {
	client.SubResourceWriter
	entered chan struct{}
}

func (e enteredWriter) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	e.entered <- struct{}{}
	return e.SubResourceWriter.Update(ctx, obj, opts...)
}

// nopCompletions is a ledger that holds every completion record.
type nopCompletions struct{}

func (nopCompletions) RecordCompletion(context.Context, audit.Completion) (audit.CompletionReceipt, error) {
	return audit.CompletionReceipt{Writer: "test", Seq: 1}, nil
}

// The write that drops deleted calls from pending rides on the plan's next write; a plan that
// goes idle with such calls is written once for them, then forgotten.
func TestAnIdlePlanDropsItsDeletedCallsFromPendingOnce(t *testing.T) {
	w := newDeletionWorld(t)
	var offset atomic.Int64
	a := w.committer(t)
	a.nowFunc = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	w.admit(t, a, "a", 2, "d")
	w.expire(t, a, "d0")
	w.expire(t, a, "d1")
	if got := len(w.storedPlan(t).Status.Usage.Deleted.Pending); got == 0 {
		t.Fatal("no call listed pending after the deletions: the test needs the write that drops them still to come")
	}
	sweep := func() {
		offset.Add(int64(2 * idlePlanTTL))
		a.mu.Lock()
		a.sweep()
		a.mu.Unlock()
	}
	// Sweeps come again, as the committer's own do: one that finds the plan still being written
	// (the last deletion's write, late under load) passes it by, and the next one writes it.
	deadline := time.Now().Add(time.Minute)
	for sweep(); len(w.storedPlan(t).Status.Usage.Deleted.Pending) > 0; sweep() {
		if time.Now().After(deadline) {
			t.Fatalf("an idle plan still lists deleted calls pending: %v", w.storedPlan(t).Status.Usage.Deleted.Pending)
		}
		time.Sleep(5 * time.Millisecond)
	}
	w.store(t, a)
	sweep()
	a.mu.Lock()
	_, kept := a.plans[client.ObjectKeyFromObject(w.plan)]
	a.mu.Unlock()
	if kept {
		t.Fatal("the idle plan is not forgotten once its status lists nothing deleted")
	}
	if d := w.deleted(t); d.Calls != 2 {
		t.Fatalf("deleted part %+v, want the two calls", d)
	}
}

// A write that drops a deleted call from pending and conflicts with another writer's (which
// still lists it) drops it all the same when it is tried again.
func TestAConflictDoesNotBringADeletedCallBackIntoPending(t *testing.T) {
	w := newDeletionWorld(t)
	a := w.committer(t)
	w.admit(t, a, "a", 1, "d")
	w.expire(t, a, "d0")
	if got := len(w.storedPlan(t).Status.Usage.Deleted.Pending); got != 1 {
		t.Fatalf("%d calls listed pending after the deletion, want d0 still (dropped at the next write)", got)
	}
	// Another writer (the denial counter) writes the plan, still listing d0.
	other := w.storedPlan(t)
	other.Status.Usage.Denials++
	if err := w.c.Status().Update(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	w.admit(t, a, "a", 1, "n") // a's next write conflicts, re-reads, and is tried again
	w.store(t, a)
	if got := w.storedPlan(t).Status.Usage.Deleted.Pending; len(got) != 0 {
		t.Fatalf("pending %v after the write that drops d0, want none", got)
	}
	assertStored(t, w.c, w.plan, policy.Usage{Calls: 2, Steps: map[string]int32{"a": 2}, Reserved: safety.MustParseMoney("1"), Accumulated: safety.MustParseMoney("1")})
}
