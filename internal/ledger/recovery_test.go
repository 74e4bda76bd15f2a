package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// closedLedger writes n records in one live segment and closes the journal, as a crash would
// leave it (a crash leaves the same files; Close only releases them).
func closedLedger(t *testing.T, n int) (Config, []Receipt, string) {
	t.Helper()
	cfg := testConfig(t, newFakeClock(day0))
	j := mustOpen(t, cfg)
	got := appendN(t, j, n)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	files := segmentFiles(t, chainDirOf(cfg))
	return cfg, got, filepath.Join(chainDirOf(cfg), files[len(files)-1])
}

func TestOpenRecoversATornTail(t *testing.T) {
	sample, _ := appendLine(nil, unacknowledged, day0, "webhook-0", "decision", []byte(`{"call":"call-torn"}`))
	tests := []struct {
		name string
		tail []byte
	}{
		{"half a record (a write cut short)", sample[:len(sample)/2]},
		{"a record without its newline", sample[:len(sample)-1]},
		{"a complete line that is not a valid record", []byte("{\"seq\":99,\"garbage\"}\n")},
		{"a last record with one byte changed", flipByte(sample)},
		// In place, a power loss can keep a later page of a batch and lose an earlier one.
		{"zeros, then the rest of a record (an earlier page of the write lost)", append(make([]byte, 100), sample[50:]...)},
		// ... and the later pages it kept may hold whole records of the batch.
		{"zeros, then whole records (an earlier page of the write lost, later ones kept)",
			slices.Concat(make([]byte, 100), sample[50:], sample, sample)},
	}
	// The writer tears a batch inside the preallocated zeros (the file keeps its size); a file
	// cut to its data and appended to is how a copy of an older ledger (or a person) leaves it.
	layouts := []struct {
		name  string
		place func(good, tail []byte, size int) []byte
	}{
		{"in the preallocated space", func(good, tail []byte, size int) []byte {
			b := append(bytes.Clone(good), tail...)
			return append(b, make([]byte, max(size-len(b), 1))...)
		}},
		{"at the end of the file", func(good, tail []byte, _ int) []byte { return append(bytes.Clone(good), tail...) }},
	}
	for _, tt := range tests {
		for _, layout := range layouts {
			t.Run(tt.name+"/"+layout.name, func(t *testing.T) {
				cfg, got, live := closedLedger(t, 3)
				good := segmentData(t, live)
				writeFile(t, live, layout.place(good, tt.tail, len(readFile(t, live))))
				if _, err := Verify(cfg.Dir); !errors.Is(err, ErrBroken) {
					t.Fatalf("Verify before recovery: %v, want the tail reported", err)
				}
				checkTornTailRecovered(t, cfg, got, live, good, tt.tail)
			})
		}
	}
}

// checkTornTailRecovered opens a ledger whose live segment holds good and then the torn tail, and
// checks that recovery cut exactly the tail, kept it, recorded it, and that the chain goes on.
func checkTornTailRecovered(t *testing.T, cfg Config, got []Receipt, live string, good, tail []byte) {
	t.Helper()
	j := mustOpen(t, cfg)
	if b := segmentData(t, live); !bytes.HasPrefix(b, good) {
		t.Fatal("recovery changed records before the tail")
	}
	after := appendN(t, j, 1)
	rep := mustVerify(t, cfg.Dir)
	c := rep.Chains[0]
	last := got[len(got)-1]
	if len(c.Gaps) != 1 {
		t.Fatalf("gaps %v, want exactly the one recovery recorded", c.Gaps)
	}
	g := c.Gaps[0]
	if g.Reason != GapTornTail || g.LostBytes != int64(len(tail)) || g.LastGoodSeq != last.Seq || g.Seq != last.Seq+1 {
		t.Fatalf("gap %+v, want torn tail of %d bytes after seq %d", g, len(tail), last.Seq)
	}
	// The cut bytes are kept for forensics, and the gap record names them with their hash.
	if saved := readFile(t, filepath.Join(chainDirOf(cfg), g.SavedAs)); !bytes.Equal(saved, tail) {
		t.Fatalf("saved %q, want %q", saved, tail)
	}
	recs := records(t, chainDirOf(cfg))
	sum := sha256.Sum256(tail)
	if gap := recs[g.Seq-1]; gap.str("lostSha256") != hex.EncodeToString(sum[:]) || gap.str("lastGoodHash") != last.Hash {
		t.Fatalf("gap record %v", gap.Fields)
	}
	// Writing continues on the same chain.
	if after[0].Seq != last.Seq+2 || recs[len(recs)-1].hash != after[0].Hash {
		t.Fatalf("append after recovery %+v", after[0])
	}
	if st := j.Stats(); st.HeadSeq != after[0].Seq {
		t.Fatalf("Stats %+v", st)
	}
}

