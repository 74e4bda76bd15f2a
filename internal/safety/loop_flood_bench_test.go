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
	d, keys := floodedDetector("ns/plan")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		d.Observe(keys[i%len(keys)], time.Minute)
		i++
	}
}

// BenchmarkLoopObserveBesideAFlood is one namespace's repeated call while another namespace
// floods the detector with distinct calls (BenchmarkLoopObserveFlood's case, in a goroutine of
// its own): what one tenant's flood costs another's calls.
func BenchmarkLoopObserveBesideAFlood(b *testing.B) {
	d, keys := floodedDetector("flood/plan")
	stop := make(chan struct{})
	flooded := make(chan struct{})
	go func() {
		defer close(flooded)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
				d.Observe(keys[i%len(keys)], time.Minute)
			}
		}
	}()
	mine := NewCallKey("quiet/plan", shCall("go test ./..."))
	b.ReportAllocs()
	for b.Loop() {
		d.Observe(mine, time.Minute)
	}
	close(stop)
	<-flooded
}

// floodedDetector is a detector whose namespace of scope is full of calls seen once within the
// minute, and the keys of four times as many distinct calls in that scope, the first of them
// those remembered.
func floodedDetector(scope string) (*LoopDetector, []CallKey) {
	d := NewLoopDetector(RealClock{}, 0)
	keys := make([]CallKey, 4*DefaultLoopKeys)
	for i := range keys {
		keys[i] = NewCallKey(scope, shCall("cat src/f"+strconv.Itoa(i)+".go"))
	}
	for _, k := range keys[:DefaultLoopKeys] {
		d.Observe(k, time.Minute)
	}
	return d, keys
}
