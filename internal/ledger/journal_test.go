package ledger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestReceiptsNameDurableRecords(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	j := mustOpen(t, cfg)
	got := appendN(t, j, 5)
	recs := records(t, chainDirOf(cfg))
	// Line 1 is the segment header; the caller's records follow it in order.
	if len(recs) != 6 || recs[0].Kind != KindSegment {
		t.Fatalf("want a header and 5 records, got %d records starting with %q", len(recs), recs[0].Kind)
	}
	for i, r := range got {
		p := recs[i+1]
		if p.Seq != r.Seq || p.hash != r.Hash || p.str("call") != fmt.Sprintf("call-%d", i) {
			t.Fatalf("receipt %d = %+v, record on disk seq %d hash %s call %s", i, r, p.Seq, p.hash, p.str("call"))
		}
	}
	st := j.Stats()
	want := Stats{Writer: "webhook-0", Records: 6, Segments: 1, Bytes: st.Bytes, HeadSeq: 6, HeadHash: got[4].Hash}
	if st != want || st.Bytes == 0 {
		t.Fatalf("Stats = %+v, want %+v", st, want)
	}
}

// Group commit is the reason the journal can afford an fsync per decision: concurrent appends
// must share fsyncs, and each must still get back its own record.
func TestConcurrentAppendsShareFsyncs(t *testing.T) {
	fs := newFaultFS()
	cfg := testConfig(t, nil)
	cfg.openFile = fs.open
	j := mustOpen(t, cfg)
	const workers, each = 64, 20
	var mu sync.Mutex
	receipts := map[uint64]string{}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				r, err := j.Append(context.Background(), Record{Kind: "decision", Fields: map[string]any{"w": w, "i": i}})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if _, dup := receipts[r.Seq]; dup {
					t.Errorf("seq %d handed out twice", r.Seq)
				}
				receipts[r.Seq] = r.Hash
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	onDisk := map[uint64]string{}
	for _, p := range records(t, chainDirOf(cfg)) {
		onDisk[p.Seq] = p.hash
	}
	for seq, h := range receipts {
		if onDisk[seq] != h {
			t.Fatalf("receipt seq %d hash %s not on disk (disk has %q)", seq, h, onDisk[seq])
		}
	}
	_, syncs := fs.counts()
	t.Logf("%d records, %d fsyncs (%.1f records per fsync)", len(receipts), syncs, float64(len(receipts))/float64(syncs))
	if syncs >= len(receipts) {
		t.Fatalf("%d fsyncs for %d records: appends were not grouped", syncs, len(receipts))
	}
	mustVerify(t, cfg.Dir)
}

// The benchmark's comparison mode must really sync every record, or the comparison means nothing.
func TestSyncEachFsyncsEveryRecord(t *testing.T) {
	fs := newFaultFS()
	cfg := testConfig(t, nil)
	cfg.openFile, cfg.syncEach = fs.open, true
	j := mustOpen(t, cfg)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { appendN(t, j, 10) })
	}
	wg.Wait()
	if writes, syncs := fs.counts(); writes != 80 || syncs != 80 {
		t.Fatalf("%d writes and %d fsyncs for 80 records, want 80 each", writes, syncs)
	}
}

