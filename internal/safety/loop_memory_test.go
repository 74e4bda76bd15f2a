package safety

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// heldByWalk is what the detector's namespaces hold, counted from scratch: what MemoryHeld must
// say, kept by the detector as it goes.
func heldByWalk(d *LoopDetector) int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	var n int64
	for el := d.order.Front(); el != nil; el = el.Next() {
		lp := el.Value.(*loopPartition)
		lp.mu.Lock()
		for e := lp.order.Front(); e != nil; e = e.Next() {
			n += loopEntryBytes + stampBytes(e.Value.(*loopEntry).stamps)
		}
		if lp.floors != nil {
			n += int64(len(lp.floors)) * floorHeaderBytes
		}
		for _, f := range lp.floors {
			n += stampBytes(f)
		}
		n += stampBytes(lp.shared)
		lp.mu.Unlock()
	}
	return n
}

// Agents flooding distinct, repeated calls in many namespaces at once: whatever each namespace's
// own bounds would let it hold, all of them together never hold more than the budget after a
// call, and what the detector says it holds is what it holds. Without the budget the same calls
// hold several times as much.
func TestLoopDetectorHoldsNoMoreThanItsBudget(t *testing.T) {
	const namespaces, budget = 24, 2 << 20
	flood := func(d *LoopDetector, check func()) {
		clk := d.clock.(*fakeClock)
		for round := range 30 {
			for ns := range namespaces {
				for c := range 40 {
					k := NewCallKey("ns"+strconv.Itoa(ns)+"/plan", shCall("cat f"+strconv.Itoa(round*40+c)))
					for range 30 {
						d.Observe(k, time.Hour)
						check()
					}
				}
			}
			clk.Step(time.Second)
		}
	}
	unbounded := NewLoopDetector(&fakeClock{t: time.Unix(0, 0)}, 200)
	unbounded.budget = 1 << 62
	flood(unbounded, func() {})
	if held := unbounded.MemoryHeld(); held < 3*budget {
		t.Fatalf("the flood holds %d bytes without a budget: too few to test a budget of %d", held, budget)
	}

	d := NewLoopDetector(&fakeClock{t: time.Unix(0, 0)}, 200)
	d.budget = budget // below the least a manager may set, to flood it quickly
	calls := 0
	flood(d, func() {
		if calls++; calls%997 == 0 { // a walk per call would take minutes
			if held, walked := d.MemoryHeld(), heldByWalk(d); held != walked {
				t.Fatalf("after %d calls the detector says it holds %d bytes; it holds %d", calls, held, walked)
			}
		}
		if held := d.MemoryHeld(); held > budget {
			t.Fatalf("after %d calls the detector holds %d bytes, over its budget of %d", calls, held, budget)
		}
	})
	t.Logf("held %d bytes with a budget of %d, %d without", d.MemoryHeld(), budget, unbounded.MemoryHeld())
}

// A loop in the namespace that holds the most is still counted as often as it ran while its
// namespace is compacted under it call after call, down to the shared floor alone.
func TestLoopDetectorCountsALoopThroughCompaction(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	d := NewLoopDetector(clk, 50)
	d.budget = 40 * loopEntryBytes // about forty calls of a stamp or two: compacted all the time
	loop := NewCallKey("ns/plan", shCall("curl https://example.com/poll"))
	for run := 1; run <= 1100; run++ {
		if n := d.Observe(loop, time.Hour); n < min(run, loopStamps) {
			t.Fatalf("run %d of the loop is counted %d", run, n)
		}
		for j := range 5 {
			d.Observe(NewCallKey("ns/plan", shCall("cat f"+strconv.Itoa(run*5+j))), time.Hour)
		}
		clk.Step(time.Millisecond)
	}
	if held, walked := d.MemoryHeld(), heldByWalk(d); held != walked {
		t.Fatalf("the detector says it holds %d bytes; it holds %d", held, walked)
	}
}

// Namespaces past the detector's bound, observed from many goroutines at once: a call that
// finds its namespace just as the detector forgets it counts in the namespace's new memory, and
// the bytes the forgotten one held are no longer counted (run with -race).
func TestLoopDetectorAccountsForgottenNamespaces(t *testing.T) {
	d := NewLoopDetector(nil, 0)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 3 * maxLoopPartitions {
				ns := strconv.Itoa((i*7 + g*(maxLoopPartitions/2)) % (2 * maxLoopPartitions))
				d.Observe(NewCallKey(ns+"/plan", shCall("make test")), time.Minute)
			}
		})
	}
	wg.Wait()
	if held, walked := d.MemoryHeld(), heldByWalk(d); held != walked {
		t.Fatalf("the detector says it holds %d bytes; its %d namespaces hold %d", held, d.order.Len(), walked)
	}
}

// droppingClock runs drop, once, the next time the detector reads it: between a call's finding
// its namespace and taking the namespace's lock.
type droppingClock struct {
	fakeClock
	drop func()
}

func (c *droppingClock) Now() time.Time {
	if f := c.drop; f != nil {
		c.drop = nil
		f()
	}
	return c.fakeClock.Now()
}

