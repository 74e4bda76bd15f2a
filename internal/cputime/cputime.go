// Package cputime reads the CPU time this process has used, for benchmarks that report CPU per
// operation: on a shared machine it is steadier than wall time.
package cputime

import (
	"syscall"
	"time"
)

// Process is the user and system CPU time this process has used.
func Process() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
