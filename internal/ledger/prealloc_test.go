package ledger

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// zeroTail returns how many NUL bytes end b, and fails unless everything before them is free of
// NULs and ends a line: a segment as the writer leaves it.
func zeroTail(t *testing.T, b []byte) int {
	t.Helper()
	i := len(b)
	for i > 0 && b[i-1] == 0 {
		i--
	}
	if bytes.IndexByte(b[:i], 0) >= 0 || i > 0 && b[i-1] != '\n' {
		t.Fatalf("the segment's data holds NULs or does not end a line (%d data bytes)", i)
	}
	return len(b) - i
}

// Closing leaves the live segment with its preallocated zeros; Open must continue the chain at
// the end of the data, write into the zeros in place, and count only data in Stats.
func TestReopenWithAZeroTailContinuesTheChain(t *testing.T) {
	cfg, got, live := closedLedger(t, 3)
	before := readFile(t, live)
	zeros := zeroTail(t, before)
	if zeros == 0 {
		t.Fatal("the closed live segment has no preallocated zero tail")
	}
	mustVerify(t, cfg.Dir) // Verify accepts a live segment with a zero tail

	j := mustOpen(t, cfg)
	if st := j.Stats(); st.Bytes != int64(len(before)-zeros) || st.HeadSeq != got[2].Seq {
		t.Fatalf("Stats after reopening: %d bytes, head %d; want the %d data bytes, head %d", st.Bytes, st.HeadSeq, len(before)-zeros, got[2].Seq)
	}
	after := appendN(t, j, 2)
	if after[0].Seq != got[2].Seq+1 {
		t.Fatalf("the chain went on at seq %d after seq %d", after[0].Seq, got[2].Seq)
	}
	b := readFile(t, live)
	if len(b) != len(before) {
		t.Fatalf("the segment grew from %d to %d bytes: the records did not go into the preallocated space", len(before), len(b))
	}
	if !bytes.HasPrefix(b, before[:len(before)-zeros]) || zeroTail(t, b) >= zeros {
		t.Fatal("the new records are not right after the old ones")
	}
	rep := mustVerify(t, cfg.Dir)
	if c := rep.Chains[0]; len(c.Gaps) != 0 || c.LastSeq != after[1].Seq || c.HeadHash != after[1].Hash {
		t.Fatalf("after reopening: %s", c)
	}
	if st := j.Stats(); st.Bytes != int64(len(b)-zeroTail(t, b)) {
		t.Fatalf("Stats.Bytes %d, want the %d data bytes", st.Bytes, len(b)-zeroTail(t, b))
	}
}

// NUL bytes with data after them are never unwritten space: Verify reports the first of them by
// offset, in a record, after the last record, and after a seal.
func TestVerifyReportsNULsFollowedByData(t *testing.T) {
	tests := []struct {
		name string
		// damage changes a segment's bytes (data is their length without the zero tail) and
		// returns the offset of the first NUL it left before data.
		damage func(b []byte, data int) (int, []byte)
	}{
		{"zeros inside a record", func(b []byte, _ int) (int, []byte) {
			at := bytes.IndexByte(b, '\n') + 30 // in the second line
			copy(b[at:], make([]byte, 8))
			return at, b
		}},
		{"garbage in the zero tail", func(b []byte, data int) (int, []byte) {
			b[data+100] = 'x'
			return data, b
		}},
		{"a whole record after zeros", func(b []byte, data int) (int, []byte) {
			first := b[:bytes.IndexByte(b, '\n')+1]
			return data, append(append(b[:data], make([]byte, 16)...), first...)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, _, live := closedLedger(t, 3)
			b := readFile(t, live)
			data := len(b) - zeroTail(t, b)
			off, damaged := tt.damage(b, data)
			writeFile(t, live, damaged)
			rep, err := Verify(cfg.Dir)
			brk := rep.FirstBreak()
			if !errors.Is(err, ErrBroken) || brk == nil {
				t.Fatalf("Verify: %v, want the NULs reported", err)
			}
			want := fmt.Sprintf("NUL bytes at byte offset %d followed by data", off)
			if brk.File != filepath.Base(live) || !strings.Contains(brk.What, want) {
				t.Fatalf("break %s, want %q in %s", brk, want, filepath.Base(live))
			}
		})
	}
}

