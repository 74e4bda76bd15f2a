package safety

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"hash/maphash"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mvdan.cc/sh/v3/syntax"
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
// "namespace/name"), the tool name and canonical arguments, and the partition the call counts in
// (the scope before its first "/", the namespace). Fixed size, so a detector's memory is bounded by
// its key count whatever the agent sends.
type CallKey struct {
	part uint64
	sum  [sha256.Size]byte
}

// NewCallKey returns the key of a call within a scope. Arguments are canonicalised by meaning, so
// spelling variations are the same call: the command is keyed on its parsed, normalised commands
// (quoting, escapes, whitespace and trailing separators do not matter: curl URL, curl 'URL' and
// curl URL; are one call), paths and the working directory are cleaned, and the order of paths
// does not matter. A command the engine cannot parse is keyed on its text with whitespace
// collapsed.
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
	commandFields(c.Args.Command, field)
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
	h.Sum(k.sum[:0])
	ns, _, _ := strings.Cut(scope, "/")
	nsSum := sha256.Sum256([]byte(ns))
	k.part = binary.BigEndian.Uint64(nsSum[:8])
	return k
}

// commandFields feeds the canonical form of a command to field: in source order, each simple
// command's words after quote removal, each redirection's operator and target, each control
// operator between commands; or the folded text when it cannot be parsed. It only parses, so a
// key costs a fraction of an evaluation.
func commandFields(cmd string, field func(string)) {
	if cmd == "" {
		field("")
		return
	}
	folded, ferr := foldCommand(cmd)
	if ferr != nil {
		folded = cmd
	}
	p := parserPool.Get().(*syntax.Parser)
	defer parserPool.Put(p)
	f, err := p.Parse(strings.NewReader(folded), "")
	if err != nil || ferr != nil {
		field("text")
		field(strings.Join(strings.Fields(folded), " "))
		return
	}
	field("parsed")
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			field(strconv.Itoa(len(n.Assigns)) + "/" + strconv.Itoa(len(n.Args)))
			for _, as := range n.Assigns {
				if as.Name != nil {
					field(as.Name.Value)
				}
				if as.Value != nil {
					field(renderWord(as.Value, nil).s)
				}
			}
			for _, w := range n.Args {
				field(renderWord(w, nil).s)
			}
		case *syntax.Redirect:
			field(n.Op.String())
			if n.Word != nil {
				field(renderWord(n.Word, nil).s)
			}
		case *syntax.BinaryCmd:
			field(n.Op.String())
		}
		return true
	})
}

func cleanOrEmpty(p string) string {
	if p == "" {
		return ""
	}
	return path.Clean(p)
}

// Bounds of a LoopDetector.
const (
	// DefaultLoopKeys is the number of distinct calls a detector remembers per namespace by
	// default.
	DefaultLoopKeys = 2000
	// MaxLoopKeys is the most distinct calls per namespace a detector may remember: the floors
	// (floorsPerKey per call) and the stamps they may hold grow with it.
	MaxLoopKeys = 1 << 20
	// maxLoopPartitions is the number of namespaces a detector remembers, the least recently seen
	// forgotten first: one tenant's calls never evict another's, only a namespace idle for longer
	// than the others can lose its history.
	maxLoopPartitions = 1024
	// loopStamps is how many timestamps a detector keeps per call: counts saturate there, above
	// the largest MaxRepeats a policy may set (1000).
	loopStamps = 1024
	// coverBudget is how many stamps one eviction compares with the floors at most.
	coverBudget = 4 * loopStamps
	// floorsPerKey is how many floors a namespace keeps per call it remembers, once it has
	// forgotten a live call: the more floors, the fewer forgotten calls each covers, and the later
	// a busy namespace's counts climb (evict).
	floorsPerKey = 8
)

