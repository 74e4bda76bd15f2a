package ledger

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// file is the part of *os.File the journal writes segments through, plus Datasync. It is an
// interface only so tests can inject write and sync failures (a full disk, a volume turned
// read-only) at exactly these call sites; everything else uses the os package directly.
type file interface {
	io.WriterAt
	// Sync is fsync: data and all metadata, the file's size included.
	Sync() error
	// Datasync is fdatasync: data, and metadata only where reading the data back needs it. It
	// is enough for a write into space that is already allocated and inside the file's size.
	Datasync() error
	Truncate(size int64) error
	Close() error
}

type openFunc func(name string, flag int, perm os.FileMode) (file, error)

// osFile is a segment file as the journal uses it outside tests.
type osFile struct{ *os.File }

func (f osFile) Datasync() error { return datasync(f.File) }

func openOSFile(name string, flag int, perm os.FileMode) (file, error) {
	f, err := openNoFollow(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}

// syncDir makes a directory's entries (a created, renamed or removed file) durable.
func syncDir(dir string) error {
	d, err := openNoFollow(dir, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeFileAtomic writes data to path through a synced temporary file and a rename, so a crash
// leaves either the old file or the new one.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := openNoFollow(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}
