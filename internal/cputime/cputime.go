// Package cputime reads the CPU time this process has used, for benchmarks that report CPU per
// operation: on a shared machine it is steadier than wall time.
package cputime

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
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

// clockTicks is the unit of the times in /proc/PID/stat (USER_HZ, 100 on Linux).
const clockTicks = 100

// OfProcess is the user and system CPU time process pid has used, from /proc/PID/stat: for a
// benchmark that measures a program running as a process of its own. Its resolution is a clock
// tick (10 ms), so it is read over many operations.
func OfProcess(pid int) (time.Duration, error) {
	fields, err := StatFields(pid)
	if err != nil {
		return 0, err
	}
	const utime, stime = 11, 12 // fields 14 and 15 of stat(5), counted from the state (field 3)
	if len(fields) <= stime {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(fields))
	}
	var ticks int64
	for _, f := range []string{fields[utime], fields[stime]} {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// StatFields are the fields of /proc/PID/stat after the command name, from the state (field 3 of
// stat(5)) on: the command name, in parentheses, may hold spaces, so the fields are counted after
// it.
func StatFields(pid int) ([]string, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	end := bytes.LastIndexByte(data, ')')
	if end < 0 {
		return nil, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	return strings.Fields(string(data[end+1:])), nil
}
