package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"slices"
	"time"
)

// tailEntry is one record line with what ordering needs.
type tailEntry struct {
	line   json.RawMessage
	seq    uint64
	time   time.Time
	writer string
}

// Tail returns the last n records under dir (a ledger's Dir or one writer's directory), all
// chains merged by time (each chain in sequence order, see mergeChains), each as the JSON line
// stored on disk. It reads records as they are; Verify is what checks them.
func Tail(dir string, n int) ([]json.RawMessage, error) {
	if n <= 0 {
		_, err := chainDirs(dir)
		return nil, err
	}
	entries, _, err := collect(dir, n, nil)
	if err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, len(entries))
	for i, e := range entries {
		out[i] = e.line
	}
	return out, nil
}

// Follow emits the last n records under dir like Tail, then every record appended after them,
// polling every interval until ctx ends. Chains that appear later are followed from their start.
func Follow(ctx context.Context, dir string, n int, interval time.Duration, emit func(json.RawMessage) error) error {
	entries, seen, err := collect(dir, max(n, 1), nil) // at least one, to learn where each chain ends
	if err != nil {
		return err
	}
	if n <= 0 {
		entries = nil
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		for _, e := range entries {
			if err := emit(e.line); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		var next map[string]uint64
		entries, next, err = collect(dir, 0, seen)
		if err != nil {
			return err
		}
		seen = next
	}
}

// collect reads, per chain, the last n records (n <= 0: all) newer than after[writer], merges
// them in time order and keeps the last n. It also returns each chain's newest sequence number.
func collect(dir string, n int, after map[string]uint64) ([]tailEntry, map[string]uint64, error) {
	chains, err := chainDirs(dir)
	if err != nil {
		return nil, nil, err
	}
	newest := map[string]uint64{}
	lists := make([][]tailEntry, 0, len(chains))
	for _, c := range chains {
		es, err := chainTail(c, n, after[c.writer])
		if err != nil {
			return nil, nil, err
		}
		newest[c.writer] = after[c.writer]
		if len(es) > 0 {
			newest[c.writer] = es[len(es)-1].seq
		}
		lists = append(lists, es)
	}
	all := mergeChains(lists)
	if n > 0 && len(all) > n {
		all = all[len(all)-n:]
	}
	return all, newest, nil
}

// mergeChains merges the chains' records, each list in its chain's sequence order, into one list
// in time order across chains that keeps every chain's own order: a record's time is its
// caller's and its sequence number the commit order, so two concurrent appends can be committed
// in the other order than their times, and sorting by time would put a record before an earlier
// one of its chain (Follow, which goes on after each chain's newest sequence number, relies on
// emitting each chain in order).
func mergeChains(lists [][]tailEntry) []tailEntry {
	total := 0
	for _, l := range lists {
		total += len(l)
	}
	out := make([]tailEntry, 0, total)
	next := make([]int, len(lists))
	for len(out) < total {
		best := -1
		for i, l := range lists {
			if next[i] < len(l) && (best < 0 || earlier(l[next[i]], lists[best][next[best]])) {
				best = i
			}
		}
		out = append(out, lists[best][next[best]])
		next[best]++
	}
	return out
}

// earlier orders the heads of two chains: by time, then by writer.
func earlier(a, b tailEntry) bool {
	if c := a.time.Compare(b.time); c != 0 {
		return c < 0
	}
	return a.writer < b.writer
}

// chainTail reads one chain's segments from the newest back until it has n records (n <= 0:
// no limit) or reaches records at or before seq after.
func chainTail(c chainDir, n int, after uint64) ([]tailEntry, error) {
	segs, err := listSegments(c.dir)
	if err != nil {
		return nil, err
	}
	var out []tailEntry
	for i, s := range slices.Backward(segs) {
		es, err := readEntries(c, s, i == len(segs)-1 && !s.gz)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted by retention or replaced by its gzip while we listed
		}
		if err != nil {
			return nil, err
		}
		reached := false
		var keep []tailEntry
		for _, e := range es {
			if e.seq <= after {
				reached = true
				continue
			}
			keep = append(keep, e)
		}
		out = append(keep, out...)
		if reached || n > 0 && len(out) >= n {
			break
		}
	}
	if n > 0 && len(out) > n {
		out = out[len(out)-n:]
	}
	return out, nil
}

// readEntries reads a segment's records. In the newest plain segment, which the writer may be
// filling, NULs before data end the read (see below); anywhere else they are damage, and like any
// other line that is not a record only their line is skipped.
func readEntries(c chainDir, s segment, live bool) ([]tailEntry, error) {
	rc, err := openSegment(c.dir, s)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rc.Close() }()
	lr := newLineReader(rc)
	var out []tailEntry
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) || errors.Is(err, errTorn) {
			return out, nil // a partial last line is not a record yet
		}
		if err != nil {
			return nil, err
		}
		if _, ok := nulOffset(line, lr.offset); ok && live {
			// The writer fills preallocated zeros in place, and a read racing that write can see
			// a later page of the batch before an earlier one: what follows is not written yet
			// as far as this read knows. Stopping here keeps Follow from skipping a record.
			return out, nil
		}
		var e struct {
			Seq  uint64 `json:"seq"`
			Time string `json:"time"`
		}
		if json.Unmarshal(line, &e) != nil {
			continue // not a record; Verify reports it
		}
		t, _ := time.Parse(timeLayout, e.Time)
		out = append(out, tailEntry{line: json.RawMessage(slices.Clone(line)), seq: e.Seq, time: t, writer: c.writer})
	}
}
