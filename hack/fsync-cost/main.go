// Command fsync-cost measures what making one appended ledger batch durable costs on this
// machine's disk, three ways: append and fsync (what internal/ledger does), append and fdatasync,
// and an overwrite of preallocated, zero-filled space and fdatasync (no file size or block
// allocation to journal per batch). docs/benchmarks.md uses it to size what a cheaper durable
// write could take off each admission. It writes and removes files in -dir.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/toolgate/toolgate/internal/cputime"
)

func main() {
	dir := flag.String("dir", os.TempDir(), "directory on the disk to measure")
	n := flag.Int("n", 2000, "batches per way and round")
	size := flag.Int("size", 600, "bytes per batch (about one decision record)")
	rounds := flag.Int("rounds", 3, "rounds; each measures every way once")
	flag.Parse()
	fmt.Println("| round | way | wall per batch | CPU per batch |")
	fmt.Println("|---|---|---|---|")
	for r := range *rounds {
		for _, w := range ways {
			wall, cpu, err := measure(*dir, w, *n, *size)
			if err != nil {
				fmt.Fprintln(os.Stderr, "fsync-cost:", err)
				os.Exit(1)
			}
			fmt.Printf("| %d | %s | %.1f µs | %.1f µs |\n", r+1, w.name, us(wall, *n), us(cpu, *n))
		}
	}
}

type way struct {
	name     string
	prealloc bool
	sync     func(*os.File) error
}

var ways = []way{
	{"append + fsync", false, (*os.File).Sync},
	{"append + fdatasync", false, fdatasync},
	{"preallocated + fdatasync", true, fdatasync},
}

func fdatasync(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.Fdatasync(int(fd)) }); err != nil {
		return err
	}
	return serr
}

func measure(dir string, w way, n, size int) (wall, cpu time.Duration, err error) {
	f, err := os.OpenFile(filepath.Join(dir, "fsync-cost.seg"), os.O_CREATE|os.O_TRUNC|os.O_RDWR, 0o600)
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = f.Close(); _ = os.Remove(f.Name()) }()
	buf := make([]byte, size)
	if w.prealloc {
		if _, err := f.Write(make([]byte, n*size)); err != nil {
			return 0, 0, err
		}
		if err := f.Sync(); err != nil {
			return 0, 0, err
		}
		if _, err := f.Seek(0, 0); err != nil {
			return 0, 0, err
		}
	}
	c0, t0 := processCPU(), time.Now()
	for range n {
		if _, err := f.Write(buf); err != nil {
			return 0, 0, err
		}
		if err := w.sync(f); err != nil {
			return 0, 0, err
		}
	}
	return time.Since(t0), processCPU() - c0, nil
}

func processCPU() time.Duration {
	d, _ := cputime.Process()
	return d
}

func us(d time.Duration, n int) float64 { return float64(d.Microseconds()) / float64(n) }
