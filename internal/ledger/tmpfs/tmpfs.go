//go:build linux

// Package tmpfs gives tests a real volume that can fill up or turn read-only: a small tmpfs
// mounted at a temporary directory. Mounting needs CAP_SYS_ADMIN (root in CI here); elsewhere the
// test is skipped, and each caller says which test still covers the path.
package tmpfs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// T is what the helpers need of a test: *testing.T and Ginkgo's GinkgoT() both have it.
type T interface {
	Helper()
	TempDir() string
	Cleanup(func())
	Skipf(format string, args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
}

// Mount mounts a tmpfs of size (e.g. "128k") at a new temporary directory and returns it; it is
// unmounted when the test ends. Without permission to mount, the test is skipped with otherwise,
// which names the test that still covers the path.
func Mount(t T, size, otherwise string) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0755"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v); %s", err, otherwise)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// Fill writes a file into dir until the volume is full and returns the function that deletes it.
func Fill(t T, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatalf("filling the volume: %v", err)
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
			t.Errorf("freeing the volume: %v", err)
		}
	}
}
