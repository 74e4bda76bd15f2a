package ledger

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Holds answers from the segment a published head names, sealed and compressed since or live.
func TestHoldsFindsAPublishedHeadOnTheChain(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	cfg.Compress = true
	cfg.MaxSegmentBytes = 2048
	j, early := openWithEarlyHead(t, cfg)
	appendN(t, j, 20)                           // past MaxSegmentBytes: the early head's segment is sealed
	if _, err := j.Maintain(day0); err != nil { // and compressed
		t.Fatal(err)
	}
	if segs, _ := listSegments(j.dir); len(segs) < 2 || !segs[0].gz {
		t.Fatalf("fixture: want the early head's segment sealed and compressed, got %+v", segs)
	}
	live, _, _ := j.SignHead()
	for _, c := range []struct {
		name string
		h    SignedHead
		want bool
	}{
		{"the early head, in a compressed segment", early, true},
		{"the live head", live, true},
		{"another hash at the early seq", withHash(early, live.Hash), false},
		{"another hash at the live seq", withHash(live, early.Hash), false},
		{"a seq past the chain", SignedHead{Writer: live.Writer, Seq: live.Seq + 1, Hash: live.Hash, Segment: live.Segment}, false},
		{"a segment that is gone, newer than the oldest left (the chain was rebuilt)", SignedHead{Writer: live.Writer, Seq: 2, Hash: early.Hash, Segment: "2026-11-30.00000099.jsonl"}, false},
		{"a segment name that is none", SignedHead{Writer: live.Writer, Seq: 2, Hash: early.Hash, Segment: "gone"}, false},
	} {
		if got, err := j.Holds(c.h); err != nil || got != c.want {
			t.Errorf("%s: Holds = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	segs, _ := listSegments(j.dir)
	if err := os.Remove(filepath.Join(j.dir, segs[0].file())); err != nil { // by hand, not by retention
		t.Fatal(err)
	}
	if got, err := j.Holds(early); err != nil || got {
		t.Errorf("a head in a segment deleted by hand, older than every one left: Holds = %v, %v; want false (only retention excuses)", got, err)
	}
}

// A head whose segment this process's retention deleted is held: retention proves nothing
// either way. The same head after a restart, or with the segment deleted by anyone else, is not.
func TestHoldsExcusesOnlyWhatItsOwnRetentionDeleted(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	cfg.MaxSegmentBytes = 2048
	cfg.MaxSegments = 2 // Maintain, which only the test calls, deletes all but two
	j, early := openWithEarlyHead(t, cfg)
	appendN(t, j, 40)
	res, err := j.Maintain(day0)
	if err != nil || len(res.Deleted) == 0 {
		t.Fatalf("fixture: Maintain deleted %v, %v; want the early segments", res.Deleted, err)
	}
	if ok, err := HasSegment(cfg.Dir, cfg.Writer, early.Segment); err != nil || ok {
		t.Fatalf("fixture: HasSegment(%s) = %v, %v after retention", early.Segment, ok, err)
	}
	if got, err := j.Holds(early); err != nil || !got {
		t.Errorf("a head in a segment this process's retention deleted: Holds = %v, %v; want true", got, err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j = mustOpen(t, cfg)
	if got, err := j.Holds(early); err != nil || got {
		t.Errorf("the same head after a restart: Holds = %v, %v; want false (another process's deletion proves nothing)", got, err)
	}
}

// HasSegment answers from the volume, plain or compressed, and refuses names that are no
// segment's or writer's.
func TestHasSegment(t *testing.T) {
	cfg, _, segs := closedChain(t, 2048, 40)
	if ok, err := HasSegment(cfg.Dir, cfg.Writer, strings.TrimSuffix(segs[0], gzipExt)); err != nil || !ok {
		t.Errorf("HasSegment(%s) = %v, %v; want true", segs[0], ok, err)
	}
	if ok, err := HasSegment(cfg.Dir, cfg.Writer, "2026-11-30.00009999.jsonl"); err != nil || ok {
		t.Errorf("HasSegment of a missing segment = %v, %v; want false", ok, err)
	}
	for _, bad := range [][2]string{{cfg.Writer, "../x.jsonl"}, {"../etc", segs[0]}, {cfg.Writer, segs[0] + gzipExt}} {
		if _, err := HasSegment(cfg.Dir, bad[0], bad[1]); err == nil {
			t.Errorf("HasSegment(%q, %q): no error", bad[0], bad[1])
		}
	}
}

func withHash(h SignedHead, hash string) SignedHead {
	h.Hash = hash
	return h
}

// A writer rolled back and writing on, the next day, under new segment names, passes the seq it
// published: the head's segment is gone but newer than what is left, so it is not held.
func TestHoldsRefusesAChainRebuiltPastThePublishedHead(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.SigningKey = testKey(1)
	cfg.MaxSegmentBytes = 2048
	j := mustOpen(t, cfg)
	appendN(t, j, 3)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	snapshot := t.TempDir()
	if err := os.CopyFS(snapshot, os.DirFS(chainDirOf(cfg))); err != nil {
		t.Fatal(err)
	}
	j = mustOpen(t, cfg)
	appendN(t, j, 40)
	published, ok, err := j.SignHead()
	if err != nil || !ok {
		t.Fatalf("SignHead: %v %v", ok, err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	if err := os.RemoveAll(chainDirOf(cfg)); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(chainDirOf(cfg), os.DirFS(snapshot)); err != nil {
		t.Fatal(err)
	}
	clock.Set(day0.Add(24 * time.Hour))
	j = mustOpen(t, cfg)
	defer func() { _ = j.Close() }()
	appendN(t, j, 80)
	if st := j.Stats(); st.HeadSeq <= published.Seq {
		t.Fatalf("fixture: the rebuilt chain is at seq %d, not past the published %d", st.HeadSeq, published.Seq)
	}
	if got, err := j.Holds(published); err != nil || got {
		t.Errorf("Holds = %v, %v for a head the rolled-back chain never had; want false", got, err)
	}
}

// openWithEarlyHead opens a signing journal with cfg, appends five records and signs its head.
func openWithEarlyHead(t *testing.T, cfg Config) (*Journal, SignedHead) {
	t.Helper()
	cfg.SigningKey = testKey(1)
	j := mustOpen(t, cfg)
	appendN(t, j, 5)
	early, ok, err := j.SignHead()
	if err != nil || !ok {
		t.Fatalf("SignHead: %v %v", ok, err)
	}
	return j, early
}
