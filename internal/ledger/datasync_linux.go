//go:build linux

package ledger

import (
	"errors"
	"os"
	"syscall"
)

// datasync is fdatasync(2). SyscallConn keeps the descriptor in the runtime's hands (Fd would
// switch it to blocking mode).
func datasync(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	err = rc.Control(func(fd uintptr) {
		for {
			// Retried on EINTR, as os.File.Sync retries fsync.
			if serr = syscall.Fdatasync(int(fd)); !errors.Is(serr, syscall.EINTR) {
				return
			}
		}
	})
	if err != nil {
		return err
	}
	if serr != nil {
		return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: serr}
	}
	return nil
}