func TestAppendRejectsBadRecords(t *testing.T) {
	cfg := testConfig(t, nil)
	j := mustOpen(t, cfg)
	appendN(t, j, 1)
	before := j.Stats()
	tests := []struct {
		name string
		r    Record
	}{
		{"segment headers are the journal's", Record{Kind: KindSegment}},
		{"seals are the journal's", Record{Kind: KindSeal}},
		{"retention records are the journal's", Record{Kind: KindRetention}},
		{"a kind is required", Record{}},
		{"kinds are short", Record{Kind: string(make([]byte, 65))}},
		{"fields must encode as JSON", Record{Kind: "decision", Fields: map[string]any{"f": func() {}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := j.Append(context.Background(), tt.r); err == nil {
				t.Fatal("Append accepted it")
			}
		})
	}
	if after := j.Stats(); after != before {
		t.Fatalf("a rejected record changed the chain: %+v -> %+v", before, after)
	}
}

func TestAppendWithEndedContextWritesNothing(t *testing.T) {
	cfg := testConfig(t, nil)
	j := mustOpen(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := j.Append(ctx, decision(0)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Append with a cancelled context: %v", err)
	}
	if st := j.Stats(); st.HeadSeq != 0 {
		t.Fatalf("something was written: %+v", st)
	}
}

func TestAppendAfterClose(t *testing.T) {
	cfg := testConfig(t, nil)
	j := mustOpen(t, cfg)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Append(context.Background(), decision(0)); !errors.Is(err, ErrClosed) {
		t.Fatalf("Append after Close: %v", err)
	}
	if _, err := j.Maintain(day0); !errors.Is(err, ErrClosed) {
		t.Fatalf("Maintain after Close: %v", err)
	}
	if err := j.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// Never two writers on one chain: a second journal for the same writer must be refused while
// the first is open, and allowed once it is closed.
func TestOneJournalPerWriter(t *testing.T) {
	cfg := testConfig(t, nil)
	j := mustOpen(t, cfg)
	if _, err := Open(cfg); !errors.Is(err, ErrWriterInUse) {
		t.Fatalf("second Open of the same writer: %v", err)
	}
	other := cfg
	other.Writer = "webhook-1"
	mustOpen(t, other)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	mustOpen(t, cfg)
}

func TestReopenContinuesTheChain(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	j := mustOpen(t, cfg)
	first := appendN(t, j, 3)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j = mustOpen(t, cfg)
	if st := j.Stats(); st.HeadSeq != first[2].Seq || st.HeadHash != first[2].Hash || st.Records != 4 || !st.LastRotation.IsZero() {
		t.Fatalf("reopened journal has %+v, want head %+v and 4 records", st, first[2])
	}
	next := appendN(t, j, 1)
	if next[0].Seq != first[2].Seq+1 {
		t.Fatalf("seq after reopen %d, want %d", next[0].Seq, first[2].Seq+1)
	}
	rep := mustVerify(t, cfg.Dir)
	if c := rep.Chains[0]; c.Records != 5 || len(c.Gaps) != 0 || c.Segments != 1 {
		t.Fatalf("after a clean reopen: %s", c)
	}
}

func TestWritersKeepSeparateChains(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	a := mustOpen(t, cfg)
	cfgB := cfg
	cfgB.Writer = "webhook-1"
	b := mustOpen(t, cfgB)
	for i := range 4 {
		clock.Add(time.Second)
		appendN(t, a, 1)
		clock.Add(time.Second)
		if _, err := b.Append(context.Background(), decision(100+i)); err != nil {
			t.Fatal(err)
		}
	}
	rep := mustVerify(t, cfg.Dir)
	if len(rep.Chains) != 2 || rep.Chains[0].Writer != "webhook-0" || rep.Chains[1].Writer != "webhook-1" ||
		rep.Chains[0].LastSeq != 5 || rep.Chains[1].LastSeq != 5 {
		t.Fatalf("chains: %s", dumpChains(rep))
	}
}

func TestOpenRejectsBadConfig(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	writeFile(t, notDir, []byte("x"))
	tests := []struct {
		name string
		cfg  Config
	}{
		{"no dir", Config{Writer: "w"}},
		{"no writer", Config{Dir: dir}},
		{"writer escaping the dir", Config{Dir: dir, Writer: "../w"}},
		{"writer with a slash", Config{Dir: dir, Writer: "a/b"}},
		{"hidden writer", Config{Dir: dir, Writer: ".w"}},
		{"negative limit", Config{Dir: dir, Writer: "w", MaxSegments: -1}},
		{"dir is a file", Config{Dir: notDir, Writer: "w"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if j, err := Open(tt.cfg); err == nil {
				_ = j.Close()
				t.Fatal("Open accepted it")
			}
		})
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("a rejected Open created files: %v", ents)
	}
}

// ObserveCommit is how the manager measures the disk's share of a decision's latency: it must
// see every batch made durable once, with the records that batch held, and no batch that failed.
func TestObserveCommitSeesEachDurableBatchOnce(t *testing.T) {
	fs := newFaultFS()
	cfg := testConfig(t, nil)
	cfg.openFile = fs.open
	var mu sync.Mutex
	var batches, observed int
	var slowest time.Duration
	cfg.ObserveCommit = func(records int, took time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		if records < 1 || took <= 0 {
			t.Errorf("observed a commit of %d records taking %v", records, took)
		}
		batches++
		observed += records
		slowest = max(slowest, took)
	}
	j := mustOpen(t, cfg)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() { appendN(t, j, 10) })
	}
	wg.Wait()
	_, syncs := fs.counts()
	mu.Lock()
	if observed != 160 || batches != syncs {
		t.Fatalf("observed %d records in %d batches; want the 160 appended, in the %d batches synced", observed, batches, syncs)
	}
	mu.Unlock()

	fs.set(func(fs *faultFS) { fs.datasyncErr = syscall.EIO })
	if _, err := j.Append(context.Background(), Record{Kind: "decision", Fields: map[string]any{"lost": true}}); err == nil {
		t.Fatal("an append whose sync failed returned a receipt")
	}
	mu.Lock()
	defer mu.Unlock()
	if observed != 160 {
		t.Fatalf("a failed batch was observed: %d records", observed-160)
	}
	t.Logf("%d batches, slowest %v", batches, slowest)
}
