// Package gctuning sets the Go garbage collector from a container's facts: its soft memory limit
// from the container's memory limit, and its GOGC from a binary's own default.
package gctuning

import (
	"runtime/debug"
	"strconv"
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
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			return 100, true // the runtime ignores a GOGC it cannot read
		case n < 0:
			return -1, true // and turns the collector off for a negative one
		}
		return n, true
	}
	debug.SetGCPercent(percent)
	return percent, false
}
