package safety

import (
	"strconv"
	"testing"
	"time"
)

// BenchmarkLoopObserveFlood is the detector under a flood of distinct calls in one namespace: the
// partition full (DefaultLoopKeys calls, each seen once within the window), so each new call
// scans it for the call to forget (loopPartition.evict), while holding the detector's lock.
func BenchmarkLoopObserveFlood(b *testing.B) {
	d := NewLoopDetector(RealClock{}, 0)
	keys := make([]CallKey, 4*DefaultLoopKeys)
	for i := range keys {
		keys[i] = NewCallKey("ns/plan", shCall("cat src/f"+strconv.Itoa(i)+".go"))
	}
	for _, k := range keys[:DefaultLoopKeys] {
		d.Observe(k, time.Minute)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		d.Observe(keys[i%len(keys)], time.Minute)
		i++
	}
}
