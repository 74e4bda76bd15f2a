//go:build linux

package audit

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// mountTmpfs mounts a small tmpfs, so a test can fill a real volume. It needs CAP_SYS_ADMIN
// (root in this environment); elsewhere the test skips, and TestLossAccountIsBounded still covers
// the account with a closed journal.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0755"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v)", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fillVolume writes a file into dir until the volume is full and returns the function that
// deletes it again.
func fillVolume(t *testing.T, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err = f.Write(chunk); err != nil {
			break
		}
	}
	_ = f.Close()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("filling the volume: %v", err)
	}
	return func() {
		if err := os.Remove(path); err != nil {
			t.Error(err)
		}
	}
}
