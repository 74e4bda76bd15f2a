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
// ErrSymlink rather than being followed.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW, perm)
	if err != nil && errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%w: %s", ErrSymlink, path)
	}
	return f, err
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
