package cputime

import (
	"os"
	"testing"
	"time"
)

// TestOfProcessReadsWhatGetrusageReads burns CPU, then reads this process's CPU time both ways:
// /proc/PID/stat counts in clock ticks, so the two agree within a few ticks.
func TestOfProcessReadsWhatGetrusageReads(t *testing.T) {
	own, err := Process()
	for err == nil && own < 300*time.Millisecond {
		own, err = Process()
	}
	if err != nil {
		t.Fatal(err)
	}
	proc, err := OfProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if proc < 250*time.Millisecond || proc > own+30*time.Millisecond || proc < own-30*time.Millisecond {
		t.Errorf("OfProcess = %s, getrusage = %s", proc, own)
	}
	if _, err := OfProcess(-1); err == nil {
		t.Error("OfProcess(-1) read a process that cannot exist")
	}
}
