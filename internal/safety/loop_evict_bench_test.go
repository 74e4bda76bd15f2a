package safety

import (
	"strconv"
	"testing"
	"time"
)

// BenchmarkLoopEvictWorstCase is one eviction in the costliest namespace an agent could build:
// full, every call holding 1024 live stamps that the floor matches at every rank but the oldest,
// so comparing a call with the floor reads all its stamps and never finds it covered. The
// comparisons stop at coverBudget; the binary search of each call's live stamps remains.
func BenchmarkLoopEvictWorstCase(b *testing.B) {
	clk := &fakeClock{t: time.Unix(100_000, 0)}
	d := NewLoopDetector(clk, 0)
	now := int64(time.Hour)
	lp := d.partition(0)
	for i := range DefaultLoopKeys {
		e := &loopEntry{key: NewCallKey("ns/plan", shCall("cat src/f"+strconv.Itoa(i)+".go")), window: int64(24 * time.Hour)}
		for j := range loopStamps {
			e.stamps = append(e.stamps, now-int64(loopStamps-j)*int64(time.Millisecond)-int64(i))
		}
		lp.entries[e.key] = lp.order.PushFront(e)
	}
	floor := make([]int64, loopStamps)
	for j := range floor {
		floor[j] = now - int64(loopStamps-j)*int64(time.Millisecond)
	}
	floor[0] = 0                                    // older than every call's oldest stamp: no call is covered
	lp.floors, d.floorCount = make([][]int64, 1), 1 // every call's floor is this one (their floor index is 0)
	b.ReportAllocs()
	for b.Loop() {
		lp.floors[0] = append(lp.floors[0][:0], floor...)
		el := lp.evict(now, d)
		lp.entries[el.Value.(*loopEntry).key] = el
	}
}
