package ledger

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ErrWriterInUse is returned by Open when another journal holds the writer's chain.
var ErrWriterInUse = errors.New("ledger writer is in use by another journal")

// lockWriter takes an exclusive flock on the chain, so two journals (two pods given the same
// name, or a second Open in one process) can never interleave records on one chain. The kernel
// drops the lock when the process dies, so a crash never leaves the chain locked.
func lockWriter(dir, writer string) (*os.File, error) {
	f, err := openNoFollow(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s", ErrWriterInUse, writer)
		}
		return nil, fmt.Errorf("locking ledger writer %s: %w", writer, err)
	}
	return f, nil
}
