package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"k8s.io/client-go/rest"

	"github.com/toolgate/toolgate/internal/benchstats"
	"github.com/toolgate/toolgate/internal/cputime"
)

// withToken is cfg authenticating with token alone.
func withToken(cfg *rest.Config, token string) *rest.Config {
	c := rest.AnonymousClientConfig(cfg)
	c.BearerToken = token
	return c
}

// pct and ms report latencies as every benchmark of hack/ does.
var pct, ms = benchstats.Percentile, benchstats.Millis

func waitFor(timeout time.Duration, ok func() bool) error {
	deadline := time.Now().Add(timeout)
	for !ok() {
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %s", timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// processCPU is the user and system CPU time this process has used (0 if unreadable).
func processCPU() time.Duration {
	d, _ := cputime.Process()
	return d
}

// peakRSS is this process's peak resident memory from /proc/self/status, in MiB.
func peakRSS() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for line := range strings.Lines(string(data)) {
		var kb int
		if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kb); err == nil {
			return fmt.Sprintf("%.0f MiB", float64(kb)/1024)
		}
	}
	return "unknown"
}