// A sealed segment is exactly its data: the preallocated tail is cut once the seal is durable.
func TestSealedSegmentsHaveNoZeroTail(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	cfg.MaxSegmentBytes = 2048
	j := mustOpen(t, cfg)
	appendN(t, j, 30)
	dir := chainDirOf(cfg)
	files := segmentFiles(t, dir)
	if len(files) < 3 {
		t.Fatalf("setup: segments %v", files)
	}
	for _, f := range files[:len(files)-1] {
		b := readFile(t, filepath.Join(dir, f))
		seal, err := lastRecordPlain(filepath.Join(dir, f))
		if err != nil || seal.Kind != KindSeal {
			t.Fatalf("%s: last record %q, %v", f, seal.Kind, err)
		}
		sealLine := len(b) - 1 - bytes.LastIndexByte(b[:len(b)-1], '\n')
		if bytes.IndexByte(b, 0) >= 0 || uint64(len(b)) != seal.num(fieldBytes)+uint64(sealLine) {
			t.Fatalf("%s is %d bytes, want its %d data bytes and the %d-byte seal and no zeros", f, len(b), seal.num(fieldBytes), sealLine)
		}
	}
	if zeroTail(t, readFile(t, filepath.Join(dir, files[len(files)-1]))) == 0 {
		t.Fatal("the live segment has no preallocated space: the test shows nothing")
	}
}

