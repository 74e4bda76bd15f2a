package safety

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// The agent chooses the calls, their order and their timing: whatever it does, a call's count is
// never lower than the times it really ran within its window. Random sequences over small
// memories, with windows mixed in one namespace, against an exact count kept beside the detector;
// now and then the clock goes back (a replica's time corrected), and what ran within the window
// of the latest time the clock told still counts.
func TestLoopDetectorNeverCountsLow(t *testing.T) {
	windows := []time.Duration{time.Second, 5 * time.Second, time.Minute}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 1))
		clk := &fakeClock{t: time.Unix(0, 0)}
		d := NewLoopDetector(clk, 1+rng.IntN(8))
		keys := 2 + rng.IntN(20)
		ran := make([][]time.Time, keys)
		var latest int64 // the clock's latest time: what left the window then may be forgotten
		for range 400 {
			step := time.Duration(rng.IntN(1500)) * time.Millisecond
			if rng.IntN(20) == 0 {
				step = -3 * step
			}
			clk.Step(step)
			i := rng.IntN(keys)
			window := windows[i%len(windows)]
			ran[i] = append(ran[i], clk.Now())
			want := 0
			latest = max(latest, clk.Now().UnixNano())
			for _, at := range ran[i] {
				if latest-at.UnixNano() < int64(window) {
					want++
				}
			}
			if got := d.Observe(NewCallKey("ns/plan", shCall("echo "+strconv.Itoa(i))), window); got < want {
				t.Fatalf("seed %d: call %d ran %d times within %s and is counted %d", seed, i, want, window, got)
			}
		}
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
