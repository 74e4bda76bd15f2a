package ledger

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// failedAppendsLeaveNoTrace checks what every failure must guarantee: each receipt handed out is
// on the chain, no failed record is, nothing partial is left behind, and the chain verifies
// without a gap once the volume works again.
func failedAppendsLeaveNoTrace(t *testing.T, cfg Config, j *Journal, receipts []Receipt, lost uint64) {
	t.Helper()
	if st := j.Stats(); st.LostRecords != lost {
		t.Fatalf("LostRecords %d, want %d", st.LostRecords, lost)
	}
	onDisk := map[uint64]string{}
	for _, p := range records(t, chainDirOf(cfg)) {
		onDisk[p.Seq] = p.hash
		if p.str("call") == "doomed" {
			t.Fatalf("a failed record is on the chain at seq %d", p.Seq)
		}
	}
	for _, r := range receipts {
		if onDisk[r.Seq] != r.Hash {
			t.Fatalf("receipt %+v is not on the chain", r)
		}
	}
	rep := mustVerify(t, cfg.Dir)
	if len(rep.Chains[0].Gaps) != 0 {
		t.Fatalf("gaps %v: a failed write left something recovery had to cut", rep.Chains[0].Gaps)
	}
}

var doomed = Record{Kind: "decision", Fields: map[string]any{"call": "doomed"}}

// The disk fills in the middle of a batch: write(2) stores part of it and fails with ENOSPC.
// Simulated (see faultFS), because a full volume cannot be assumed in every test environment;
// TestDiskFullOnARealVolume does the same on a real one where it can.
func TestDiskFullSimulated(t *testing.T) {
	fs := newFaultFS()
	cfg := testConfig(t, nil)
	cfg.openFile = fs.open
	j := mustOpen(t, cfg)
	receipts := appendN(t, j, 3)

	fs.set(func(fs *faultFS) { fs.budget = 100 }) // less than one record
	if _, err := j.Append(context.Background(), doomed); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Append on a full disk: %v, want ENOSPC", err)
	}
	if _, err := j.Append(context.Background(), doomed); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("second Append on a full disk: %v, want ENOSPC", err)
	}
	fs.set(func(fs *faultFS) { fs.budget = -1 }) // space freed
	receipts = append(receipts, appendN(t, j, 2)...)
	if receipts[3].Seq != receipts[2].Seq+1 {
		t.Fatalf("a failed append used a sequence number: %+v", receipts)
	}
	failedAppendsLeaveNoTrace(t, cfg, j, receipts, 2)
}

func TestFsyncFailure(t *testing.T) {
	// The cut-back's own fsync fails too: the next Append repairs the segment first.
	syncFailure(t, "fsync", func(fs *faultFS, err error) { fs.syncErr = err }, false)
}

// The batch's own sync is a fdatasync: when only it fails (the fsyncs of preallocating and
// cutting back still work), the batch fails and is cut back exactly as with a failing fsync.
func TestDatasyncFailure(t *testing.T) {
	syncFailure(t, "fdatasync", func(fs *faultFS, err error) { fs.datasyncErr = err }, true)
}

// syncFailure makes the sync that fail sets fail for one Append: the Append fails with its error,
// the segment is cut back to its durable bytes (at once when cutBack says the cut's own fsync
// works), and the chain goes on without a trace of it.
func syncFailure(t *testing.T, name string, fail func(*faultFS, error), cutBack bool) {
	t.Helper()
	fs := newFaultFS()
	cfg := testConfig(t, nil)
	cfg.openFile = fs.open
	j := mustOpen(t, cfg)
	receipts := appendN(t, j, 2)
	fs.set(func(fs *faultFS) { fail(fs, syscall.EIO) })
	if _, err := j.Append(context.Background(), doomed); !errors.Is(err, syscall.EIO) {
		t.Fatalf("Append with a failing %s: %v, want EIO", name, err)
	}
	if cutBack {
		if j.dirty != nil {
			t.Fatalf("the cut-back failed: %v", j.dirty)
		}
		if size := int64(len(readFile(t, filepath.Join(chainDirOf(cfg), j.live.name)))); size != j.live.size {
			t.Fatalf("after the failed batch the segment is %d bytes, want it cut back to its %d durable bytes", size, j.live.size)
		}
	}
	fs.set(func(fs *faultFS) { fail(fs, nil) })
	receipts = append(receipts, appendN(t, j, 1)...)
	failedAppendsLeaveNoTrace(t, cfg, j, receipts, 1)
}

