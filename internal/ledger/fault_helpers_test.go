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
	syncErr  error
	truncErr error
	syncs    int
	writes   int
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

func (fs *faultFS) counts() (writes, syncs int) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.writes, fs.syncs
}

type faultFile struct {
	*os.File
	fs *faultFS
}

// Write behaves like write(2) on a full disk: it writes what fits, then fails with ENOSPC.
func (f *faultFile) Write(b []byte) (int, error) {
	fs := f.fs
	fs.mu.Lock()
	fs.writes++
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
		n, err := f.File.Write(b[:budget])
		if err == nil {
			err = &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
		}
		return n, err
	}
	return f.File.Write(b)
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
