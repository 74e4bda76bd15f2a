package ledger

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Reconfigure 60 times while 16 goroutines append and another runs Maintain: every receipt is on the
// chain, the chain verifies, and -race finds no unguarded setting.
func TestReconfigureUnderConcurrentAppends(t *testing.T) {
	clock := newFakeClock(day0)
	cfg := testConfig(t, clock)
	cfg.MaxSegmentBytes = 4096
	j := mustOpen(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var receipts []Receipt
	errs := make(chan error, 32)
	for w := range 16 {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				r, err := j.Append(context.Background(), Record{Kind: "decision", Fields: map[string]any{
					"call": fmt.Sprintf("w%d-%d", w, i), "sessionId": "s", "message": strings.Repeat("m", 200)}})
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				receipts = append(receipts, r)
				mu.Unlock()
			}
		})
	}
	wg.Go(func() {
		for ctx.Err() == nil {
			if _, err := j.Maintain(clock.Now()); err != nil {
				errs <- err
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
	settings := []Config{
		{MaxSegmentBytes: 2048, Compress: true, RedactKeys: []string{"session"}, MaxStringLength: 64},
		{MaxSegmentBytes: 1 << 20, Daily: true, MaxSegments: 3},
		{MaxSegmentBytes: 8192, Compress: true, MaxAge: time.Hour, RedactKeys: []string{"call"}},
		{},
	}
	start := time.Now()
	for i := range 60 {
		if _, err := j.Reconfigure(settings[i%len(settings)]); err != nil {
			t.Fatalf("Reconfigure %d: %v", i, err)
		}
		if i%15 == 14 {
			clock.Add(time.Hour) // crosses midnight once, while Daily is on some of the time
		}
		time.Sleep(200 * time.Microsecond)
	}
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if len(receipts) == 0 {
		t.Fatal("no appends ran while reconfiguring")
	}
	onDisk := map[uint64]string{}
	for _, p := range records(t, chainDirOf(cfg)) {
		onDisk[p.Seq] = p.hash
	}
	retained := mustVerify(t, cfg.Dir).Chains[0].FirstSeq
	for _, r := range receipts {
		if r.Seq >= retained && onDisk[r.Seq] != r.Hash {
			t.Fatalf("receipt %+v is not on the chain", r)
		}
	}
	t.Logf("%d appends during 60 reconfigurations in %v", len(receipts), time.Since(start))
}

// A smaller MaxSegmentBytes takes effect on the running journal: the next Maintain seals the
// live segment that is now too big, and later segments are sealed at the new size.
func TestReconfigureRotationSize(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	j := mustOpen(t, cfg)
	appendN(t, j, 12) // about 5 KB, far below the default 64 MiB
	if res, err := j.Maintain(day0); err != nil || len(res.Sealed) != 0 {
		t.Fatalf("Maintain before reconfiguring sealed %v (%v)", res.Sealed, err)
	}
	changed, err := j.Reconfigure(Config{MaxSegmentBytes: 2048, Compress: true, MaxSegments: 2})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"MaxSegmentBytes", "Compress", "MaxSegments"}, changed); diff != "" {
		t.Fatalf("changed (-want +got)\n%s", diff)
	}
	if got := j.Settings(); got.MaxSegmentBytes != 2048 || !got.Compress || got.MaxSegments != 2 || got.Dir != cfg.Dir {
		t.Fatalf("Settings %+v", got)
	}
	res, err := j.Maintain(day0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"2026-11-30.00000001.jsonl"}, res.Sealed); diff != "" {
		t.Fatalf("sealed (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"2026-11-30.00000001.jsonl.gz"}, res.Compressed); diff != "" {
		t.Fatalf("compressed (-want +got)\n%s", diff)
	}
	// The committer now seals at 2 KiB by itself, and retention keeps two sealed segments.
	appendN(t, j, 30)
	if _, err := j.Maintain(day0); err != nil {
		t.Fatal(err)
	}
	segs, err := listSegments(chainDirOf(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 3 || !segs[0].gz || !segs[1].gz {
		t.Fatalf("segments %v, want two sealed and compressed and the live one", segmentFiles(t, chainDirOf(cfg)))
	}
	for _, s := range segs[:2] {
		last, err := lastRecord(chainDirOf(cfg), s)
		if err != nil {
			t.Fatal(err)
		}
		if last.Kind != KindSeal || last.num("bytes") < 2048 || last.num("bytes") > 2048+1024 {
			t.Fatalf("%s ends in %q at %d bytes", s.file(), last.Kind, last.num("bytes"))
		}
	}
	rep := mustVerify(t, cfg.Dir)
	if rep.Chains[0].RetainedAfter == "" {
		t.Fatalf("retention did not run with the new MaxSegments: %s", rep.Chains[0])
	}
}

// A redaction change applies to records appended afterwards; records already on disk keep what
// they were written with, and the chain verifies across the change.
func TestReconfigureRedactionAppliesToLaterRecords(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	j := mustOpen(t, cfg)
	long := strings.Repeat("x", 300)
	rec := func(n int) Record {
		return Record{Kind: "decision", Fields: map[string]any{"call": fmt.Sprint(n), "sessionId": fmt.Sprintf("s%d", n), "message": long}}
	}
	if _, err := j.Append(context.Background(), rec(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Reconfigure(Config{RedactKeys: []string{" Session "}, MaxStringLength: 100}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Append(context.Background(), rec(2)); err != nil {
		t.Fatal(err)
	}
	// And back: later records are written in full again.
	if _, err := j.Reconfigure(Config{}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Append(context.Background(), rec(3)); err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, p := range records(t, chainDirOf(cfg)) {
		if p.Kind == "decision" {
			got[p.str("call")] = [2]string{p.str("sessionId"), p.str("message")}
		}
	}
	want := map[string][2]string{
		"1": {"s1", long},
		"2": {Redacted, strings.Repeat("x", 100) + "…[truncated 200 bytes]"},
		"3": {"s3", long},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("records (-want +got)\n%s", diff)
	}
	mustVerify(t, cfg.Dir)
}

func TestReconfigureRefusesAndChangesNothing(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	cfg.MaxSegmentBytes = 4096
	cfg.RedactKeys = []string{"session"}
	j := mustOpen(t, cfg)
	before := j.Settings()
	tests := []struct {
		name  string
		cfg   Config
		field string
		index int
		msg   string
	}{
		{"negative size", Config{MaxSegmentBytes: -1}, "MaxSegmentBytes", -1, "Config.MaxSegmentBytes must not be negative, got -1"},
		{"negative age", Config{MaxAge: -time.Second}, "MaxAge", -1, "Config.MaxAge must not be negative"},
		{"negative count", Config{MaxSegments: -2}, "MaxSegments", -1, "Config.MaxSegments must not be negative, got -2"},
		{"negative length", Config{MaxStringLength: -5}, "MaxStringLength", -1, "Config.MaxStringLength must not be negative"},
		{"blank key", Config{RedactKeys: []string{"cookie", "  "}}, "RedactKeys", 1, `Config.RedactKeys[1] is blank ("  ")`},
		{"invalid key", Config{RedactKeys: []string{"\xff"}}, "RedactKeys", 0, "Config.RedactKeys[0] is not valid UTF-8"},
		{"another directory", Config{Dir: t.TempDir()}, "Dir", -1, "Config.Dir cannot change on a running journal"},
		{"another writer", Config{Writer: "webhook-1"}, "Writer", -1, "Config.Writer cannot change on a running journal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changed, err := j.Reconfigure(tt.cfg)
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != tt.field || ce.Index != tt.index || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("Reconfigure: %v (changed %v), want a ConfigError for %s[%d] saying %q", err, changed, tt.field, tt.index, tt.msg)
			}
			if diff := cmp.Diff(before, j.Settings(), cmpopts.IgnoreUnexported(Config{}), cmpopts.IgnoreFields(Config{}, "Clock")); diff != "" {
				t.Fatalf("a refused configuration changed the journal (-before +after)\n%s", diff)
			}
		})
	}
	// The same settings again change nothing and say so; the same Dir and Writer are accepted.
	if changed, err := j.Reconfigure(Config{Dir: cfg.Dir, Writer: cfg.Writer, MaxSegmentBytes: 4096, RedactKeys: []string{"session"}}); err != nil || changed != nil {
		t.Fatalf("Reconfigure with the current settings: %v, %v", changed, err)
	}
	// Open refuses the same values with the same error.
	bad := testConfig(t, nil)
	bad.RedactKeys = []string{""}
	var ce *ConfigError
	if _, err := Open(bad); !errors.As(err, &ce) || ce.Field != "RedactKeys" {
		t.Fatalf("Open with a blank redaction key: %v", err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Reconfigure(Config{}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Reconfigure after Close: %v, want ErrClosed", err)
	}
}