// sealedNewest returns a closed ledger whose newest segment is sealed, and that segment.
func sealedNewest(t *testing.T) (Config, string) {
	t.Helper()
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.Daily = true
	j := mustOpen(t, cfg)
	appendN(t, j, 3)
	if _, err := j.Maintain(clock.Add(24 * time.Hour)); err != nil { // sealed; no next segment yet
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	files := segmentFiles(t, chainDirOf(cfg))
	if len(files) != 1 {
		t.Fatalf("setup: segments %v", files)
	}
	return cfg, filepath.Join(chainDirOf(cfg), files[0])
}

// A crash between the seal and the cut of the preallocated tail leaves a sealed segment with
// zeros after its seal: Verify accepts it, and Open trims it and goes on in the next segment.
func TestCrashBetweenSealAndTrim(t *testing.T) {
	cfg, sealed := sealedNewest(t)
	data := readFile(t, sealed)
	writeFile(t, sealed, append(bytes.Clone(data), make([]byte, 64<<10)...)) // the state before trimSealed
	mustVerify(t, cfg.Dir)

	j := mustOpen(t, cfg)
	if b := readFile(t, sealed); !bytes.Equal(b, data) {
		t.Fatalf("after Open the sealed segment is %d bytes, want its %d data bytes", len(b), len(data))
	}
	r := appendN(t, j, 1)
	rep := mustVerify(t, cfg.Dir)
	if c := rep.Chains[0]; c.Segments != 2 || len(c.Gaps) != 0 || c.LastSeq != r[0].Seq {
		t.Fatalf("after recovery: %s", c)
	}
}

// A zero tail that stayed on an older sealed segment (its cut failed) is unwritten space too:
// the chain verifies, and compression leaves it out.
func TestZeroTailOnAnOlderSealedSegment(t *testing.T) {
	cfg, sealed := sealedNewest(t)
	data := readFile(t, sealed)
	writeFile(t, sealed, append(bytes.Clone(data), make([]byte, 10<<10)...))
	cfg.Compress = true
	j := mustOpen(t, cfg)
	if err := os.WriteFile(sealed, append(bytes.Clone(data), make([]byte, 10<<10)...), 0o640); err != nil {
		t.Fatal(err) // Open trimmed it (it was the newest); put the tail back on what is now older
	}
	appendN(t, j, 2)
	mustVerify(t, cfg.Dir)
	if _, err := j.Maintain(day0.Add(24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(readFile(t, sealed+gzipExt))) // as an auditor's gunzip reads it
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	if _, err := gz.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gz.Bytes(), data) {
		t.Fatalf("the compressed segment holds %d bytes, want its %d data bytes", gz.Len(), len(data))
	}
	mustVerify(t, cfg.Dir)
}

// Finding a segment's last record skips its unwritten tail a window at a time: a sparse zero
// run of 256 MiB after a sealed segment's data (planted by someone who can write the volume) costs
// no more memory than a short one, where reading the tail whole would allocate all of it.
func TestLastRecordSkipsAHugeZeroTailInBoundedMemory(t *testing.T) {
	_, sealed := sealedNewest(t)
	want, err := lastRecordPlain(sealed)
	if err != nil || want.Kind != KindSeal {
		t.Fatalf("setup: last record %q, %v", want.Kind, err)
	}
	size := int64(len(readFile(t, sealed)))
	const tail = 256 << 20
	if err := os.Truncate(sealed, size+tail); err != nil { // a hole: no disk space used
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := lastRecordPlain(sealed)
	runtime.ReadMemStats(&after)
	if err != nil || got.Seq != want.Seq || got.hash != want.hash {
		t.Fatalf("with a %d-byte zero tail: last record %d %s, %v; want %d %s", tail, got.Seq, got.hash, err, want.Seq, want.hash)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Fatalf("finding the last record allocated %d bytes past a %d-byte zero tail, want the tail skipped, not read whole", alloc, tail)
	}
}

// bigRecord is a record of about size bytes, so tests cross preallocation chunks quickly.
func bigRecord(i, size int) Record {
	return Record{Kind: "decision", Fields: map[string]any{"call": fmt.Sprintf("big-%d", i), "message": strings.Repeat("m", size)}}
}

// Segments larger than a preallocation chunk grow chunk by chunk and are sealed and trimmed as
// usual; the preallocation never runs far past MaxSegmentBytes.
func TestRotationAcrossPreallocationChunks(t *testing.T) {
	fs := newFaultFS()
	cfg := testConfig(t, newFakeClock(day0))
	cfg.openFile = fs.open
	cfg.MaxSegmentBytes = 3 * preallocChunk
	cfg.MaxStringLength = 64 << 10
	j := mustOpen(t, cfg)
	dir := chainDirOf(cfg)
	receipts := make([]Receipt, 0, 130)
	for i := range 130 { // about 7.8 MiB: two sealed segments and a live one
		r, err := j.Append(context.Background(), bigRecord(i, 60<<10))
		if err != nil {
			t.Fatal(err)
		}
		receipts = append(receipts, r)
		live := filepath.Join(dir, j.live.name) // the committer is idle between Appends
		info, err := os.Stat(live)
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() > cfg.MaxSegmentBytes+sealReserve+64<<10 {
			t.Fatalf("the live segment is preallocated to %d bytes, far past MaxSegmentBytes %d", info.Size(), cfg.MaxSegmentBytes)
		}
	}
	files := segmentFiles(t, dir)
	if len(files) != 3 {
		t.Fatalf("segments %v, want two sealed and a live one", files)
	}
	fs.mu.Lock()
	extensions := fs.syncs - fs.datasyncs // the full fsyncs: preallocations and seal trims
	fs.mu.Unlock()
	if extensions < 2*3 {
		t.Fatalf("%d full fsyncs for two segments of 3 chunks: the segments did not grow by chunks", extensions)
	}
	for _, f := range files[:2] {
		b := readFile(t, filepath.Join(dir, f))
		if bytes.IndexByte(b, 0) >= 0 || len(b) < int(cfg.MaxSegmentBytes) {
			t.Fatalf("sealed %s: %d bytes (want at least %d, and no zeros)", f, len(b), cfg.MaxSegmentBytes)
		}
	}
	rep := mustVerify(t, cfg.Dir)
	if c := rep.Chains[0]; c.LastSeq != receipts[len(receipts)-1].Seq || c.HeadHash != receipts[len(receipts)-1].Hash {
		t.Fatalf("chain %s", c)
	}
}

// Follow reads a live segment while the writer extends it and fills its zeros in place: every
// record is emitted once, in order, and none is skipped.
func TestFollowAcrossAnExtension(t *testing.T) {
	cfg := testConfig(t, nil)
	cfg.MaxStringLength = 64 << 10
	j := mustOpen(t, cfg)
	appendN(t, j, 1)
	f := startFollow(t, cfg.Dir, 1, time.Millisecond)
	waitFor(t, func() bool { return f.count() == 1 })
	const n = 40 // 40 × 40 KiB: past the first 1 MiB chunk
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range n / 4 {
				if _, err := j.Append(context.Background(), bigRecord(w*n+i, 40<<10)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if info, err := os.Stat(filepath.Join(chainDirOf(cfg), j.live.name)); err != nil || info.Size() <= preallocChunk {
		t.Fatalf("the live segment was not extended past its first chunk: %v, %v", info, err)
	}
	waitFor(t, func() bool { return f.count() >= 1+n })
	recs := decode(t, f.stop(t))
	for i, r := range recs {
		if r.Seq != recs[0].Seq+uint64(i) {
			t.Fatalf("emitted seq %d after seq %d: records skipped or repeated", r.Seq, recs[i-1].Seq)
		}
	}
	if last := recs[len(recs)-1].Seq; len(recs) != 1+n || last != j.Stats().HeadSeq {
		t.Fatalf("emitted %d records ending at seq %d, want %d ending at the head %d", len(recs), last, 1+n, j.Stats().HeadSeq)
	}
}

// A read racing an in-place write can see a later page of the batch before an earlier one:
// zeros, then data. Tail must stop there rather than skip the record under the zeros, or Follow,
// which goes on after the newest seq it saw, would never emit it.
func TestTailStopsWhereAWriteIsInProgress(t *testing.T) {
	cfg, got, live := closedLedger(t, 4)
	b := readFile(t, live)
	lines := bytes.SplitAfter(b[:len(b)-zeroTail(t, b)], []byte("\n"))
	third := len(lines[0]) + len(lines[1]) + len(lines[2]) // the header, then got[0], got[1]
	racing := bytes.Clone(b)
	copy(racing[third:third+len(lines[3])/2], make([]byte, len(lines[3])/2)) // got[2] half written
	writeFile(t, live, racing)
	seen := map[string]uint64{cfg.Writer: got[1].Seq}
	entries, _, err := collect(cfg.Dir, 0, seen)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Fatalf("read %d records past a write in progress (first seq %d)", len(entries), entries[0].seq)
	}
	writeFile(t, live, b) // the write completes
	if entries, _, err = collect(cfg.Dir, 0, seen); err != nil || len(entries) != 2 || entries[0].seq != got[2].Seq {
		t.Fatalf("after the write completed: %d records, %v; want seq %d and %d", len(entries), err, got[2].Seq, got[3].Seq)
	}
}

// In a sealed segment NULs are damage, not a write in progress: Tail skips their line, as any
// other line that is not a record, and keeps the records after it.
func TestTailSkipsOnlyTheDamagedLineOfASealedSegment(t *testing.T) {
	for _, damage := range []byte{'X', 0} {
		cfg, dir, files := closedChain(t, 8192, 60)
		if len(files) < 2 {
			t.Fatalf("want a sealed segment and a live one, have %v", files)
		}
		before, err := Tail(cfg.Dir, 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		sealed := filepath.Join(dir, files[0])
		b := readFile(t, sealed)
		i := 0
		for range 2 {
			i += bytes.IndexByte(b[i:], '\n') + 1
		}
		b[i+1] = damage // in the third line
		writeFile(t, sealed, b)
		after, err := Tail(cfg.Dir, 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		if len(after) != len(before)-1 {
			t.Errorf("damage %q in a sealed segment: Tail read %d records, want %d (only the damaged line skipped)",
				damage, len(after), len(before)-1)
		}
	}
}
