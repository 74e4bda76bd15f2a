//go:build linux

package ledger

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/toolgate/toolgate/internal/ledger/tmpfs"
)

// otherwise is what covers the real-volume tests where a tmpfs cannot be mounted.
const otherwise = "the simulated fault tests in faults_test.go cover this path"

// A real full volume: the kernel fails the write with ENOSPC. (tmpfs makes fsync a no-op, so
// this covers the write path; TestFsyncFailure covers a failing fsync.)
func TestDiskFullOnARealVolume(t *testing.T) {
	cfg := testConfig(t, nil)
	cfg.Dir = tmpfs.Mount(t, "128k", otherwise)
	filler := filepath.Join(cfg.Dir, "filler")
	writeFile(t, filler, make([]byte, 48<<10))
	j := mustOpen(t, cfg)
	var receipts []Receipt
	var err error
	for range 10000 {
		var r Receipt
		if r, err = j.Append(context.Background(), decision(len(receipts))); err != nil {
			break
		}
		receipts = append(receipts, r)
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("after %d records: %v, want ENOSPC", len(receipts), err)
	}
	t.Logf("the volume filled after %d records: %v", len(receipts), err)
	// The same record again: the cut-back freed exactly what the failed write took.
	failed := decision(len(receipts))
	if _, err := j.Append(context.Background(), failed); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Append on the still-full volume: %v", err)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	receipts = append(receipts, appendN(t, j, 3)...)
	failedAppendsLeaveNoTrace(t, cfg, j, receipts, 2)
	for _, p := range records(t, chainDirOf(cfg)) {
		if p.str("call") == failed.Fields["call"] {
			t.Fatalf("the failed record is on the chain at seq %d", p.Seq)
		}
	}
}

// A real read-only volume: Open must fail (the webhook then denies LedgerUnavailable), and the
// ledger must still verify, since auditors often mount volumes read-only.
func TestReadOnlyVolume(t *testing.T) {
	cfg := testConfig(t, nil)
	cfg.Dir = tmpfs.Mount(t, "1m", otherwise)
	j := mustOpen(t, cfg)
	appendN(t, j, 3)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", cfg.Dir, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Fatalf("remounting read-only: %v", err)
	}
	if j, err := Open(cfg); !errors.Is(err, syscall.EROFS) {
		if err == nil {
			_ = j.Close()
		}
		t.Fatalf("Open on a read-only volume: %v, want EROFS", err)
	}
	rep := mustVerify(t, cfg.Dir)
	if rep.Chains[0].Records != 4 {
		t.Fatalf("%s", rep.Chains[0])
	}
}
