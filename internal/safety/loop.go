package safety

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
)

// Clock tells the time. It is injected so loop detection is testable; the engine never reads the
// wall clock itself.
type Clock interface {
	Now() time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// CallKey identifies "the same call" for loop detection: a sha256 over a scope (e.g. the plan's
// UID), the tool name and canonical arguments. Fixed size, so a detector's memory is bounded by
// its key count whatever the agent sends.
type CallKey [sha256.Size]byte

// NewCallKey returns the key of a call within a scope. Arguments are canonicalised so cosmetic
// variations are still the same call: runs of whitespace in the command collapse, paths and the
// working directory are cleaned, and the order of paths does not matter.
func NewCallKey(scope string, c Call) CallKey {
	h := sha256.New()
	field := func(s string) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	field(scope)
	field(c.Tool.Name)
	folded, aerr := foldCommand(c.Args.Command)
	if aerr != nil {
		folded = c.Args.Command
	}
	field(strings.Join(strings.Fields(folded), " "))
	field(cleanOrEmpty(c.Args.Cwd))
	paths := make([]string, 0, len(c.Args.Paths))
	for _, p := range c.Args.Paths {
		paths = append(paths, cleanOrEmpty(foldPath(p)))
	}
	slices.Sort(paths)
	for _, p := range paths {
		field(p)
	}
	var k CallKey
	h.Sum(k[:0])
	return k
}

func cleanOrEmpty(p string) string {
	if p == "" {
		return ""
	}
	return path.Clean(p)
}

// Bounds of a LoopDetector.
const (
	// DefaultLoopKeys is the number of distinct calls a detector remembers by default.
	DefaultLoopKeys = 10000
	// loopStamps is how many timestamps a detector keeps per call: counts saturate there, above
	// the largest MaxRepeats a policy may set (1000).
	loopStamps = 1024
)

// LoopDetector counts identical calls within a sliding window. It is safe for concurrent use and
// its memory is bounded: at most maxKeys calls, the least recently seen evicted first, each with
// at most a fixed number of timestamps.
type LoopDetector struct {
	mu      sync.Mutex
	clock   Clock
	maxKeys int
	order   *list.List // of *loopEntry, most recently seen first
	entries map[CallKey]*list.Element
}

type loopEntry struct {
	key    CallKey
	stamps []int64 // unix nanoseconds, oldest first
}

// NewLoopDetector returns a detector reading time from clock and remembering at most maxKeys
// distinct calls (DefaultLoopKeys when maxKeys <= 0). A nil clock means RealClock.
func NewLoopDetector(clock Clock, maxKeys int) *LoopDetector {
	if clock == nil {
		clock = RealClock{}
	}
	if maxKeys <= 0 {
		maxKeys = DefaultLoopKeys
	}
	return &LoopDetector{clock: clock, maxKeys: maxKeys, order: list.New(), entries: map[CallKey]*list.Element{}}
}

// Observe records one occurrence of the call and returns how many occurrences fall within the
// window ending now, this one included. The webhook stores the count in Context.Repeats before
// calling Evaluate. A non-positive window counts only this occurrence.
func (d *LoopDetector) Observe(key CallKey, window time.Duration) int {
	now := d.clock.Now().UnixNano()
	d.mu.Lock()
	defer d.mu.Unlock()
	var e *loopEntry
	if el, ok := d.entries[key]; ok {
		d.order.MoveToFront(el)
		e = el.Value.(*loopEntry)
	} else {
		if d.order.Len() >= d.maxKeys {
			oldest := d.order.Back()
			d.order.Remove(oldest)
			delete(d.entries, oldest.Value.(*loopEntry).key)
		}
		e = &loopEntry{key: key}
		d.entries[key] = d.order.PushFront(e)
	}
	// Drop timestamps outside the window; a clock that went backwards keeps them (conservative).
	cut := 0
	for cut < len(e.stamps) && now-e.stamps[cut] >= int64(window) {
		cut++
	}
	e.stamps = append(e.stamps[:0], e.stamps[cut:]...)
	if len(e.stamps) >= loopStamps {
		e.stamps = append(e.stamps[:0], e.stamps[1:]...)
	}
	e.stamps = append(e.stamps, now)
	return len(e.stamps)
}

// Len returns the number of distinct calls remembered.
func (d *LoopDetector) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.order.Len()
}
