package safety

import (
	"container/list"
	"maps"
	"slices"
	"time"
)

// The loop detector's memory over every namespace. Each namespace's is bounded (maxKeys calls,
// 1,024 stamps each, floors holding as many again), but a namespace keeps what it holds until the
// detector forgets it, and agents flooding distinct calls in a handful of namespaces could hold
// tens of MB each: enough, together, to push the manager past its container's memory limit, where
// every call in the cluster is refused while the webhook restarts. So the detector counts the
// bytes its calls and stamps hold, and when they pass its budget it gives memory back from the
// largest namespace first (compact): what no window counts any more, then the floors merged into
// one, then, least recently seen first, calls whose live stamps raise that one floor. The last two
// over-count that namespace's new calls, never under-count any call: a namespace that holds the
// most pays for the budget, in the currency the rest of the detector pays in.

const (
	// DefaultLoopMemoryBytes is the default budget: the stamps of 4 million calls within their
	// windows. A namespace at its own bounds holds up to about 33 MB (DefaultLoopKeys calls of
	// 1,024 stamps and floors as large); the manager's container limit is 192 MiB.
	DefaultLoopMemoryBytes = 32 << 20
	// MinLoopMemoryBytes is the smallest budget (16 MiB): twice what no compaction gives back, the
	// shared floors of every namespace (up to loopStamps stamps each, for the longest window). With
	// less, those floors could fill the three quarters reclaim brings the total down to, and every
	// call over the budget would compact every namespace down to its shared floor, over-counting
	// all of their new calls.
	MinLoopMemoryBytes = 2 * maxLoopPartitions * loopStamps * stampSize
	// loopEntryBytes is what a remembered call holds besides its stamps: its entry, its list
	// element and its share of the namespace's map: BenchmarkLoopMemory measured 243 on the heap
	// (251 with a stamp), and this errs above it.
	loopEntryBytes = 248
	// floorHeaderBytes is one floor's slice header, made for every floor at once (raise).
	floorHeaderBytes = 24
	// stampSize is the bytes of one stamp.
	stampSize = 8
)

// SetMemoryBudget sets how many bytes all namespaces' calls and stamps may hold, at least
// MinLoopMemoryBytes; NewLoopDetector sets DefaultLoopMemoryBytes. Set it before the detector
// is used.
func (d *LoopDetector) SetMemoryBudget(bytes int64) {
	d.budget = max(bytes, MinLoopMemoryBytes)
}

// MemoryHeld is how many bytes the calls and stamps of every namespace hold.
func (d *LoopDetector) MemoryHeld() int64 { return d.held.Load() }

// now is the time since the detector was made (LoopDetector.start says why).
func (d *LoopDetector) now() time.Duration { return d.clock.Now().Sub(d.start) }

func stampBytes(stamps []int64) int64 { return int64(cap(stamps)) * stampSize }

// countedSince is the oldest stamp some window ending at now may still count (the longest a
// policy may set, maxLoopWindow): floors keep nothing older.
func countedSince(now int64) int64 { return now - int64(maxLoopWindow) + 1 }

// store sets *slot, one of the partition's stamps slices, to stamps, counting the change in the
// room they hold. Under lp.mu.
func (lp *loopPartition) store(d *LoopDetector, slot *[]int64, stamps []int64) {
	lp.account(d, stampBytes(stamps)-stampBytes(*slot))
	*slot = stamps
}

// account adds delta bytes to what the partition and the detector hold. Under lp.mu.
func (lp *loopPartition) account(d *LoopDetector, delta int64) {
	if delta != 0 {
		lp.held.Add(delta)
		d.held.Add(delta)
	}
}

// raiseShared makes the shared floor, which every call of the namespace starts from, cover
// stamps too. Under lp.mu.
func (lp *loopPartition) raiseShared(d *LoopDetector, stamps []int64, now int64) {
	lp.store(d, &lp.shared, raised(lp.shared, stamps, countedSince(now)))
}

// forget removes a remembered call. Its live stamps must be covered already (compact). Under lp.mu.
func (lp *loopPartition) forget(d *LoopDetector, el *list.Element) {
	e := lp.order.Remove(el).(*loopEntry)
	delete(lp.entries, e.key)
	lp.account(d, -loopEntryBytes-stampBytes(e.stamps))
}

// drop forgets a whole namespace (the detector's order is full). Under d.mu.
func (d *LoopDetector) drop(el *list.Element) {
	lp := d.order.Remove(el).(*loopPartition)
	delete(d.parts, lp.part)
	lp.mu.Lock()
	lp.dropped = true
	d.held.Add(-lp.held.Load())
	lp.mu.Unlock()
}

