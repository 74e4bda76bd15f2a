//go:build linux

package ledger

import (
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
	if err := rc.Control(func(fd uintptr) { serr = syscall.Fdatasync(int(fd)) }); err != nil {
		return err
	}
	if serr != nil {
		return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: serr}
	}
	return nil
}
