package v1alpha1

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// When the recount runs, how long it may take, and how it pages: it reads the API server, so it
// must run only when a replica cannot know the stored counters are exact, and must finish even for
// a plan with more calls than one admission's timeout can list.

// callLister counts the lists of AgentToolCalls, serves them a page (Limit) at a time with
// Continue tokens as the API server does (the in-memory client ignores both), and, until hold is
// closed, keeps each list waiting (or until its context ends).
type callLister struct {
	client.Reader
	lists atomic.Int32
	limit atomic.Int64 // the Limit of the last list
	hold  chan struct{}
}

func (l *callLister) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	calls, ok := list.(*safetyv1alpha1.AgentToolCallList)
	if !ok {
		return l.Reader.List(ctx, list, opts...)
	}
	l.lists.Add(1)
	if l.hold != nil {
		select {
		case <-l.hold:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	o := (&client.ListOptions{}).ApplyOptions(opts)
	l.limit.Store(o.Limit)
	from, _ := strconv.Atoi(o.Continue)
	all := &safetyv1alpha1.AgentToolCallList{}
	if err := l.Reader.List(ctx, all, client.InNamespace(o.Namespace), client.MatchingFieldsSelector{Selector: o.FieldSelector}); err != nil {
		return err
	}
	to := len(all.Items)
	if o.Limit > 0 && from+int(o.Limit) < to {
		to = from + int(o.Limit)
		calls.Continue = strconv.Itoa(to)
	}
	calls.Items = all.Items[from:to]
	return nil
}

// termClock is a committer's clock and term, both moved by the test.
type termClock struct {
	mu   sync.Mutex
	now  time.Time
	term uint64
}

func (c *termClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *termClock) Term() uint64   { c.mu.Lock(); defer c.mu.Unlock(); return c.term }
func (c *termClock) idle()          { c.mu.Lock(); c.now = c.now.Add(idlePlanTTL + time.Second); c.mu.Unlock() }
func (c *termClock) newTerm()       { c.mu.Lock(); c.term++; c.mu.Unlock() }

// admitOneRead admits one call of step a and returns the counters after it.
func admitOneRead(t *testing.T, c *usageCommitter, plan *safetyv1alpha1.AgentPlan) policy.Usage {
	t.Helper()
	if err := admitOne(context.Background(), c, plan, "a"); err != nil {
		t.Fatal(err)
	}
	return countersOf(t, c, plan)
}

// forget stores plan's counters and lets the committer's sweep forget them, as after a minute idle.
func forget(t *testing.T, c *usageCommitter, clk *termClock, plan *safetyv1alpha1.AgentPlan) {
	t.Helper()
	store := &CounterStore{}
	store.attach(c)
	if err := store.Store(context.Background(), client.ObjectKeyFromObject(plan)); err != nil {
		t.Fatal(err)
	}
	clk.idle()
	c.counters(types.NamespacedName{Namespace: "other", Name: fmt.Sprint(clk.Now().UnixNano())}) // sweeps
	c.mu.Lock()
	_, kept := c.plans[client.ObjectKeyFromObject(plan)]
	c.mu.Unlock()
	if kept {
		t.Fatal("the idle plan's stored counters were not forgotten")
	}
}

func TestAPlanForgottenWithItsCountsStoredIsRecountedOnlyInANewTerm(t *testing.T) {
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{}, callOf("c1", "free", "a", ""))
	lister := &callLister{Reader: c}
	clk := &termClock{now: time.Now(), term: 1}
	committer := newUsageCommitter(lister, c, newProjectTotals(c), clk.Now)
	committer.term = clk.Term

	if u := admitOneRead(t, committer, plan); u.Calls != 2 || lister.lists.Load() != 1 {
		t.Fatalf("first decision: %d calls after %d recounts, want 2 after 1 (the stored call, then this one)", u.Calls, lister.lists.Load())
	}
	forget(t, committer, clk, plan)
	if u := admitOneRead(t, committer, plan); u.Calls != 3 || lister.lists.Load() != 1 {
		t.Fatalf("same term: %d calls after %d recounts, want 3 after still 1: what it stored is exact", u.Calls, lister.lists.Load())
	}
	clk.newTerm() // the Lease was renewed after a gap: another replica may have decided meanwhile
	if u := admitOneRead(t, committer, plan); u.Calls != 4 || lister.lists.Load() != 2 {
		t.Fatalf("new term, counters held: %d calls after %d recounts, want 4 after 2 (read and recounted again, none lost)",
			u.Calls, lister.lists.Load())
	}
	clk.newTerm() // and again, before the idle plan is forgotten: its counts were stored in a past term
	forget(t, committer, clk, plan)
	if admitOneRead(t, committer, plan); lister.lists.Load() != 3 {
		t.Fatalf("forgotten in a later term than it was loaded in: %d recounts, want 3", lister.lists.Load())
	}
}

func TestARecountOutlivesTheAdmissionThatGaveUpOnIt(t *testing.T) {
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{}, callOf("c1", "free", "a", ""), callOf("c2", "free", "b", ""))
	lister := &callLister{Reader: c, hold: make(chan struct{})}
	committer := newUsageCommitter(lister, c, newProjectTotals(c), time.Now)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := committer.submit(ctx, plan, func(u *policy.Usage) (outcome, error) {
		t.Error("decided without its counters")
		return outcome{}, nil
	})
	if err == nil || !strings.Contains(err.Error(), "which goes on") {
		t.Fatalf("an admission that timed out waiting for the recount: %v, want a refusal saying the recount goes on", err)
	}
	close(lister.hold) // the recount, started by the first admission, now gets its list
	if u := admitOneRead(t, committer, plan); u.Calls != 3 {
		t.Fatalf("counters after the recount: %d calls, want the 2 stored calls and this one", u.Calls)
	}
	if n := lister.lists.Load(); n != 1 {
		t.Fatalf("%d lists: the second admission started another recount instead of taking the first's", n)
	}
}

func TestARecountReadsEveryPage(t *testing.T) {
	const n = 2*recountPage + 7
	calls := make([]safetyv1alpha1.AgentToolCall, n)
	for i := range calls {
		calls[i] = callOf(fmt.Sprintf("c%03d", i), "paid", fmt.Sprintf("s%d", i%3), "")
	}
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{}, calls...)
	lister := &callLister{Reader: c}
	u := countersOf(t, newUsageCommitter(lister, c, newProjectTotals(c), time.Now), plan)
	if u.Calls != n || lister.lists.Load() != 3 || lister.limit.Load() != recountPage {
		t.Fatalf("recounted %d calls in %d lists of %d, want %d in 3 of %d", u.Calls, lister.lists.Load(), lister.limit.Load(), n, recountPage)
	}
	if want := safety.MustParseMoney(fmt.Sprintf("%d.5", n/2)); u.Reserved.Cmp(want) != 0 { // n is odd: 0.5 each
		t.Fatalf("reserved %s, want %s", u.Reserved, want)
	}
}
