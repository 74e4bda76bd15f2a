package safety

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// loopWindows are the windows the random tests give their calls: from a millisecond to a day.
var loopWindows = []time.Duration{time.Millisecond, time.Second, 5 * time.Second, time.Minute, time.Hour, 24 * time.Hour}

// randomDetector is a detector on a fake clock remembering from one to keys calls per namespace,
// with the floors' budget spent at once in odd seeds (the shared floor from the first few
// forgotten calls on).
func randomDetector(seed uint64, rng *rand.Rand, keys int) (*fakeClock, *LoopDetector) {
	clk := &fakeClock{t: time.Unix(1_000_000, 0)}
	d := NewLoopDetector(clk, 1+rng.IntN(keys))
	if seed%2 == 1 {
		d.floorBudget = rng.IntN(8)
	}
	return clk, d
}

// The agent chooses the calls, their order and their timing: whatever it does, a call's count is
// never lower than the times it really ran within its window (up to the 1024 stamps a call
// keeps). Random sequences against an exact count kept beside the detector: memories of one to
// six calls, half of them with the floors' budget spent at once (the shared floor), a third
// with a memory budget so small the namespaces are compacted on almost every call, one or two
// namespaces, a window per call from a millisecond to a day, bursts at one
// instant, long gaps, and a clock that jumps both ways by up to 30 hours (a fake clock's steps are
// the wall clock's; what ran within the window of the latest time it told still counts).
func TestLoopDetectorNeverCountsLow(t *testing.T) {
	seeds := uint64(3000)
	if raceEnabled {
		seeds = 600
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(seed, 7))
		clk, d := randomDetector(seed, rng, 6)
		if seed%3 == 2 {
			d.budget = int64(rng.IntN(6 * loopEntryBytes)) // compacted all the time (loop_memory.go)
		}
		namespaces := 1 + rng.IntN(2)
		calls := namespaces * (2 + rng.IntN(30))
		keys := make([]CallKey, calls)
		window := make([]time.Duration, calls)
		for i := range keys {
			keys[i] = NewCallKey("ns"+strconv.Itoa(i%namespaces)+"/plan", shCall("echo "+strconv.Itoa(i)))
			window[i] = loopWindows[rng.IntN(len(loopWindows))]
		}
		ran := make([][]time.Time, calls)
		var latest time.Time
		for range 600 {
			clk.Step(randomStep(rng))
			i, repeats := rng.IntN(calls), 1
			if rng.IntN(10) == 0 {
				repeats = 1 + rng.IntN(20)
			}
			for range repeats {
				if clk.Now().After(latest) {
					latest = clk.Now()
				}
				ran[i] = append(ran[i], clk.Now())
				want := 0
				for _, at := range ran[i] {
					if latest.Sub(at) < window[i] {
						want++
					}
				}
				if got := d.Observe(keys[i], window[i]); got < min(want, loopStamps) {
					t.Fatalf("seed %d: call %d ran %d times within %s and is counted %d", seed, i, want, window[i], got)
				}
				if seed%3 == 2 { // after each call where it compacts; a walk per call elsewhere would take minutes
					checkHeld(t, seed, d)
				}
			}
		}
		checkHeld(t, seed, d)
	}
}

// checkHeld fails the test when the bytes the detector says it holds are not what it holds.
func checkHeld(t *testing.T, seed uint64, d *LoopDetector) {
	t.Helper()
	if held, walked := d.MemoryHeld(), heldByWalk(d); held != walked {
		t.Fatalf("seed %d: the detector says it holds %d bytes; it holds %d", seed, held, walked)
	}
}

// randomStep is how far the clock moves between two observations: often not at all (calls at
// one instant), mostly up to 1.5 s, sometimes minutes or hours, now and then backwards.
func randomStep(rng *rand.Rand) time.Duration {
	switch r := rng.IntN(100); {
	case r < 30:
		return 0
	case r < 80:
		return time.Duration(rng.IntN(1500)) * time.Millisecond
	case r < 90:
		return time.Duration(rng.IntN(120)) * time.Second
	case r < 95:
		return -time.Duration(rng.IntN(5000)) * time.Millisecond
	case r < 98:
		return time.Duration(rng.IntN(30)) * time.Hour
	default:
		return -time.Duration(rng.IntN(30)) * time.Hour
	}
}

// A loop forgotten every round and learned again from the floor is still counted as often as it
// ran, up to the 1024 stamps a call keeps: the floor keeps as many.
func TestLoopDetectorCountsASaturatedLoopThroughTheFloor(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	d := NewLoopDetector(clk, 3)
	loop := NewCallKey("ns/plan", shCall("curl https://example.com/poll"))
	fillers := make([]CallKey, 8)
	for i := range fillers {
		fillers[i] = NewCallKey("ns/plan", shCall("cat src/f"+strconv.Itoa(i)+".go"))
	}
	for run := 1; run <= 1100; run++ {
		if n := d.Observe(loop, time.Hour); n < min(run, loopStamps) {
			t.Fatalf("run %d of the loop is counted %d", run, n)
		}
		for j := range 4 { // enough to forget the loop
			d.Observe(fillers[(run+j)%len(fillers)], time.Second)
		}
		clk.Step(time.Millisecond)
	}
}

