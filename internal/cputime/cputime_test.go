package cputime

import (
	"os"
	"strconv"
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

// TestStatFieldsCountFromTheState: the field after the state is the parent's process id.
func TestStatFieldsCountFromTheState(t *testing.T) {
	fields, err := StatFields(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if len(fields) < 2 || fields[1] != strconv.Itoa(os.Getppid()) {
		t.Errorf("fields %.3q: want the parent %d second", fields, os.Getppid())
	}
}
