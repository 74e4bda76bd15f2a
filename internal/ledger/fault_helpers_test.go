package ledger

import (
	"os"
	"sync"
	"syscall"
)

// faultFS opens real segment files wrapped so a test can count syncs and make writes, syncs and
// truncations fail the way a full or read-only volume makes them fail. It stands in only at the
// journal's write and sync call sites (Config.openFile); reading, listing and verification use
// the real files.
type faultFS struct {
	mu       sync.Mutex
	budget   int64 // bytes that may still be written; < 0 means unlimited
	writeErr error // returned by every write when set (after writing nothing)
	syncErr  error // fails Sync and Datasync
	// datasyncErr fails only Datasync: the batch's own sync, while extending and cutting back
	// (full fsyncs) still work.
	datasyncErr error
	truncErr    error
	syncs       int // Sync and Datasync calls
	datasyncs   int // one per batch made durable
	writes      int // writes of records: a preallocation's zeros are not counted
}

func newFaultFS() *faultFS { return &faultFS{budget: -1} }

func (fs *faultFS) open(name string, flag int, perm os.FileMode) (file, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &faultFile{File: f, fs: fs}, nil
}

func (fs *faultFS) set(fn func(fs *faultFS)) {
	fs.mu.Lock()
	fn(fs)
	fs.mu.Unlock()
}

// counts returns the batches written and the syncs that made them durable (fdatasyncs; the
// fsyncs of preallocation and cut-backs are not per batch).
func (fs *faultFS) counts() (writes, syncs int) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.writes, fs.datasyncs
}

type faultFile struct {
	*os.File
	fs *faultFS
}

// WriteAt behaves like pwrite(2) on a full disk: it writes what fits, then fails with ENOSPC.
// (Into preallocated space a real disk would not fail; the budget stands for any short write.)
func (f *faultFile) WriteAt(b []byte, off int64) (int, error) {
	fs := f.fs
	fs.mu.Lock()
	if dataEnd(b) > 0 {
		fs.writes++
	}
	werr, budget := fs.writeErr, fs.budget
	if werr == nil && budget >= 0 && int64(len(b)) > budget {
		fs.budget = 0
	} else if budget >= 0 {
		fs.budget -= int64(len(b))
	}
	fs.mu.Unlock()
	if werr != nil {
		return 0, &os.PathError{Op: "write", Path: f.Name(), Err: werr}
	}
	if budget >= 0 && int64(len(b)) > budget {
		n, err := f.File.WriteAt(b[:budget], off)
		if err == nil {
			err = &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
		}
		return n, err
	}
	return f.File.WriteAt(b, off)
}

// Datasync fails with datasyncErr or, like Sync, with syncErr.
func (f *faultFile) Datasync() error {
	f.fs.mu.Lock()
	f.fs.syncs++
	f.fs.datasyncs++
	err := f.fs.datasyncErr
	if err == nil {
		err = f.fs.syncErr
	}
	f.fs.mu.Unlock()
	if err != nil {
		return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: err}
	}
	return datasync(f.File)
}

func (f *faultFile) Sync() error {
	f.fs.mu.Lock()
	f.fs.syncs++
	err := f.fs.syncErr
	f.fs.mu.Unlock()
	if err != nil {
		return &os.PathError{Op: "sync", Path: f.Name(), Err: err}
	}
	return f.File.Sync()
}

func (f *faultFile) Truncate(size int64) error {
	f.fs.mu.Lock()
	err := f.fs.truncErr
	f.fs.mu.Unlock()
	if err != nil {
		return &os.PathError{Op: "truncate", Path: f.Name(), Err: err}
	}
	return f.File.Truncate(size)
}