// Damage followed by valid records is not a torn write. Open must refuse rather than cut away
// evidence, and leave the file exactly as it was.
func TestOpenRefusesDamageBeforeValidRecords(t *testing.T) {
	cfg, _, live := closedLedger(t, 4)
	original := readFile(t, live)
	lines := bytes.SplitAfter(bytes.Clone(original), []byte("\n"))
	lines[2] = flipByte(lines[2])
	damaged := bytes.Join(lines, nil)
	writeFile(t, live, damaged)
	_, err := Open(cfg)
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("Open: %v, want ErrCorrupt naming line 3", err)
	}
	if !bytes.Equal(readFile(t, live), damaged) {
		t.Fatal("Open changed the damaged segment")
	}
	// It released the writer: after a person repairs the segment, Open works.
	writeFile(t, live, original)
	mustOpen(t, cfg)
}

// Zeros before whole records are a torn batch only within one write's span: beyond it they are
// damage (a lost write far from the end, or an edit), and Open refuses as for any other.
func TestOpenRefusesZerosBeforeRecordsBeyondOneWrite(t *testing.T) {
	cfg, _, live := closedLedger(t, 3)
	good := segmentData(t, live)
	sample, _ := appendLine(nil, unacknowledged, day0, "webhook-0", "decision", []byte(`{"call":"call-torn"}`))
	tail := make([]byte, 100)
	for len(tail) <= maxSyncBytes+tornSlack {
		tail = append(tail, sample...)
	}
	damaged := append(bytes.Clone(good), tail...)
	writeFile(t, live, damaged)
	if _, err := Open(cfg); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open: %v, want ErrCorrupt", err)
	}
	if !bytes.Equal(readFile(t, live), damaged) {
		t.Fatal("Open changed the damaged segment")
	}
	// One write's worth less, and it is the torn batch it looks like.
	writeFile(t, live, append(bytes.Clone(good), tail[:maxSyncBytes]...))
	mustOpen(t, cfg)
}

