package ledger

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A gzip segment's header carries its seal time, which retention reads to skip decompressing;
// but the header is outside the chain: no hash covers it, and gunzip, its trailer's CRC and
// Verify all read the same data whatever its MTIME says. Someone who can write the volume could
// set the header of recent segments to 1970 and have the writer's own retention delete them,
// with a genuine retention record that explains the deletion to every verifier. Retention must
// take a segment's age from its seal record, and refuse, naming the segment, a header that
// disagrees with it.
func TestRetentionByAgeTrustsTheSealNotTheGzipHeader(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.Compress = true
	cfg.MaxAge = 48 * time.Hour
	j := dailyLedger(t, cfg, clock, 3) // sealed on day0, +1, +2; live on +3
	if _, err := j.Maintain(clock.Now()); err != nil {
		t.Fatal(err)
	}
	before := segmentFiles(t, chainDirOf(cfg))
	// Backdate the newest sealed segment's header, and every older one (retention deletes a
	// prefix only), to 1970.
	for _, name := range before {
		if !strings.HasSuffix(name, gzipExt) {
			continue
		}
		path := filepath.Join(chainDirOf(cfg), name)
		b := readFile(t, path)
		binary.LittleEndian.PutUint32(b[4:8], 1)
		writeFile(t, path, b)
	}
	// Verify reports it: the data is intact, but the header was altered.
	if _, err := Verify(cfg.Dir); !errors.Is(err, ErrBroken) || !strings.Contains(err.Error(), "gzip header") {
		t.Fatalf("Verify: %v, want a break naming the altered gzip header", err)
	}
	res, err := j.Maintain(clock.Now())
	if len(res.Deleted) != 0 {
		t.Fatalf("retention deleted %v on the word of altered gzip headers", res.Deleted)
	}
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "gzip header") {
		t.Fatalf("Maintain: %v, want ErrCorrupt naming the altered gzip header", err)
	}
	if got := segmentFiles(t, chainDirOf(cfg)); len(got) != len(before) {
		t.Fatalf("segments %v, want all of %v kept", got, before)
	}
}

// Near miss: genuinely old segments still go, and the check costs a read only of what is deleted.
func TestRetentionByAgeStillDeletesOldSegments(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.Compress = true
	cfg.MaxAge = 12 * time.Hour // the first two were sealed 48 and 24 hours ago, the third just now
	j := dailyLedger(t, cfg, clock, 3)
	res, err := j.Maintain(clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"2026-11-30.00000001.jsonl.gz", "2026-12-01.00000002.jsonl.gz"}; strings.Join(res.Deleted, ",") != strings.Join(want, ",") {
		t.Fatalf("deleted %v, want %v", res.Deleted, want)
	}
	mustVerify(t, cfg.Dir)
}
