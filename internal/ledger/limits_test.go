package ledger

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A record whose line would pass MaxLineBytes is refused with an error naming the limit, and
// nothing is written: the chain goes on from the record before it.
func TestAppendRefusesARecordLongerThanALine(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	j := mustOpen(t, cfg)
	before := appendN(t, j, 1)[0]
	big := make([]any, 0, MaxLineBytes/1000+1)
	for range cap(big) {
		big = append(big, strings.Repeat("a", 1000))
	}
	_, err := j.Append(context.Background(), Record{Kind: "decision", Fields: map[string]any{"args": big}})
	if err == nil || !strings.Contains(err.Error(), "MaxLineBytes") || !strings.Contains(err.Error(), `"decision"`) {
		t.Fatalf("Append of a %d-element record: got %v, want an error naming the kind and MaxLineBytes", len(big), err)
	}
	after := appendN(t, j, 1)[0]
	if after.Seq != before.Seq+1 {
		t.Fatalf("the refused record took a seq: %d after %d", after.Seq, before.Seq)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	mustVerify(t, cfg.Dir)
}

// A live segment whose tail is one huge unterminated line (no journal writes one) makes Open
// fail with ErrCorrupt, having read about MaxLineBytes of it, not the whole tail.
func TestOpenRefusesAHugeUnterminatedTailWithoutReadingIt(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	j := mustOpen(t, cfg)
	appendN(t, j, 3)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	dir := chainDirOf(cfg)
	segs := segmentFiles(t, dir)
	path := filepath.Join(dir, segs[len(segs)-1])
	data := segmentData(t, path)
	const tail = 8 * MaxLineBytes
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	_, err = f.Write(data)
	for n := 0; err == nil && n < tail; n += len(chunk) {
		_, err = f.Write(chunk)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Open(cfg)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open over a %d-byte unterminated tail: got %v, want ErrCorrupt", tail, err)
	}
	// Reading the tail whole allocates at least its 8 MaxLineBytes; the bound leaves room for
	// whatever else runs meanwhile.
	if read := after.TotalAlloc - before.TotalAlloc; read > 4*MaxLineBytes {
		t.Fatalf("Open allocated %d bytes for a %d-byte tail: it read the tail whole", read, tail)
	}
	if _, err := Verify(cfg.Dir); !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrBroken) {
		t.Fatalf("Verify: got %v, want the long line reported", err)
	}
}

// Metadata files are read with a limit: a head file grown huge is not read whole but reported
// unreadable, in the gap record recovery writes for it.
func TestOpenReportsAnOversizedHeadFile(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	j := mustOpen(t, cfg)
	appendN(t, j, 1)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	head := filepath.Join(chainDirOf(cfg), headFile)
	writeFile(t, head, append(readFile(t, head), bytes.Repeat([]byte(" "), maxSmallFile)...))
	j = mustOpen(t, cfg)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	for _, p := range records(t, chainDirOf(cfg)) {
		if p.Kind == KindGap && p.Fields[fieldReason] == GapHeadUnreadable &&
			strings.Contains(p.Fields["detail"].(string), "longer than") {
			return
		}
	}
	t.Fatalf("no %s gap naming the head file's size after Open over a %d-byte head file", GapHeadUnreadable, maxSmallFile+headSize)
}
