package ledger

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSealBySize(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	cfg.MaxSegmentBytes = 2048
	j := mustOpen(t, cfg)
	appendN(t, j, 40)
	dir := chainDirOf(cfg)
	files := segmentFiles(t, dir)
	if len(files) < 4 {
		t.Fatalf("40 records of ~400 bytes in 2 KiB segments made only %v", files)
	}
	for i, f := range files {
		size := int64(len(readFile(t, filepath.Join(dir, f))))
		last, err := lastRecordPlain(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		newest := i == len(files)-1
		// A segment is sealed once it has reached the limit, and not before.
		if newest != (last.Kind != KindSeal) {
			t.Fatalf("%s: last record %q (newest: %v)", f, last.Kind, newest)
		}
		if !newest && (last.num("bytes") < uint64(cfg.MaxSegmentBytes) || last.num("bytes") > uint64(cfg.MaxSegmentBytes)+1024) {
			t.Fatalf("%s sealed at %d bytes (file %d), limit %d", f, last.num("bytes"), size, cfg.MaxSegmentBytes)
		}
	}
	st := j.Stats()
	if st.Segments != len(files) || st.Records != 40+2*uint64(len(files))-1 || st.LastRotation != day0 {
		t.Fatalf("Stats %+v for %d files", st, len(files))
	}
	mustVerify(t, cfg.Dir)
	// A reopened journal reports the same.
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if again := mustOpen(t, cfg).Stats(); again != st {
		t.Fatalf("after reopening: %+v, before: %+v", again, st)
	}
}

func TestSealByDay(t *testing.T) {
	clock := newFakeClock(time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC))
	cfg := testConfig(t, clock)
	cfg.Daily = true
	j := mustOpen(t, cfg)
	appendN(t, j, 2)

	// An append after midnight seals yesterday's segment and opens one named for today.
	clock.Set(time.Date(2026, 12, 1, 0, 0, 1, 0, time.UTC))
	appendN(t, j, 1)
	want := make([]string, 0, 3)
	want = append(want, "2026-11-30.00000001.jsonl", "2026-12-01.00000002.jsonl")
	if diff := cmp.Diff(want, segmentFiles(t, chainDirOf(cfg))); diff != "" {
		t.Fatalf("segments (-want +got)\n%s", diff)
	}

	// With no appends, Maintain seals at the day boundary; the next append opens today's segment.
	next := time.Date(2026, 12, 2, 0, 0, 5, 0, time.UTC)
	res, err := j.Maintain(next)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"2026-12-01.00000002.jsonl"}, res.Sealed); diff != "" {
		t.Fatalf("sealed (-want +got)\n%s", diff)
	}
	if st := j.Stats(); st.LastRotation != next {
		t.Fatalf("LastRotation %v, want %v", st.LastRotation, next)
	}
	// Maintain again the same day has nothing to seal.
	if res, _ := j.Maintain(next.Add(time.Hour)); len(res.Sealed) != 0 {
		t.Fatalf("sealed again: %v", res.Sealed)
	}
	clock.Set(next.Add(time.Minute))
	appendN(t, j, 1)
	want = append(want, "2026-12-02.00000003.jsonl")
	if diff := cmp.Diff(want, segmentFiles(t, chainDirOf(cfg))); diff != "" {
		t.Fatalf("segments (-want +got)\n%s", diff)
	}
	mustVerify(t, cfg.Dir)
}

func TestNoDailySealWhenDailyIsOff(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	j := mustOpen(t, cfg)
	appendN(t, j, 1)
	clock.Add(72 * time.Hour)
	appendN(t, j, 1)
	if res, err := j.Maintain(clock.Now()); err != nil || len(res.Sealed) != 0 {
		t.Fatalf("Maintain sealed %v (%v)", res.Sealed, err)
	}
	if files := segmentFiles(t, chainDirOf(cfg)); len(files) != 1 {
		t.Fatalf("segments %v", files)
	}
}