// LoopDetector counts identical calls within a sliding window. It is safe for concurrent use and
// its memory is bounded: per namespace (the key's partition) at most maxKeys calls, each with at
// most a fixed number of timestamps, floors holding at most as many timestamps again (and one
// shared floor), and at most maxLoopPartitions namespaces; over every namespace, by its memory
// budget (loop_memory.go). A namespace full of live calls, or the largest one when the budget is
// spent, over-counts rather than forgets (loopPartition.evict, compact): counts err high, never
// low.
type LoopDetector struct {
	mu    sync.Mutex // guards order and parts; each partition has its own lock
	clock Clock
	// start is when the detector was made. Stamps are times since then, which Go measures on the
	// monotonic clock when both readings carry it (time.Now's do): a step of the wall clock (an NTP
	// correction) neither forgets live stamps nor holds old ones in the window.
	start time.Time
	// seed picks each call's floor. It is secret and made anew with each detector, so an agent
	// cannot choose calls that share a floor with another plan's.
	seed maphash.Seed
	// ForgotLive, when set before the detector is used, is called each time a namespace forgets a
	// call that still had stamps within its window, raising its floor (evict): the sign that the
	// namespace makes more distinct calls within the window than the detector remembers, and its
	// new calls start counting above zero. It runs under the namespace's lock.
	ForgotLive func()
	maxKeys    int
	// floorBudget is how many stamps a namespace's own floors may hold: as many as its calls may
	// (maxKeys x loopStamps). Past it, forgotten calls raise the shared floor.
	floorBudget int
	// floorCount is how many floors a namespace keeps: floorsPerKey per call it remembers.
	floorCount int
	order      *list.List // of *loopPartition, most recently seen first
	parts      map[uint64]*list.Element
	// budget is how many bytes of stamps and calls all namespaces may hold (loop_memory.go);
	// held is how many they do, reclaiming lets one caller at a time bring it back down.
	budget     int64
	held       atomic.Int64
	reclaiming sync.Mutex
}

// loopPartition is one namespace's memory. Its own lock keeps one namespace's flood (a scan of
// its full memory for each new call) from delaying another namespace's calls.
type loopPartition struct {
	mu      sync.Mutex
	part    uint64
	order   *list.List // of *loopEntry, most recently seen first
	entries map[CallKey]*list.Element
	// floors cover the calls forgotten while they had live stamps, each call by the floor its key
	// picks (LoopDetector.seed): a floor's k-th newest stamp is the newest of the k-th newest of
	// the calls it covers (oldest first, as stamps). A call not remembered may be one of them, so
	// it starts from its floor. Made when the namespace first forgets a live call.
	floors [][]int64
	// shared covers the calls forgotten once the floors held as many stamps as the calls
	// remembered may (maxKeys x loopStamps, counted in floorStamps); every call starts from it too.
	shared      []int64
	floorStamps int
	// held is the bytes of calls and stamps the partition holds, written under mu, read by the
	// detector choosing whom to compact without it. dropped is set, under mu, when the detector
	// forgets the partition: a caller that found it before then looks it up again.
	held    atomic.Int64
	dropped bool
	// inserted is how many keys entries took in since it was made (remap).
	inserted int
}

type loopEntry struct {
	key    CallKey
	floor  int     // the index of its key's floor
	stamps []int64 // nanoseconds since the detector's start, oldest first
	window int64   // the window it was last observed with, in nanoseconds
}

// firstLive is the index of the entry's first stamp within its window ending at now.
func (e *loopEntry) firstLive(now int64) int {
	first, _ := slices.BinarySearch(e.stamps, now-e.window+1) // the first stamp with now-stamp < window
	return first
}

// covers says whether floor or shared holds, rank for rank from the newest, a stamp at least as
// new as each of stamps: forgetting a call with those stamps would leave what it starts from as
// it is.
func covers(floor, shared, stamps []int64) bool {
	if len(stamps) > max(len(floor), len(shared)) {
		return false
	}
	for k := 1; k <= len(stamps); k++ {
		if s := stamps[len(stamps)-k]; s > rank(floor, k) && s > rank(shared, k) {
			return false
		}
	}
	return true
}

// rank is the k-th newest of stamps, or the oldest time there is when it holds fewer.
func rank(stamps []int64, k int) int64 {
	if k > len(stamps) {
		return math.MinInt64
	}
	return stamps[len(stamps)-k]
}

// floor is the floor of the entry's key, merged into dst: rank for rank the newer of its own
// floor and the shared one. Empty before the namespace forgot any live call.
func (lp *loopPartition) floor(dst []int64, e *loopEntry) []int64 {
	return raised(append(dst[:0], lp.ownFloor(e)...), lp.shared, math.MinInt64)
}

// ownFloor is the floor the entry's key picks, without the shared one; nil before the namespace
// forgot any live call.
func (lp *loopPartition) ownFloor(e *loopEntry) []int64 {
	if lp.floors == nil {
		return nil
	}
	return lp.floors[e.floor]
}

