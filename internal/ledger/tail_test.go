package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type tailed struct {
	Writer string         `json:"writer"`
	Seq    uint64         `json:"seq"`
	Kind   string         `json:"kind"`
	Fields map[string]any `json:"fields"`
}

func decode(t *testing.T, lines []json.RawMessage) []tailed {
	t.Helper()
	out := make([]tailed, len(lines))
	for i, l := range lines {
		if err := json.Unmarshal(l, &out[i]); err != nil {
			t.Fatalf("line %d %q: %v", i, l, err)
		}
	}
	return out
}

// Two writers, several segments (some compressed): Tail merges the chains in time order and
// returns the newest n.
func TestTail(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.MaxSegmentBytes = 1500
	cfg.Compress = true
	a := mustOpen(t, cfg)
	cfgB := cfg
	cfgB.Writer = "webhook-1"
	b := mustOpen(t, cfgB)
	for i := range 12 {
		clock.Add(time.Second)
		j := a
		if i%2 == 1 {
			j = b
		}
		if _, err := j.Append(context.Background(), decision(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Maintain(clock.Now()); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 5, 11} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			lines, err := Tail(cfg.Dir, n)
			if err != nil {
				t.Fatal(err)
			}
			got := decode(t, lines)
			var calls []string
			for _, r := range got {
				if r.Kind == "decision" {
					calls = append(calls, r.Fields["call"].(string))
				}
			}
			var want []string
			for i := 12 - len(calls); i < 12; i++ {
				want = append(want, fmt.Sprintf("call-%d", i))
			}
			if len(got) != n {
				t.Fatalf("%d lines, want %d", len(got), n)
			}
			if diff := cmp.Diff(want, calls); diff != "" {
				t.Fatalf("calls (-want +got)\n%s", diff)
			}
		})
	}
	if lines, err := Tail(cfg.Dir, 0); err != nil || len(lines) != 0 {
		t.Fatalf("Tail(0) = %d lines, %v", len(lines), err)
	}
	// More than there are: everything, headers and seals included.
	lines, err := Tail(cfg.Dir, 1000)
	if err != nil {
		t.Fatal(err)
	}
	rep := mustVerify(t, cfg.Dir)
	if total := rep.Chains[0].Records + rep.Chains[1].Records; uint64(len(lines)) != total {
		t.Fatalf("Tail(1000) returned %d lines of %d records", len(lines), total)
	}
}

func TestFollow(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.MaxSegmentBytes = 1500
	j := mustOpen(t, cfg)
	appendN(t, j, 3)
	f := startFollow(t, cfg.Dir, 2, 5*time.Millisecond)
	waitFor(t, func() bool { return f.count() == 2 })
	// New records, across a rotation, and a second writer that appears later.
	for i := range 5 {
		clock.Add(time.Second)
		if _, err := j.Append(context.Background(), decision(10+i)); err != nil {
			t.Fatal(err)
		}
	}
	cfgB := cfg
	cfgB.Writer = "webhook-1"
	appendN(t, mustOpen(t, cfgB), 1)
	rep := mustVerify(t, cfg.Dir)
	all := rep.Chains[0].Records + rep.Chains[1].Records
	// The first two, then everything after them: all of the first chain beyond its first
	// records at the start, and the whole second chain.
	want := 2 + int(rep.Chains[0].Records-4) + int(rep.Chains[1].Records)
	waitFor(t, func() bool { return f.count() == want })
	got := f.stop(t)
	seen := map[string]bool{}
	for _, r := range decode(t, got) {
		k := fmt.Sprintf("%s/%d", r.Writer, r.Seq)
		if seen[k] {
			t.Fatalf("%s emitted twice", k)
		}
		seen[k] = true
	}
	t.Logf("followed %d of %d records", len(got), all)
}

// following is a Follow running in the background, collecting what it emits.
type following struct {
	mu     sync.Mutex
	got    []json.RawMessage
	done   chan error
	cancel context.CancelFunc
}

// startFollow follows dir (n records first, polling every interval) until stop or the test ends.
func startFollow(t *testing.T, dir string, n int, every time.Duration) *following {
	ctx, cancel := context.WithCancel(context.Background())
	f := &following{done: make(chan error, 1), cancel: cancel}
	t.Cleanup(cancel)
	go func() {
		f.done <- Follow(ctx, dir, n, every, func(l json.RawMessage) error {
			f.mu.Lock()
			f.got = append(f.got, l)
			f.mu.Unlock()
			return nil
		})
	}()
	return f
}

func (f *following) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.got)
}

// stop ends the Follow, fails t if it failed, and returns every line it emitted.
func (f *following) stop(t *testing.T) []json.RawMessage {
	t.Helper()
	f.cancel()
	if err := <-f.done; err != nil {
		t.Fatal(err)
	}
	return f.got
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A record's time is its caller's and its sequence number the commit order, so a chain's times
// need not grow with its sequence numbers. Tail and Follow give each chain in sequence order all
// the same (Follow goes on after the newest sequence number it emitted, and would otherwise skip
// the records sorted after it), and interleave chains by time.
func TestTailKeepsEachChainInSequenceOrder(t *testing.T) {
	dir := t.TempDir()
	at := func(minute int) time.Time { return day0.Add(time.Duration(minute) * time.Minute) }
	for writer, minutes := range map[string][]int{"a": {5, 1, 7}, "b": {2, 6}} {
		cfg := testConfig(t, newFakeClock(day0))
		cfg.Dir, cfg.Writer = dir, writer
		j := mustOpen(t, cfg)
		for i, m := range minutes {
			r := decision(i)
			r.Time = at(m)
			if _, err := j.Append(context.Background(), r); err != nil {
				t.Fatal(err)
			}
		}
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := Tail(dir, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range decode(t, entries) {
		if e.Kind == "decision" {
			got = append(got, fmt.Sprintf("%s%d", e.Writer, e.Seq))
		}
	}
	// Each chain's header is seq 1. a's records at minutes 5, 1, 7 stay in that order; b's (2, 6)
	// go where their times put them among a's heads.
	want := []string{"b2", "a2", "a3", "b3", "a4"}
	if !slices.Equal(got, want) {
		t.Fatalf("Tail gave %v, want %v", got, want)
	}
}
