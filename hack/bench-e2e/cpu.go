package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of utime and stime in /proc/PID/stat (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// processCPU is the CPU time (user and system) each process of the benchmark has used so far, by
// name: this process (the clients and the null webhook, "bench") and its children (kube-apiserver,
// etcd, the manager). On a shared machine CPU per create is steadier than latency, and it says
// which process a mode's extra cost is in.
func processCPU() map[string]time.Duration {
	self := os.Getpid()
	out := map[string]time.Duration{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// pid (comm) state ppid … utime stime: comm may hold spaces, so split after its ')'.
		s := string(b)
		open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || closing < open {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(s[:open]))
		f := strings.Fields(s[closing+1:])
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		name := s[open+1 : closing]
		switch {
		case pid == self:
			name = "bench"
		case ppid != self:
			continue
		}
		utime, _ := strconv.ParseInt(f[11], 10, 64)
		stime, _ := strconv.ParseInt(f[12], 10, 64)
		out[name] += time.Duration(utime+stime) * clockTick
	}
	return out
}

// cpuSince is what each process used since before.
func cpuSince(before map[string]time.Duration) map[string]time.Duration {
	out := processCPU()
	for k, v := range before {
		out[k] -= v
	}
	return out
}

// cpuProcesses are the columns of the CPU table, in order.
var cpuProcesses = []string{"kube-apiserver", "etcd", "manager", "bench"}

// cpuRow is a mode's CPU per create in each process, and in all of them.
func (r *result) cpuRow(clients int, mode string) string {
	cells := make([]string, 0, len(cpuProcesses)+1)
	for _, p := range cpuProcesses {
		cells = append(cells, ms(r.cpu[p]/time.Duration(r.n)))
	}
	cells = append(cells, ms(r.cpuPerCreate()), r.readsPerCreate())
	return fmt.Sprintf("| %d | %s | %s |", clients, mode, strings.Join(cells, " | "))
}

// cpuPerCreate is the CPU time per create in all the benchmark's processes.
func (r *result) cpuPerCreate() time.Duration {
	var total time.Duration
	for _, p := range cpuProcesses {
		total += r.cpu[p]
	}
	return total / time.Duration(r.n)
}

// idleCPU is what each process uses per second with no creates: the background (informers,
// leases, timers) that the per-create numbers include in proportion to a cell's wall time.
func idleCPU(ctx context.Context, d time.Duration) (string, error) {
	before := processCPU()
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(d):
	}
	used := cpuSince(before)
	cells := make([]string, 0, len(cpuProcesses))
	for _, p := range cpuProcesses {
		cells = append(cells, fmt.Sprintf("%s %s", p, ms(used[p]*time.Second/d)))
	}
	return strings.Join(cells, ", "), nil
}

// readsPerCreate is the API server's reads per create during the mode's batches, anyone's (the
// benchmark's own waits included), with the resources read most.
func (r *result) readsPerCreate() string {
	var total int64
	names := make([]string, 0, len(r.reads))
	for name, v := range r.reads {
		total += v
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(r.reads[b], r.reads[a]) })
	parts := make([]string, 0, 3)
	for _, name := range names[:min(3, len(names))] {
		parts = append(parts, fmt.Sprintf("%s %.3f", name, float64(r.reads[name])/float64(r.n)))
	}
	return fmt.Sprintf("%.3f (%s)", float64(total)/float64(r.n), strings.Join(parts, ", "))
}
