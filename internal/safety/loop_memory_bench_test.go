package safety

import (
	"runtime"
	"strconv"
	"testing"
	"time"
)

// BenchmarkLoopMemory is what the detector holds on the heap, measured by the runtime, against
// what it says it holds (MemoryHeld, which the budget is kept by):
//   - calls: 200,000 distinct calls seen once, in 100 namespaces (2,000 each, every namespace
//     full): the heap bytes a remembered call costs, for loopEntryBytes;
//   - flood: agents in 12 namespaces each sending distinct calls 300 times over, past their
//     namespace's memory, for an hour of fake time: without the budget, with the default one.
//
// go test ./internal/safety -run XXX -bench LoopMemory -benchtime 1x
func BenchmarkLoopMemory(b *testing.B) {
	b.Run("calls", func(b *testing.B) {
		for b.Loop() {
			d := NewLoopDetector(&fakeClock{t: time.Unix(0, 0)}, 0)
			d.budget = 1 << 62 // all of them remembered
			keys := make([]CallKey, 100*DefaultLoopKeys)
			for i := range keys {
				keys[i] = NewCallKey("ns"+strconv.Itoa(i%100)+"/plan", shCall("cat f"+strconv.Itoa(i)))
			}
			heap := heapDelta(func() {
				for _, k := range keys {
					d.Observe(k, time.Minute)
				}
			})
			b.ReportMetric(float64(heap)/float64(len(keys)), "heap-B/call")
			b.ReportMetric(float64(d.MemoryHeld())/float64(len(keys)), "held-B/call")
			runtime.KeepAlive(d)
		}
	})
	for _, budget := range []int64{1 << 62, DefaultLoopMemoryBytes} {
		name := "flood-unbounded"
		if budget == DefaultLoopMemoryBytes {
			name = "flood-default-budget"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				clk := &fakeClock{t: time.Unix(0, 0)}
				d := NewLoopDetector(clk, 0)
				d.budget = budget
				heap := heapDelta(func() {
					for c := range 3 * DefaultLoopKeys {
						for ns := range 12 {
							k := NewCallKey("ns"+strconv.Itoa(ns)+"/plan", shCall("cat f"+strconv.Itoa(c)))
							for range 300 {
								d.Observe(k, time.Minute)
							}
						}
						clk.Step(time.Second)
					}
				})
				b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
				b.ReportMetric(float64(d.MemoryHeld())/(1<<20), "held-MiB")
				runtime.KeepAlive(d)
			}
		})
	}
}

// heapDelta is how many more bytes the heap holds, after a collection, once fill has run.
func heapDelta(fill func()) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fill()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

// BenchmarkLoopCompact is how long the largest namespace is held, under its lock, while the
// detector gives its memory back: one namespace past its memory (distinct calls sent 300 times
// each, so its floors are full too) compacted down to its shared floor, all three of compact's
// steps.
//
// go test ./internal/safety -run XXX -bench LoopCompact -benchtime 5x
func BenchmarkLoopCompact(b *testing.B) {
	for range b.N {
		b.StopTimer()
		clk := &fakeClock{t: time.Unix(0, 0)}
		d := NewLoopDetector(clk, 0)
		d.budget = 1 << 62
		for c := range 3 * DefaultLoopKeys {
			k := NewCallKey("ns/plan", shCall("cat f"+strconv.Itoa(c)))
			for range 300 {
				d.Observe(k, time.Minute)
			}
			clk.Step(10 * time.Millisecond)
		}
		held := d.MemoryHeld()
		d.budget = 1 << 20 // below the least a manager may set: the namespace down to its shared floor
		b.StartTimer()
		d.reclaim()
		b.StopTimer()
		b.ReportMetric(float64(held)/(1<<20), "before-MiB")
		b.ReportMetric(float64(d.MemoryHeld())/(1<<20), "after-MiB")
	}
}