// The attack a new call inheriting only its victim's stamps allowed: fillers seen twice, one
// leaving its window each second, the rest of memory full of live calls; then each second the
// loop runs, taking the place of the filler that has just expired (inheriting nothing), and one
// new call refused for free evicts it (the only call seen once), carrying its stamp away. With the
// production defaults the loop ran every second, counted 1 each time.
func TestLoopDetectorCountsALoopHiddenInExpiringSlots(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	const window, step, runs = time.Minute, time.Second, 20
	d := NewLoopDetector(clk, 0)
	key := func(s string) CallKey { return NewCallKey("ns/plan", shCall("cat "+s)) }
	for r := range runs {
		d.Observe(key("f"+strconv.Itoa(r)), window)
		d.Observe(key("f"+strconv.Itoa(r)), window)
		clk.Step(step)
	}
	for j := range DefaultLoopKeys - runs {
		d.Observe(key("p"+strconv.Itoa(j)), window)
		d.Observe(key("p"+strconv.Itoa(j)), window)
	}
	clk.t = time.Unix(0, 0).Add(window) // the first filler has just left its window
	loop := NewCallKey("ns/plan", shCall("curl https://example.com/poll"))
	for r := range runs {
		if n := d.Observe(loop, window); n < r+1 {
			t.Fatalf("run %d of the loop within %s is counted %d", r+1, time.Duration(r)*step, n)
		}
		d.Observe(key("x"+strconv.Itoa(r)), window)
		clk.Step(step)
	}
}

// A call observed with a long window, forgotten by calls with a short one, keeps its long
// history: the floor holds stamps as long as any window may count them.
func TestLoopDetectorKeepsALongWindowAcrossShortOnes(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	d := NewLoopDetector(clk, 4)
	slow := NewCallKey("ns/nightly", shCall("curl https://example.com/report"))
	for run := 1; run <= 12; run++ {
		if n := d.Observe(slow, time.Hour); n < run {
			t.Fatalf("run %d of an hourly-window call is counted %d", run, n)
		}
		for i := range 4 {
			d.Observe(NewCallKey("ns/plan", shCall("cat src/f"+strconv.Itoa(run*4+i)+".go")), time.Minute)
		}
		clk.Step(2 * time.Minute)
	}
}

// The same from several agents at once, each with its own calls, in shared namespaces compacted
// all the time, while the clock moves on (forwards only, as the monotonic clock does): a call is
// counted at least as often as it ran within its window ending when its count came back, and the
// bytes the detector says it holds are what it holds once they are done (run with -race).
func TestLoopDetectorNeverCountsLowConcurrently(t *testing.T) {
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 9))
		clk, d := randomDetector(seed, rng, 8)
		d.budget = int64(rng.IntN(40 * loopEntryBytes))
		namespaces := 1 + rng.IntN(4)
		done := make(chan struct{})
		var ticker, agents sync.WaitGroup
		ticker.Go(func() {
			for r := rand.New(rand.NewPCG(seed, 1)); ; {
				select {
				case <-done:
					return
				default:
					clk.Step(time.Duration(r.IntN(300)) * time.Millisecond)
					runtime.Gosched()
				}
			}
		})
		errs := make(chan string, 4)
		for g := range 4 {
			agents.Go(func() {
				r := rand.New(rand.NewPCG(seed, uint64(g)+100))
				calls := 2 + r.IntN(12)
				keys, window := make([]CallKey, calls), make([]time.Duration, calls)
				for i := range keys {
					keys[i] = NewCallKey("ns"+strconv.Itoa(r.IntN(namespaces))+"/agent"+strconv.Itoa(g), shCall("echo "+strconv.Itoa(i)))
					window[i] = loopWindows[r.IntN(len(loopWindows))]
				}
				ran := make([][]time.Time, calls)
				for range 1500 {
					i := r.IntN(calls)
					ran[i] = append(ran[i], clk.Now())
					got := d.Observe(keys[i], window[i])
					want, after := 0, clk.Now()
					for _, at := range ran[i] {
						if after.Sub(at) < window[i] {
							want++
						}
					}
					if got < min(want, loopStamps) {
						errs <- fmt.Sprintf("seed %d: agent %d's call %d ran %d times within %s and is counted %d", seed, g, i, want, window[i], got)
						return
					}
				}
			})
		}
		agents.Wait()
		close(done)
		ticker.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		checkHeld(t, seed, d)
	}
}
