package gctuning

import (
	"fmt"
	"runtime/debug"
	"strconv"
)

// MemoryLimitEnv carries the container's memory limit in bytes (the Deployment sets it from
// resourceFieldRef limits.memory).
const MemoryLimitEnv = "TOOLGATE_MEMORY_LIMIT"

// memoryLimitShare is the part of the container's limit the Go runtime aims to stay under; the
// rest is for what the runtime does not count (stacks beyond its accounting, the binary's pages).
const memoryLimitShare = 0.9

// SoftMemoryLimit is the Go runtime's soft memory limit for a container limit given in bytes by
// MemoryLimitEnv: 90% of it. It returns 0 when the runtime's own GOMEMLIMIT is set (an explicit
// choice wins) or no limit is given, and an error that names the variable for a value that is not
// a positive byte count.
func SoftMemoryLimit(getenv func(string) string) (int64, error) {
	if getenv("GOMEMLIMIT") != "" {
		return 0, nil
	}
	v := getenv(MemoryLimitEnv)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q: want the memory limit as a positive number of bytes", MemoryLimitEnv, v)
	}
	return int64(float64(n) * memoryLimitShare), nil
}

// ApplySoftMemoryLimit sets the runtime's soft memory limit from SoftMemoryLimit, so the garbage
// collector works harder as the heap nears the container's limit instead of the kernel killing
// the process, and returns the limit set (0: none).
func ApplySoftMemoryLimit(getenv func(string) string) (int64, error) {
	limit, err := SoftMemoryLimit(getenv)
	if err != nil || limit == 0 {
		return 0, err
	}
	debug.SetMemoryLimit(limit)
	return limit, nil
}