// raise makes the entry's floor cover its stamps too. While the namespace's floors hold fewer
// stamps than its calls may (floorBudget), that is the entry's own floor; past it, the shared one
// every call also starts from, so the floors' memory stays within the calls' own bound whatever
// the agent sends (each new call can lengthen its floor by one).
func (lp *loopPartition) raise(e *loopEntry, stamps []int64, now int64, d *LoopDetector) {
	if lp.floors == nil {
		lp.floors = make([][]int64, d.floorCount)
		lp.account(d, int64(d.floorCount)*floorHeaderBytes)
	}
	own := lp.floors[e.floor]
	if grow := min(len(stamps), loopStamps) - len(own); grow <= 0 || lp.floorStamps+grow <= d.floorBudget {
		lp.store(d, &lp.floors[e.floor], raised(own, stamps, countedSince(now)))
		lp.floorStamps += len(lp.floors[e.floor]) - len(own)
		return
	}
	lp.raiseShared(d, stamps, now)
}

// raised is floor made to cover stamps too, in place where it can: rank for rank from the newest,
// the newer of the two, at most loopStamps, and none older than since (what no window can count
// any more).
func raised(floor, stamps []int64, since int64) []int64 {
	n := min(max(len(floor), len(stamps)), loopStamps)
	if old := len(floor); n > old {
		floor = slices.Grow(floor, n-old)[:n]
		copy(floor[n-old:], floor[:old]) // newest at the end; overlapping copy is a memmove
		for i := range n - old {
			floor[i] = math.MinInt64
		}
	}
	for k := 1; k <= len(stamps) && k <= n; k++ {
		floor[n-k] = max(floor[n-k], stamps[len(stamps)-k])
	}
	first, _ := slices.BinarySearch(floor, since)
	return append(floor[:0], floor[first:]...)
}

// evict forgets one call of a full partition and returns its element, left in the order for the
// new call to take over (no allocation for it once the floors have grown): one whose stamps have all
// left its window if there is one, else one its floor already covers, else the one with the fewest
// stamps within its window, whose live stamps then raise its floor; the least recently seen of
// each kind. A new call starts from its floor (Observe), so a call forgotten and seen again is
// never counted lower than it ran: its floor holds at least its live stamps.
//
// A repeating call is what loop detection exists for. Evicting by recency alone let an agent
// forget its own loop by sending enough distinct calls in between, each free to it (refused
// before anything is counted); evicting the least repeated alone still let it, by keeping the
// memory full of calls seen twice and alternating its loop with one other call, each evicting the
// other; and a new call inheriting only its victim's stamps let it hide the loop in the slot of a
// call that had just expired. The price of floors is over-counting in a namespace with more
// distinct live calls than the detector remembers: a floor's level grows with the calls forgotten
// from it within the window, which is why there are floorsPerKey floors per call remembered and
// not one (one made it a cliff: every new call denied past about 15,000 distinct calls a minute).
// The scan is bounded by the partition's size and runs only when it is full; the stamps it
// compares with the floors, by coverBudget (either choice of victim keeps counts from going low,
// so a check skipped costs at most a raise of a floor, and calls holding 1024 live stamps each
// cannot make every new call compare two million).
func (lp *loopPartition) evict(now int64, d *LoopDetector) *list.Element {
	var covered, fewest *list.Element
	var fewestLive []int64
	compare := coverBudget
	for el := lp.order.Back(); el != nil; el = el.Prev() {
		e := el.Value.(*loopEntry)
		live := e.stamps[e.firstLive(now):]
		if len(live) == 0 {
			covered = el
			break
		}
		if covered == nil && compare > 0 {
			compare -= len(live)
			if covers(lp.ownFloor(e), lp.shared, live) {
				covered = el
			}
		}
		if fewest == nil || len(live) < len(fewestLive) {
			fewest, fewestLive = el, live
		}
	}
	victim := covered
	if victim == nil {
		victim = fewest
		lp.raise(victim.Value.(*loopEntry), fewestLive, now, d)
		if d.ForgotLive != nil {
			d.ForgotLive()
		}
	}
	delete(lp.entries, victim.Value.(*loopEntry).key)
	return victim
}

