package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/internal/cputime"
)

// pinProcesses gives process gateway CPU cpu alone, and this process and every other process it
// started (kube-apiserver, etcd, the manager) the machine's other CPUs: the gateway measured with
// a core of its own, as its Deployment has CPU of its own on a node, rather than sharing two
// saturated cores with the API server, etcd, the upstream server and the clients.
func pinProcesses(gateway, cpu int) error {
	if runtime.NumCPU() < 2 || cpu < 0 || cpu >= runtime.NumCPU() {
		return fmt.Errorf("-gateway-cpu %d: this machine has CPUs 0 to %d, and the gateway needs one of them to itself",
			cpu, runtime.NumCPU()-1)
	}
	var own, rest unix.CPUSet
	own.Set(cpu)
	for c := range runtime.NumCPU() {
		if c != cpu {
			rest.Set(c)
		}
	}
	if err := pinThreads(gateway, &own); err != nil {
		return err
	}
	for _, pid := range append(descendants(os.Getpid()), os.Getpid()) {
		if pid == gateway {
			continue
		}
		if err := pinThreads(pid, &rest); err != nil {
			return err
		}
	}
	return nil
}

// pinThreads sets the affinity of every thread of pid; threads it starts later inherit it from
// the thread that starts them. (Go's runtime notices the change and sets GOMAXPROCS to match.)
func pinThreads(pid int, set *unix.CPUSet) error {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return err
	}
	for _, task := range tasks {
		tid, err := strconv.Atoi(task.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, set); err != nil && !errors.Is(err, unix.ESRCH) {
			return fmt.Errorf("pinning thread %d of process %d: %w", tid, pid, err)
		}
	}
	return nil
}

// descendants are the processes under pid: its children, theirs, and so on.
func descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if parent, ok := parentOf(child); ok {
			children[parent] = append(children[parent], child)
		}
	}
	var out []int
	for queue := children[pid]; len(queue) > 0; queue = queue[1:] {
		out = append(out, queue[0])
		queue = append(queue, children[queue[0]]...)
	}
	return out
}

// parentOf reads pid's parent from /proc/PID/stat: the field after the state.
func parentOf(pid int) (int, bool) {
	fields, err := cputime.StatFields(pid)
	if err != nil || len(fields) < 2 {
		return 0, false
	}
	parent, err := strconv.Atoi(fields[1])
	return parent, err == nil
}