// reclaim brings what the detector holds down to three quarters of its budget, compacting the
// largest namespace first; the margin keeps a namespace that keeps growing from compacting on
// each of its calls. One caller at a time: the others go on, a little over the budget for as long
// as it takes.
func (d *LoopDetector) reclaim() {
	if !d.reclaiming.TryLock() {
		return
	}
	defer d.reclaiming.Unlock()
	target := d.budget * 3 / 4
	for range maxLoopPartitions {
		need := d.held.Load() - target
		if need <= 0 {
			return
		}
		lp := d.largest()
		if lp == nil || lp.compact(d, need) == 0 {
			return
		}
	}
}

// largest is the namespace holding the most.
func (d *LoopDetector) largest() *loopPartition {
	d.mu.Lock()
	defer d.mu.Unlock()
	var most *loopPartition
	for el := d.order.Front(); el != nil; el = el.Next() {
		if lp := el.Value.(*loopPartition); most == nil || lp.held.Load() > most.held.Load() {
			most = lp
		}
	}
	return most
}

// compact gives back at least need bytes of the partition if it can and returns how many it
// gave, each step only when the ones before it gave too little:
//  1. what no window counts: calls with no stamp within their window (evict forgets those first
//     too), stamps that have left it, floors' stamps older than the longest window, and the room
//     slices have grown beyond their stamps — no count changes;
//  2. the floors merged into the shared one, rank for rank the newest — every call starts from at
//     least its own floor, as before;
//  3. calls forgotten, least recently seen first, their live stamps raising the shared floor —
//     every call forgotten starts from at least what it had.
func (lp *loopPartition) compact(d *LoopDetector, need int64) int64 {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	if lp.dropped {
		return 0
	}
	now := int64(d.now())
	start := lp.held.Load()
	gave := func() int64 { return start - lp.held.Load() }
	lp.trimExpired(d, now)
	if gave() < need && lp.floors != nil {
		for _, f := range lp.floors {
			lp.raiseShared(d, f, now)
			lp.account(d, -stampBytes(f))
		}
		lp.account(d, -int64(len(lp.floors))*floorHeaderBytes)
		lp.floors, lp.floorStamps = nil, 0
	}
	for el := lp.order.Back(); el != nil && gave() < need; {
		prev := el.Prev()
		e := el.Value.(*loopEntry)
		lp.raiseShared(d, e.stamps[e.firstLive(now):], now)
		lp.forget(d, el)
		if d.ForgotLive != nil {
			d.ForgotLive()
		}
		el = prev
	}
	lp.remap()
	return gave()
}

// remap makes the namespace's map anew once it has taken in more than twice the keys it holds: a
// Go map never shrinks, and deletes then inserts grow it further (their tombstones). Without it a
// namespace compacted from 2,000 calls to none kept ~200 KB of map that no byte count saw (1,024
// such namespaces: 200 MiB beyond the budget), and one evicting call after call grew its map to
// 4 times its size. Amortised, a key copied per key taken in. Under lp.mu.
func (lp *loopPartition) remap() {
	if lp.inserted <= 2*len(lp.entries)+16 {
		return
	}
	m := make(map[CallKey]*list.Element, len(lp.entries)) // not maps.Clone: it keeps the old map's size
	maps.Copy(m, lp.entries)
	lp.entries, lp.inserted = m, len(m)
}

// trimExpired gives back what no window counts any more (compact's first step). Under lp.mu.
func (lp *loopPartition) trimExpired(d *LoopDetector, now int64) {
	for el := lp.order.Back(); el != nil; {
		prev := el.Prev()
		e := el.Value.(*loopEntry)
		if first := e.firstLive(now); first == len(e.stamps) {
			lp.forget(d, el)
		} else {
			lp.store(d, &e.stamps, tight(e.stamps, first))
		}
		el = prev
	}
	since := countedSince(now)
	for i, f := range lp.floors {
		lp.store(d, &lp.floors[i], clipped(f, since))
		lp.floorStamps += len(lp.floors[i]) - len(f)
	}
	lp.store(d, &lp.shared, clipped(lp.shared, since))
}

// clipped is stamps (oldest first) without those older than since, as tight keeps them.
func clipped(stamps []int64, since int64) []int64 {
	first, _ := slices.BinarySearch(stamps, since)
	return tight(stamps, first)
}

// tight is stamps[first:] holding no more room than it needs: stamps itself when it already
// does, else a copy; nil when nothing is left.
func tight(stamps []int64, first int) []int64 {
	switch {
	case first == len(stamps):
		return nil
	case first == 0 && cap(stamps) == len(stamps):
		return stamps
	}
	return slices.Clone(stamps[first:])
}