// One write puts at most maxSyncBytes in place, whatever the writer's name and the records'
// kinds (the line's overhead is counted as written, not estimated), so a power loss during any
// write leaves what recovery takes for a torn batch: here the first page of the largest write is
// lost and its later pages kept, and Open must recover rather than refuse.
func TestOneWriteStaysWithinTheTornBatchBound(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	cfg.Writer = strings.Repeat("w", 253) // the longest writer name
	cfg.MaxSegmentBytes = 64 << 20
	j := mustOpen(t, cfg)
	durable := appendN(t, j, 3)[2] // the last record before the batch
	batch := make([]*pending, 20000)
	for i := range batch {
		batch[i] = &pending{kind: "decision", at: day0, done: make(chan struct{}, 1),
			fields: encoded{b: fmt.Appendf(nil, `{"call":"c-%d"}`, i)}}
	}
	type write struct {
		off, size int64
		before    Receipt // the last record made durable before it
	}
	var writes []write
	for rest := batch; len(rest) > 0; {
		w := write{off: j.live.size, before: durable}
		n := j.commit(rest)
		if n < 1 || rest[n-1].err != nil {
			t.Fatalf("commit took %d records: %v", n, rest[max(n-1, 0)].err)
		}
		w.size, durable = j.live.size-w.off, rest[n-1].rec
		writes = append(writes, w)
		rest = rest[n:]
	}
	if len(writes) < 2 {
		t.Fatalf("%d records of a 253-character writer went in one write", len(batch))
	}
	largest := writes[0]
	for _, w := range writes {
		if w.size > maxSyncBytes {
			t.Fatalf("a write of %d bytes, more than maxSyncBytes (%d)", w.size, maxSyncBytes)
		}
		if w.size > largest.size {
			largest = w
		}
	}
	live := j.live.name
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(chainDirOf(cfg), live)
	b := readFile(t, path)
	// A power loss during the largest write: its first page never landed (still zeros), its
	// later pages did; nothing after it was written, and the head file names the record before it.
	end := largest.off + largest.size
	clear(b[largest.off:min((largest.off/4096+1)*4096, end)])
	clear(b[end:])
	writeFile(t, path, b)
	h, err := openHead(chainDirOf(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.write(position{seq: largest.before.Seq, hash: largest.before.Hash}, live); err != nil {
		t.Fatal(err)
	}
	_ = h.close()
	j = mustOpen(t, cfg)
	c := mustVerify(t, cfg.Dir).Chains[0]
	if len(c.Gaps) != 1 || c.Gaps[0].Reason != GapTornTail || c.Gaps[0].LastGoodSeq != largest.before.Seq {
		t.Fatalf("gaps %+v, want the torn write after seq %d", c.Gaps, largest.before.Seq)
	}
	_ = j.Close()
}

// Zeros before whole records that the head file names as durable are no torn batch, however
// close to the end: those records were acknowledged. Open refuses and changes nothing.
func TestOpenRefusesZerosBeforeAcknowledgedRecords(t *testing.T) {
	cfg, _, live := closedLedger(t, 10)
	b := readFile(t, live)
	i := 0
	for range 4 {
		i += bytes.IndexByte(b[i:], '\n') + 1
	}
	b[i+10] = 0 // a NUL in the fifth line; the head file names the tenth record
	writeFile(t, live, b)
	if _, err := Open(cfg); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open: %v, want ErrCorrupt", err)
	}
	if !bytes.Equal(readFile(t, live), b) {
		t.Fatal("Open changed the damaged segment")
	}
}

// Whole records cut at a line boundary still chain; only the head file shows they were durable.
// Recovery must record the loss in the chain before the head moves on.
func TestOpenRecordsMissingAcknowledgedRecords(t *testing.T) {
	cfg, got, live := closedLedger(t, 5)
	lines := bytes.SplitAfter(readFile(t, live), []byte("\n"))
	writeFile(t, live, bytes.Join(lines[:len(lines)-3], nil)) // the last two records (and the empty split)
	j := mustOpen(t, cfg)
	appendN(t, j, 1)
	rep := mustVerify(t, cfg.Dir)
	gaps := rep.Chains[0].Gaps
	if len(gaps) != 1 || gaps[0].Reason != GapRecordsMissing || gaps[0].LostRecords != 2 || gaps[0].LastGoodSeq != got[2].Seq {
		t.Fatalf("gaps %+v", gaps)
	}
}

func TestOpenAfterCrashBeforeTheFirstWriteOfASegment(t *testing.T) {
	tests := []struct {
		name    string
		content []byte
		gaps    int
	}{
		{"empty file (crash after create)", nil, 0},
		{"torn header (crash during the first write)", []byte(`{"seq":7,"time":"2026-11-30T10:00:00Z","wri`), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, dir, files := closedChain(t, 1500, 6) // seals the first segment, writes into the second
			if len(files) != 2 {
				t.Fatalf("setup: %d segments, want 2", len(files))
			}
			if err := os.Remove(filepath.Join(dir, files[1])); err != nil {
				t.Fatal(err)
			}
			// The chain ended at the first seal; the next segment was created but never
			// written. Its head file would name that seal.
			seal, err := lastRecordPlain(filepath.Join(dir, files[0]))
			if err != nil {
				t.Fatal(err)
			}
			h, _ := openHead(dir)
			_ = h.write(seal.position(), seal.str("segment"))
			_ = h.close()
			writeFile(t, filepath.Join(dir, "2026-11-30.00000002.jsonl"), tt.content)

			j := mustOpen(t, cfg)
			got := appendN(t, j, 1)
			rep := mustVerify(t, cfg.Dir)
			if len(rep.Chains[0].Gaps) != tt.gaps || got[0].Seq != seal.Seq+2+uint64(tt.gaps) {
				t.Fatalf("gaps %v, receipt %+v after seal seq %d", rep.Chains[0].Gaps, got[0], seal.Seq)
			}
		})
	}
}

// The procedure docs/ledger.md gives after ErrCorrupt: move the damaged segment aside, and the
// chain continues from the previous seal with the loss recorded.
func TestManualRecoveryAfterCorruption(t *testing.T) {
	cfg, dir, files := closedChain(t, 1500, 8)
	live := filepath.Join(dir, files[len(files)-1])
	lines := bytes.SplitAfter(readFile(t, live), []byte("\n"))
	if len(lines) < 4 {
		t.Fatalf("setup: live segment has %d lines", len(lines))
	}
	lines[1] = flipByte(lines[1])
	writeFile(t, live, bytes.Join(lines, nil))
	if _, err := Open(cfg); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open: %v", err)
	}
	if err := os.Rename(live, live+".damaged"); err != nil {
		t.Fatal(err)
	}
	j := mustOpen(t, cfg)
	appendN(t, j, 1)
	rep := mustVerify(t, cfg.Dir)
	if g := rep.Chains[0].Gaps; len(g) != 1 || g[0].Reason != GapRecordsMissing || g[0].LostRecords != uint64(len(lines)-1) {
		t.Fatalf("gaps %+v, want the %d records of the damaged segment", g, len(lines)-1)
	}
}

// unacknowledged is a position past any these tests' head files name: records after it are
// newer than every acknowledged one, as a torn batch's are.
var unacknowledged = position{seq: 1000, hash: genesis().hash}
