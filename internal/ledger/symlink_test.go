package ledger

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A segment replaced by a symbolic link (to a copy of itself, here) is refused and named by
// Open and Verify: a link lets anyone who can write the volume splice in a file from elsewhere.
func TestSymlinkedSegmentIsRefused(t *testing.T) {
	cfg, dir, segs := closedChain(t, 2048, 40)
	victim := filepath.Join(dir, segs[0])
	elsewhere := filepath.Join(t.TempDir(), segs[0])
	writeFile(t, elsewhere, readFile(t, victim))
	if err := os.Remove(victim); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, victim); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(cfg.Dir); !errors.Is(err, ErrSymlink) {
		t.Fatalf("Verify: got %v, want ErrSymlink", err)
	}
	if _, err := Open(cfg); !errors.Is(err, ErrSymlink) {
		t.Fatalf("Open: got %v, want ErrSymlink", err)
	}
}

// A writer's directory that is a link to another chain is refused, not followed or skipped.
func TestSymlinkedWriterDirectoryIsRefused(t *testing.T) {
	cfg, _, _ := closedChain(t, 0, 3)
	forged := filepath.Join(cfg.Dir, "webhook-1")
	if err := os.Symlink(chainDirOf(cfg), forged); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(cfg.Dir); !errors.Is(err, ErrSymlink) {
		t.Fatalf("Verify: got %v, want ErrSymlink", err)
	}
	cfg.Writer = "webhook-1"
	if _, err := Open(cfg); !errors.Is(err, ErrSymlink) {
		t.Fatalf("Open of a linked writer directory: got %v, want ErrSymlink", err)
	}
}

// The head file and the lock are opened without following links: a link there would make the
// journal write its head (or take its lock) on a file outside the chain.
func TestSymlinkedHeadFileIsRefused(t *testing.T) {
	cfg, dir, _ := closedChain(t, 0, 3)
	head := filepath.Join(dir, headFile)
	target := filepath.Join(t.TempDir(), "head")
	writeFile(t, target, readFile(t, head))
	if err := os.Remove(head); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, head); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(cfg); !errors.Is(err, ErrSymlink) {
		t.Fatalf("Open: got %v, want ErrSymlink", err)
	}
	if _, err := Verify(cfg.Dir); !errors.Is(err, ErrSymlink) {
		t.Fatalf("Verify: got %v, want ErrSymlink", err)
	}
}

// A FIFO planted as the head file would block Open forever on its open; it is refused as not a
// regular file, and reported (the head is unreadable).
func TestFIFOHeadFileDoesNotBlockOpen(t *testing.T) {
	cfg, dir, _ := closedChain(t, 0, 3)
	head := filepath.Join(dir, headFile)
	if err := os.Remove(head); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(head, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := readSmallFile(head); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("reading a FIFO head file: %v, want it refused as not a regular file", err)
	}
	if _, err := Open(cfg); err == nil {
		t.Fatal("Open wrote its head through a FIFO")
	}
}

// A chain with two segments of one index and no head file was skipped by Verify as no chain at
// all; it is reported.
func TestChainWithADuplicateIndexIsReportedNotSkipped(t *testing.T) {
	cfg, dir, segs := closedChain(t, 0, 3)
	other, _, _ := closedChain(t, 0, 3)
	if err := os.Remove(filepath.Join(dir, headFile)); err != nil {
		t.Fatal(err)
	}
	twin := "2026-01-01" + strings.TrimPrefix(segs[0], "2026-11-30")
	writeFile(t, filepath.Join(dir, twin), readFile(t, filepath.Join(dir, segs[0])))
	if err := os.Rename(dir, filepath.Join(other.Dir, cfg.Writer+"-x")); err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(other.Dir); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "two segments with index") {
		t.Fatalf("Verify: got %v, want the chain with two segments of one index reported", err)
	}
}

// With the published heads given, a link in a writer's directory is still refused by name. The
// heads made Verify read a volume whose chains it could not list as one whose directories were
// all removed: the report blamed a removal that did not happen and never named the link.
func TestSymlinkIsNamedWithPublishedHeads(t *testing.T) {
	f := newSignedFixture(t)
	link := filepath.Join(f.dir, "2026-11-30.00000099.jsonl")
	if err := os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), link); err != nil {
		t.Fatal(err)
	}
	rep, err := VerifyWith(f.root, f.anchors())
	if !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), link) {
		t.Fatalf("VerifyWith: got %v, want ErrSymlink naming %s\n%s", err, link, dumpChains(rep))
	}
}