func TestCompressSealedSegments(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.MaxSegmentBytes = 2048
	cfg.Compress = true
	j := mustOpen(t, cfg)
	appendN(t, j, 18)
	dir := chainDirOf(cfg)
	before := map[string][]byte{}
	for _, f := range segmentFiles(t, dir) {
		before[f] = readFile(t, filepath.Join(dir, f))
	}
	live := j.live.name
	if j.due(day0) {
		t.Fatal("setup: the live segment is full, so Maintain would seal and compress it too")
	}
	sealAt := clock.Add(time.Hour)
	res, err := j.Maintain(sealAt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Compressed) != len(before)-1 || len(res.Sealed) != 0 {
		t.Fatalf("compressed %v (sealed %v) of %d segments", res.Compressed, res.Sealed, len(before))
	}
	for name, plain := range before {
		if name == live {
			if !bytes.Equal(readFile(t, filepath.Join(dir, name)), plain) {
				t.Fatal("the live segment changed")
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Fatalf("%s still exists beside its gzip", name)
		}
		f, err := os.Open(filepath.Join(dir, name+".gz"))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		_ = f.Close()
		if err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("%s.gz does not hold the segment (%v)", name, err)
		}
		// The seal time rides in the gzip header, so retention by age never decompresses.
		if zr.Name != name || !zr.ModTime.Equal(day0) {
			t.Fatalf("%s.gz header name %q time %v, want %q %v", name, zr.Name, zr.ModTime, name, day0)
		}
	}
	if st := j.Stats(); st.Bytes >= int64(len(bytes.Join(mapValues(before), nil))) {
		t.Fatalf("Stats.Bytes %d did not shrink after compression", st.Bytes)
	}
	mustVerify(t, cfg.Dir)
	// Compressed segments are not compressed again.
	if res, _ := j.Maintain(sealAt); len(res.Compressed) != 0 {
		t.Fatalf("compressed again: %v", res.Compressed)
	}
}

func mapValues(m map[string][]byte) [][]byte {
	out := make([][]byte, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// An interrupted compression leaves the gzip and the original side by side. The gzip is
// complete (it was synced before its rename), so Verify uses it and Open removes the original.
func TestInterruptedCompressionIsFinished(t *testing.T) {
	cfg, dir, first, plain := compressedFirstSegment(t)
	writeFile(t, filepath.Join(dir, first), plain)
	writeFile(t, filepath.Join(dir, "2026-11-30.00000002.jsonl.gz.tmp"), []byte("half a gzip"))
	rep := mustVerify(t, cfg.Dir)
	if notes := strings.Join(rep.Chains[0].Notes, "\n"); !strings.Contains(notes, "uncompressed copy") {
		t.Fatalf("notes %q", notes)
	}
	mustOpen(t, cfg)
	for _, leftover := range []string{first, "2026-11-30.00000002.jsonl.gz.tmp"} {
		if _, err := os.Stat(filepath.Join(dir, leftover)); !os.IsNotExist(err) {
			t.Fatalf("Open left %s behind", leftover)
		}
	}
	mustVerify(t, cfg.Dir)
}

// The uncompressed copy an interrupted compression leaves is the gzip's data exactly. One that
// differs is not that copy: verify names it (an auditor reading the plain file would read other
// records than the ones verified), and Open refuses rather than delete it.
func TestLeftoverCopyThatDiffersFromItsGzipIsBroken(t *testing.T) {
	cfg, dir, first, plain := compressedFirstSegment(t)
	i := bytes.Index(plain, []byte(`"call-`))
	plain[i+2] ^= 0x20
	writeFile(t, filepath.Join(dir, first), plain)
	rep, err := Verify(cfg.Dir)
	if !errors.Is(err, ErrBroken) {
		t.Fatalf("Verify passed a leftover copy that differs from its gzip: %v\n%s", err, dumpChains(rep))
	}
	if b := rep.FirstBreak(); b.File != first || !strings.Contains(b.What, "differs from") {
		t.Fatalf("first break %s", b)
	}
	if _, err := Open(cfg); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), first) {
		t.Fatalf("Open: %v, want ErrCorrupt naming %s", err, first)
	}
	if got := readFile(t, filepath.Join(dir, first)); !bytes.Equal(got, plain) {
		t.Fatal("Open changed the leftover copy")
	}
}

// compressedFirstSegment writes a journal whose first segment is sealed and compressed, closes
// it, and returns the segment's directory, its uncompressed name and its bytes before compression.
func compressedFirstSegment(t *testing.T) (cfg Config, dir, first string, plain []byte) {
	t.Helper()
	cfg = testConfig(t, newFakeClock(day0))
	cfg.MaxSegmentBytes = 2048
	cfg.Compress = true
	j := mustOpen(t, cfg)
	appendN(t, j, 10)
	dir = chainDirOf(cfg)
	first = segmentFiles(t, dir)[0]
	plain = readFile(t, filepath.Join(dir, first))
	if _, err := j.Maintain(day0); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return cfg, dir, first, plain
}