// A call whose namespace the detector forgets between finding it and counting in it (other
// namespaces' calls push it out) counts in the namespace's new memory, and the forgotten memory is
// no longer counted as held.
func TestLoopDetectorCountsInANamespaceForgottenUnderIt(t *testing.T) {
	clk := &droppingClock{fakeClock: fakeClock{t: time.Unix(0, 0)}}
	d := NewLoopDetector(clk, 0)
	k := NewCallKey("a/plan", shCall("make test"))
	d.Observe(k, time.Minute)
	clk.drop = func() {
		for i := range maxLoopPartitions {
			d.Observe(NewCallKey("o"+strconv.Itoa(i)+"/plan", shCall("make test")), time.Minute)
		}
	}
	d.Observe(k, time.Minute)
	if clk.drop != nil {
		t.Fatal("the detector did not read the clock")
	}
	if n := d.Observe(k, time.Minute); n != 2 {
		t.Fatalf("the call is counted %d in its namespace's new memory, not 2", n)
	}
	if held, walked := d.MemoryHeld(), heldByWalk(d); held != walked {
		t.Fatalf("the detector says it holds %d bytes; it holds %d", held, walked)
	}
}

func TestLoopDetectorMemoryBudgetHasAFloor(t *testing.T) {
	d := NewLoopDetector(nil, 0)
	if d.budget != DefaultLoopMemoryBytes {
		t.Fatalf("a new detector's budget is %d, not the default %d", d.budget, DefaultLoopMemoryBytes)
	}
	d.SetMemoryBudget(10)
	if d.budget != MinLoopMemoryBytes {
		t.Fatalf("a budget of 10 bytes is %d, not the least one, %d", d.budget, MinLoopMemoryBytes)
	}
}

// What the detector says it holds is what the heap holds for it, after namespaces are compacted
// and while a full one evicts call after call: a Go map never shrinks, and deletes then inserts
// grow it (their tombstones), so the map of a namespace compacted from 2,000 calls kept its size
// (100 namespaces held 21 MiB of heap under a budget of 2 MiB, 1,024 of them 239 MiB under the
// default 32 MiB), and one evicting expired calls for 200,000 new ones held 1.4 times its count.
func TestLoopDetectorHeapIsWhatItCounts(t *testing.T) {
	const budget = 2 << 20
	d := NewLoopDetector(&fakeClock{t: time.Unix(0, 0)}, 0)
	d.budget = budget
	keys := make([]CallKey, DefaultLoopKeys)
	heap := heapDelta(func() {
		for ns := range 100 {
			for i := range keys {
				keys[i] = NewCallKey("ns"+strconv.Itoa(ns)+"/plan", shCall("cat f"+strconv.Itoa(i)))
			}
			for _, k := range keys {
				d.Observe(k, time.Minute)
			}
		}
	})
	if heap > budget*5/4 {
		t.Errorf("100 namespaces compacted hold %d bytes of heap under a budget of %d; the detector counts %d",
			heap, budget, d.MemoryHeld())
	}
	runtime.KeepAlive(d)

	clk := &fakeClock{t: time.Unix(0, 0)}
	d = NewLoopDetector(clk, 0)
	heap = heapDelta(func() {
		for i := range 100 * DefaultLoopKeys {
			d.Observe(NewCallKey("ns/plan", shCall("cat f"+strconv.Itoa(i))), time.Millisecond)
			clk.Step(time.Millisecond) // each call evicts one that has left its window
		}
	})
	if held := d.MemoryHeld(); heap > held*5/4 {
		t.Errorf("a namespace evicting 200,000 calls holds %d bytes of heap; the detector counts %d", heap, held)
	}
	runtime.KeepAlive(d)
}

// What no compaction can give back is the shared floors: a namespace's forgotten calls' stamps,
// kept for the longest window (24 h) whatever window counted them, up to 1,024 of them (8 KiB) in
// each of the 1,024 namespaces. Under a budget whose three quarters they filled, every call over
// it paid for compactions that could give back little, of the namespaces holding the most, whose
// new calls then started from their forgotten ones: agents sending a call 1,024
// times (refused for free) in each of the other namespaces under the least budget (1 MiB, now 16)
// held 8 MiB, every call past it compacting (the same calls took 4 times as long), and the first
// run of a call in an innocent namespace of 40 calls (so the largest) was counted 2: its
// namespace had been forgotten into its shared floor.
func TestLoopDetectorLeastBudgetHoldsEveryNamespacesSharedFloor(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	d := NewLoopDetector(clk, 0)
	d.SetMemoryBudget(0) // the least
	for ns := range maxLoopPartitions - 1 {
		k := NewCallKey("attacker"+strconv.Itoa(ns)+"/plan", shCall("make test"))
		for range loopStamps {
			d.Observe(k, time.Minute)
		}
	}
	for i := range 40 {
		d.Observe(NewCallKey("innocent/plan", shCall("ls d"+strconv.Itoa(i))), time.Hour)
	}
	for range 6 {
		clk.Step(time.Second)
		d.Observe(NewCallKey("innocent/plan", shCall("cat f")), time.Minute)
	}
	if n := d.Observe(NewCallKey("innocent/plan", shCall("cat g")), time.Minute); n != 1 {
		t.Fatalf("the innocent namespace's first run of a call is counted %d", n)
	}
	if held := d.MemoryHeld(); held > d.budget {
		t.Fatalf("the detector holds %d bytes, over its least budget of %d", held, d.budget)
	}
}