// NewLoopDetector returns a detector reading time from clock and remembering at most maxKeys
// distinct calls per namespace (DefaultLoopKeys when maxKeys <= 0). A nil clock means RealClock.
func NewLoopDetector(clock Clock, maxKeys int) *LoopDetector {
	if clock == nil {
		clock = RealClock{}
	}
	if maxKeys <= 0 {
		maxKeys = DefaultLoopKeys
	}
	maxKeys = min(maxKeys, MaxLoopKeys)
	return &LoopDetector{clock: clock, start: clock.Now(), seed: maphash.MakeSeed(), floorBudget: maxKeys * loopStamps,
		floorCount: maxKeys * floorsPerKey, maxKeys: maxKeys, order: list.New(), parts: map[uint64]*list.Element{},
		budget: DefaultLoopMemoryBytes}
}

// partition returns the key's namespace memory, creating it (and forgetting the least recently
// seen namespace beyond the bound) when needed.
func (d *LoopDetector) partition(part uint64) *loopPartition {
	d.mu.Lock()
	defer d.mu.Unlock()
	if el, ok := d.parts[part]; ok {
		d.order.MoveToFront(el)
		return el.Value.(*loopPartition)
	}
	if d.order.Len() >= maxLoopPartitions {
		d.drop(d.order.Back())
	}
	lp := &loopPartition{part: part, order: list.New(), entries: map[CallKey]*list.Element{}}
	d.parts[part] = d.order.PushFront(lp)
	return lp
}

// Observe records one occurrence of the call and returns how many occurrences fall within the
// window ending now, this one included. The webhook stores the count in Context.Repeats before
// calling Evaluate. A non-positive window counts only this occurrence.
func (d *LoopDetector) Observe(key CallKey, window time.Duration) int {
	n := d.observe(key, window)
	if d.held.Load() > d.budget {
		d.reclaim()
	}
	return n
}

func (d *LoopDetector) observe(key CallKey, window time.Duration) int {
	lp := d.partition(key.part)
	now := int64(d.now())
	lp.mu.Lock()
	for lp.dropped { // forgotten between the lookup and the lock: counted in its successor
		lp.mu.Unlock()
		lp = d.partition(key.part)
		lp.mu.Lock()
	}
	defer lp.mu.Unlock()
	var e *loopEntry
	var held int64 // the bytes of e's stamps before, or 0 for a call new to memory
	if el, ok := lp.entries[key]; ok {
		lp.order.MoveToFront(el)
		e = el.Value.(*loopEntry)
		held = stampBytes(e.stamps)
	} else {
		var el *list.Element
		if lp.order.Len() >= d.maxKeys {
			el = lp.evict(now, d)
			lp.order.MoveToFront(el)
			e = el.Value.(*loopEntry)
			held = stampBytes(e.stamps)
		} else {
			e = &loopEntry{}
			el = lp.order.PushFront(e)
			lp.account(d, loopEntryBytes)
		}
		// It may be a call forgotten while live: it starts from its floor (evict says why).
		e.key, e.floor = key, int(maphash.Comparable(d.seed, key.sum)%uint64(d.floorCount))
		e.stamps = lp.floor(e.stamps, e)
		lp.entries[key] = el
		lp.inserted++
		lp.remap()
	}
	e.window = int64(window)
	// Drop timestamps outside the window; a clock that went backwards keeps them (conservative).
	e.stamps = append(e.stamps[:0], e.stamps[e.firstLive(now):]...)
	if len(e.stamps) >= loopStamps {
		e.stamps = append(e.stamps[:0], e.stamps[1:]...)
	}
	// Never below the newest stamp: a clock that went backwards would unsort them, and the binary
	// searches over them would miss live ones.
	if len(e.stamps) > 0 {
		now = max(now, e.stamps[len(e.stamps)-1])
	}
	e.stamps = append(e.stamps, now)
	lp.account(d, stampBytes(e.stamps)-held)
	return len(e.stamps)
}

// Len returns the number of distinct calls remembered, over every namespace.
func (d *LoopDetector) Len() int {
	d.mu.Lock()
	parts := make([]*loopPartition, 0, d.order.Len())
	for el := d.order.Front(); el != nil; el = el.Next() {
		parts = append(parts, el.Value.(*loopPartition))
	}
	d.mu.Unlock()
	n := 0
	for _, lp := range parts {
		lp.mu.Lock()
		n += lp.order.Len()
		lp.mu.Unlock()
	}
	return n
}
