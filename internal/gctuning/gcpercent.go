// Package gctuning sets the Go garbage collector from a container's facts: its soft memory limit
// from the container's memory limit, and its GOGC from a binary's own default.
package gctuning

import (
	"math"
	"runtime/debug"
	"strconv"
	"strings"
)

// MinGCPercent is the least GOGC a binary's flag may ask for: below it the collector runs so
// often that it costs more than any memory it saves.
const MinGCPercent = 25

// ApplyGCPercent sets GOGC to percent unless the GOGC environment variable is set (an explicit
// choice wins, as the runtime has already applied it), and returns the value in effect and
// whether it came from the environment.
func ApplyGCPercent(getenv func(string) string, percent int) (int, bool) {
	if v := getenv("GOGC"); v != "" {
		if v == "off" {
			return -1, true
		}
		n, err := strconv.ParseInt(v, 10, 32) // as the runtime reads it: an int32, with no "+"
		switch {
		case err != nil || strings.HasPrefix(v, "+"):
			return 100, true // the runtime ignores a GOGC it cannot read
		case n < 0:
			return -1, true // and turns the collector off for a negative one
		}
		return int(n), true
	}
	debug.SetGCPercent(percent)
	return percent, false
}

// MemoryLimitInEffect is the runtime's soft memory limit, from GOMEMLIMIT or ApplySoftMemoryLimit;
// 0 when there is none.
func MemoryLimitInEffect() int64 {
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		return limit
	}
	return 0
}
