package ledger

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// dailyLedger writes one sealed segment per day for days days (each day's records are appended
// at noon and sealed by the next day's first append), then one live segment.
func dailyLedger(t *testing.T, cfg Config, clock *fakeClock, days int) *Journal {
	t.Helper()
	cfg.Daily = true
	j := mustOpen(t, cfg)
	for d := range days + 1 {
		clock.Set(day0.AddDate(0, 0, d))
		appendN(t, j, 3)
	}
	return j
}

func TestRetentionByCount(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.MaxSegments = 2
	cfg.Compress = true
	j := dailyLedger(t, cfg, clock, 5)
	res, err := j.Maintain(clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	wantDeleted := []string{"2026-11-30.00000001.jsonl.gz", "2026-12-01.00000002.jsonl.gz", "2026-12-02.00000003.jsonl.gz"}
	if diff := cmp.Diff(wantDeleted, res.Deleted); diff != "" {
		t.Fatalf("deleted (-want +got)\n%s", diff)
	}
	want := []string{"2026-12-03.00000004.jsonl.gz", "2026-12-04.00000005.jsonl.gz", "2026-12-05.00000006.jsonl"}
	if diff := cmp.Diff(want, segmentFiles(t, chainDirOf(cfg))); diff != "" {
		t.Fatalf("remaining (-want +got)\n%s", diff)
	}
	rep := mustVerify(t, cfg.Dir)
	c := rep.Chains[0]
	if c.RetainedAfter != "2026-12-02.00000003.jsonl" || c.FirstSeq != 16 {
		t.Fatalf("chain after retention: %s", c)
	}
	// The deletion is in the chain itself, so an auditor sees what was deleted and why.
	recs := records(t, chainDirOf(cfg))
	last := recs[len(recs)-1]
	if last.Kind != KindRetention || last.str("reason") != "maxSegments" || len(last.Fields["deleted"].([]any)) != 3 {
		t.Fatalf("last record %+v", last.entry)
	}
	if st := j.Stats(); st.Segments != 3 || st.Records != uint64(len(recs)) || st.Records != c.Records {
		t.Fatalf("Stats %+v, %d records on disk", st, len(recs))
	}
	// Retention is idempotent: nothing more to delete.
	if res, err := j.Maintain(clock.Now()); err != nil || len(res.Deleted) != 0 {
		t.Fatalf("second Maintain deleted %v (%v)", res.Deleted, err)
	}
}

func TestRetentionByAge(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.MaxAge = 48 * time.Hour
	j := dailyLedger(t, cfg, clock, 5) // segments sealed on Dec 1, 2, 3, 4, 5 at 00:00
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	res, err := j.Maintain(now)
	if err != nil {
		t.Fatal(err)
	}
	// Sealed more than 48h before Dec 5 12:00: the segments sealed Dec 1, 2 and 3 at 00:00.
	want := []string{"2026-11-30.00000001.jsonl", "2026-12-01.00000002.jsonl", "2026-12-02.00000003.jsonl"}
	if diff := cmp.Diff(want, res.Deleted); diff != "" {
		t.Fatalf("deleted (-want +got)\n%s", diff)
	}
	recs := records(t, chainDirOf(cfg))
	if last := recs[len(recs)-1]; last.str("reason") != "maxAge" || !last.time().Equal(now) {
		t.Fatalf("retention record %+v", last.entry)
	}
	mustVerify(t, cfg.Dir)
}

// With no records in a live segment, the newest seal holds the chain's head; deleting it would
// let the chain restart from nothing.
func TestRetentionKeepsTheNewestSealWhenNothingIsLive(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.MaxAge = time.Hour
	j := dailyLedger(t, cfg, clock, 2)
	later := day0.AddDate(0, 0, 10)
	res, err := j.Maintain(later) // seals the live segment, then ages out all but the newest seal
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sealed) != 1 || len(res.Deleted) != 2 {
		t.Fatalf("sealed %v deleted %v", res.Sealed, res.Deleted)
	}
	if files := segmentFiles(t, chainDirOf(cfg)); len(files) != 2 {
		// the newest sealed segment, and the live one holding the retention record
		t.Fatalf("left %v", files)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	clock.Set(later.Add(time.Hour))
	j = mustOpen(t, cfg)
	appendN(t, j, 1)
	rep := mustVerify(t, cfg.Dir)
	if rep.Chains[0].RetainedAfter == "" || len(rep.Chains[0].Gaps) != 0 {
		t.Fatalf("%s", rep.Chains[0])
	}
}

// A crash between the retention record and the deletions leaves some listed segments behind.
// They were excused by the chain, so what remains must still verify.
func TestInterruptedRetentionVerifies(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	j := dailyLedger(t, cfg, clock, 4)
	dir := chainDirOf(cfg)
	segs, err := listSegments(dir)
	if err != nil {
		t.Fatal(err)
	}
	seal, err := sealOf(dir, segs[2])
	if err != nil {
		t.Fatal(err)
	}
	// What retain writes before deleting segments 1-3.
	if err := j.appendInternal(context.Background(), KindRetention, clock.Now(), map[string]any{
		"reason": "maxSegments", "deleted": []any{segs[0].name, segs[1].name, segs[2].name},
		"through": map[string]any{"segment": segs[2].name, "seq": seal.Seq, "hash": seal.hash},
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := os.Remove(filepath.Join(dir, segs[i].file())); err != nil {
			t.Fatal(err)
		}
		mustVerify(t, cfg.Dir)
	}
}
