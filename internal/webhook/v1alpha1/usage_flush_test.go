package v1alpha1

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

func TestAFlushWaitsForAPauseInDecisionsButNotPastTheMaxInterval(t *testing.T) {
	c := &usageCommitter{flushInterval: 100 * time.Millisecond, maxFlushInterval: time.Second}
	now := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	cases := []struct {
		name                 string
		sinceWrite, sinceDec time.Duration
		failures             int           // -1: the last write conflicted
		want                 time.Duration // <= 0: write now
	}{
		{"nothing written yet: the first write goes at once", 0, ms(5), 0, 0},
		{"too soon after the last write", ms(30), ms(200), 0, ms(70)},
		{"decisions still coming: wait for a pause", ms(500), ms(10), 0, ms(90)},
		{"a pause of the interval: write", ms(500), ms(100), 0, 0},
		{"no pause for the max interval: write anyway", ms(950), ms(10), 0, ms(50)},
		{"past the max interval: write now", ms(1200), 0, 0, ms(-200)},
		{"after failures only the backoff counts", ms(100), ms(1), 2, ms(300)},
		{"after a conflict only the interval counts", ms(30), ms(1), -1, ms(70)},
	}
	for _, tc := range cases {
		p := &planCounters{failures: max(tc.failures, 0), conflicted: tc.failures < 0, lastDecided: now.Add(-tc.sinceDec)}
		if tc.sinceWrite > 0 {
			p.lastWrite = now.Add(-tc.sinceWrite)
		}
		got := c.flushWait(p, now)
		if tc.want <= 0 && got > 0 || tc.want > 0 && got != tc.want {
			t.Errorf("%s: wait %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestAPlanMadeAgainUnderItsNameDoesNotInheritTheBackoff(t *testing.T) {
	c := &usageCommitter{flushInterval: 100 * time.Millisecond, maxFlushInterval: time.Second}
	now := time.Now()
	long := now.Add(-time.Second)
	p := &planCounters{uid: "old", failures: 9, lastWrite: long, lastDecided: long}
	p.reset("new")
	if got := c.flushWait(p, now); got > 0 {
		t.Errorf("after the former plan's nine failed writes, the new plan's first write waits %s; want at once", got)
	}
}

func TestAMaxIntervalAtTheIntervalIsTheFixedInterval(t *testing.T) {
	c := &usageCommitter{flushInterval: 100 * time.Millisecond, maxFlushInterval: 100 * time.Millisecond}
	now := time.Now()
	p := &planCounters{lastWrite: now.Add(-40 * time.Millisecond), lastDecided: now}
	if got := c.flushWait(p, now); got != 60*time.Millisecond {
		t.Fatalf("wait %s, want 60ms: 100ms after the last write, whatever the decisions", got)
	}
}

func TestFlushIntervalsAreCheckedAndNamed(t *testing.T) {
	for _, tc := range []struct {
		least, most time.Duration
		err         string
	}{
		{0, 0, ""},
		{50 * time.Millisecond, 0, ""},
		{0, 5 * time.Second, ""},
		{-time.Second, 0, "must not be negative"},
		{0, -time.Second, "must not be negative"},
		{2 * time.Second, 0, "--usage-flush-max-interval (1s) must be at least --usage-flush-interval (2s)"},
	} {
		c := newUsageCommitter(nil, nil, nil, time.Now)
		err := c.setFlushIntervals(tc.least, tc.most)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s/%s: %v", tc.least, tc.most, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s/%s: error %v, want one saying %q", tc.least, tc.most, err, tc.err)
		}
		if tc.err == "" && err == nil {
			want := DefaultUsageFlushInterval
			if tc.least > 0 {
				want = tc.least
			}
			if c.flushInterval != want {
				t.Errorf("%s/%s: interval %s, want %s", tc.least, tc.most, c.flushInterval, want)
			}
		}
	}
}

// fakeNow is a clock the test moves; the flusher's timers stay real and only prompt it to read
// the clock again, so what it writes follows the test's time alone.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeNow) now() time.Time  { f.mu.Lock(); defer f.mu.Unlock(); return f.t }
func (f *fakeNow) set(t time.Time) { f.mu.Lock(); defer f.mu.Unlock(); f.t = t }

func TestABusyPlansCountersAreWrittenAtTheMaxIntervalAndAfterAPause(t *testing.T) {
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{})
	t0 := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	clock := &fakeNow{t: t0}
	committer := newUsageCommitter(c, c, newProjectTotals(c), clock.now)
	// The max interval is long in real time too: the flusher never waits longer than it in real
	// time, whatever the committer's clock says (TestAStandingClockStillStoresTheCounters).
	if err := committer.setFlushIntervals(20*time.Millisecond, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	decideAt := func(ms int) {
		t.Helper()
		clock.set(t0.Add(time.Duration(ms) * time.Millisecond))
		if err := admitOne(ctx, committer, plan, "a"); err != nil {
			t.Fatal(err)
		}
	}
	calls := func(n int64) policy.Usage { return policy.Usage{Calls: n, Steps: map[string]int32{"a": int32(n)}} }

	decideAt(0) // nothing written before: written at once
	assertStored(t, c, plan, calls(1))
	// A decision every 15 ms of the committer's clock: never a pause of 20 ms, so the write waits
	// for the max interval. (Each step of the clock comes before its decision, and a flusher that
	// wakes in between sees the time since the last decision: a step of 20 ms or more would be a
	// pause, and a write, whenever the flusher woke there.)
	n := int64(1)
	for ms := 15; ms < 5000; ms += 15 {
		decideAt(ms)
		n++
		if ms == 90 {
			// The clock stands still: the flusher's real timers fire and find the write not yet
			// due. The first version of this flusher wrote once its first timer fired.
			time.Sleep(200 * time.Millisecond)
			assertStoredNow(t, c, plan, calls(1))
		}
	}
	clock.set(t0.Add(5001 * time.Millisecond)) // the max interval since the write, decisions or not
	assertStored(t, c, plan, calls(n))
	decideAt(5011)
	clock.set(t0.Add(5025 * time.Millisecond)) // a pause of 14 ms: not yet
	time.Sleep(100 * time.Millisecond)
	assertStoredNow(t, c, plan, calls(n))
	clock.set(t0.Add(5031 * time.Millisecond)) // a pause of 20 ms
	assertStored(t, c, plan, calls(n+1))
}

func TestAStandingClockStillStoresTheCounters(t *testing.T) {
	// A handler on a fake clock nobody moves (the controller suite injects one) must still store
	// what it decided: its flusher waits at most the max interval in real time.
	c, plan := recountWorld(t, safetyv1alpha1.PlanUsage{})
	clock := &fakeNow{t: time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)}
	committer := newUsageCommitter(c, c, newProjectTotals(c), clock.now)
	if err := committer.setFlushIntervals(20*time.Millisecond, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	for n := range int64(3) {
		if err := admitOne(context.Background(), committer, plan, "a"); err != nil {
			t.Fatal(err)
		}
		if n == 0 { // the first write goes at once; the next waits for a pause the clock never shows
			assertStored(t, c, plan, policy.Usage{Calls: 1, Steps: map[string]int32{"a": 1}})
		}
	}
	assertStored(t, c, plan, policy.Usage{Calls: 3, Steps: map[string]int32{"a": 3}})
}

// assertStoredNow checks the plan's stored counters once, without waiting for them.
func assertStoredNow(t *testing.T, c client.Client, plan *safetyv1alpha1.AgentPlan, want policy.Usage) {
	t.Helper()
	if u := storedUsage(t, c, plan); !u.Equal(want) {
		t.Fatalf("stored %+v, want %+v", u, want)
	}
}
