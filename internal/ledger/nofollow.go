package ledger

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ErrSymlink is returned when a file or directory of a ledger is a symbolic link. Nothing a
// journal writes is one: a symlinked segment would let whoever can write the volume splice
// another chain's file (or one outside the volume) into this one, so it is refused and named,
// never followed or skipped.
var ErrSymlink = errors.New("ledger file is a symbolic link")

// openNoFollow is os.OpenFile with O_NOFOLLOW: a symlink as the last path element fails with
// ErrSymlink rather than being followed. O_NONBLOCK and the check after it refuse what is neither
// a regular file nor a directory: a FIFO planted as the head file would otherwise block Open
// forever (O_NONBLOCK changes nothing for regular files).
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
	if err != nil && errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%w: %s", ErrSymlink, path)
	}
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		err = fmt.Errorf("ledger: %s is a %s, not a regular file", path, info.Mode().Type())
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// refuseSymlink returns ErrSymlink when path itself is a symbolic link: a writer's directory
// linked elsewhere would put its chain where no verifier of this volume looks.
func refuseSymlink(path string) error {
	info, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	if info.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("ledger: %w: %s", ErrSymlink, path)
	}
	return nil
}
