package ledger

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// benchDir is where benchmark ledgers go: LEDGER_BENCH_DIR (to measure a particular disk, such
// as a mounted PersistentVolume) or the test's temporary directory.
func benchDir(b *testing.B) string {
	b.Helper()
	root := os.Getenv("LEDGER_BENCH_DIR")
	if root == "" {
		return b.TempDir()
	}
	dir, err := os.MkdirTemp(root, "ledger-bench-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// BenchmarkAppend measures durable records per second: every Append returns only after its
// record is fsynced. group-commit is the journal as shipped; fsync-per-record gives every
// record its own write and fsync (Config.syncEach), on the same disk, as the baseline.
func BenchmarkAppend(b *testing.B) {
	for _, mode := range []struct {
		name string
		each bool
	}{{"group-commit", false}, {"fsync-per-record", true}} {
		for _, appenders := range []int{1, 64} {
			b.Run(fmt.Sprintf("%s/appenders=%d", mode.name, appenders), func(b *testing.B) {
				fs := newFaultFS() // counts fsyncs; injects nothing
				j, err := Open(Config{Dir: benchDir(b), Writer: "bench", openFile: fs.open, syncEach: mode.each})
				if err != nil {
					b.Fatal(err)
				}
				defer func() { _ = j.Close() }()
				rec := decision(0)
				var next atomic.Int64
				var wg sync.WaitGroup
				b.ResetTimer()
				start := time.Now()
				for range appenders {
					wg.Go(func() {
						for next.Add(1) <= int64(b.N) {
							if _, err := j.Append(context.Background(), rec); err != nil {
								b.Error(err)
								return
							}
						}
					})
				}
				wg.Wait()
				elapsed := time.Since(start)
				b.StopTimer()
				_, syncs := fs.counts()
				b.ReportMetric(float64(b.N)/elapsed.Seconds(), "records/s")
				b.ReportMetric(float64(b.N)/float64(syncs), "records/fsync")
			})
		}
	}
}

// BenchmarkEncodeRecord is the CPU cost of preparing one decision (encode, redact, truncate),
// paid by the caller's goroutine outside the commit path.
func BenchmarkEncodeRecord(b *testing.B) {
	r := newRedactor(nil, DefaultMaxStringLength)
	fields := decision(0).Fields
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.encode(fields); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify is verification throughput over gzip segments, in decompressed bytes.
func BenchmarkVerify(b *testing.B) {
	cfg := Config{Dir: b.TempDir(), Writer: "w", MaxSegmentBytes: 1 << 20, Compress: true}
	j, err := Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() { appendN(b, j, 200) })
	}
	wg.Wait()
	if _, err := j.Maintain(time.Now()); err != nil {
		b.Fatal(err)
	}
	_ = j.Close()
	var size int64
	for _, p := range records(b, chainDirOf(cfg)) {
		size += int64(len(mustCanonicalB(b, p))) // approximate: fields re-encoded
	}
	b.SetBytes(size)
	for b.Loop() {
		if _, err := Verify(cfg.Dir); err != nil {
			b.Fatal(err)
		}
	}
}

func mustCanonicalB(b *testing.B, p parsed) []byte {
	fields, err := appendCanonical(nil, p.Fields)
	if err != nil {
		b.Fatal(err)
	}
	return appendBody(nil, p.Seq, p.Time, p.Writer, p.Kind, fields, p.PrevHash)
}