// When the bytes of a failed write cannot even be cut off, the segment's end is unknown: the
// journal must refuse every append until the cut succeeds, never write after unknown bytes.
func TestNoWritesAfterAnUnrepairableFailure(t *testing.T) {
	fs := newFaultFS()
	cfg := testConfig(t, nil)
	cfg.openFile = fs.open
	j := mustOpen(t, cfg)
	receipts := appendN(t, j, 2)
	fs.set(func(fs *faultFS) { fs.budget, fs.truncErr = 50, syscall.EROFS })
	if _, err := j.Append(context.Background(), doomed); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("first failure: %v", err)
	}
	fs.set(func(fs *faultFS) { fs.budget = -1 }) // space is back, but the cut still fails
	before, _ := fs.counts()
	if _, err := j.Append(context.Background(), doomed); !errors.Is(err, syscall.EROFS) {
		t.Fatalf("Append while the segment cannot be repaired: %v, want the repair error", err)
	}
	// Two batches before the failure and the failed one: the refused append wrote nothing.
	if w, _ := fs.counts(); before != 3 || w != before {
		t.Fatalf("%d writes, then %d, want 3 both times: the journal wrote while the segment's end was unknown", before, w)
	}
	fs.set(func(fs *faultFS) { fs.truncErr = nil })
	receipts = append(receipts, appendN(t, j, 1)...)
	failedAppendsLeaveNoTrace(t, cfg, j, receipts, 2)
}

// The volume turns read-only under a running journal (ext4 does this after an I/O error).
// Simulated with EROFS from the write call site: a mounted filesystem cannot be switched to
// read-only while the journal holds a file open for writing.
func TestVolumeTurnsReadOnlySimulated(t *testing.T) {
	fs := newFaultFS()
	cfg := testConfig(t, nil)
	cfg.openFile = fs.open
	j := mustOpen(t, cfg)
	receipts := appendN(t, j, 2)
	fs.set(func(fs *faultFS) { fs.writeErr, fs.truncErr = syscall.EROFS, syscall.EROFS })
	for range 3 {
		if _, err := j.Append(context.Background(), doomed); !errors.Is(err, syscall.EROFS) {
			t.Fatalf("Append on a read-only volume: %v, want EROFS", err)
		}
	}
	fs.set(func(fs *faultFS) { fs.writeErr, fs.truncErr = nil, nil })
	receipts = append(receipts, appendN(t, j, 1)...)
	failedAppendsLeaveNoTrace(t, cfg, j, receipts, 3)
}

// Permissions stop writers that are not root. Root ignores them, so as root this test proves
// that and skips; TestReadOnlyVolume covers root with a real read-only mount.
func TestReadOnlyDirectoryByPermissions(t *testing.T) {
	cfg := testConfig(t, nil)
	j := mustOpen(t, cfg)
	appendN(t, j, 1)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	dir := chainDirOf(cfg)
	chmodAll(t, dir, 0o500, 0o400)
	t.Cleanup(func() { chmodAll(t, dir, 0o750, 0o640) })
	if f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR, 0); err == nil {
		_ = f.Close()
		t.Skipf("running as uid %d, which permissions do not stop (chmod 0500 has no effect); see TestReadOnlyVolume", os.Geteuid())
	}
	if j, err := Open(cfg); err == nil {
		_ = j.Close()
		t.Fatal("Open succeeded on a read-only directory")
	}
}

func chmodAll(t *testing.T, dir string, dirMode, fileMode os.FileMode) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		_ = os.Chmod(filepath.Join(dir, e.Name()), fileMode)
	}
	if err := os.Chmod(dir, dirMode); err != nil {
		t.Fatal(err)
	}
}
