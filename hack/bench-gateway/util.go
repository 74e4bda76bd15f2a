package main

import (
	"fmt"
	"slices"
	"syscall"
	"time"

	"k8s.io/client-go/rest"
)

// withToken is cfg authenticating with token alone.
func withToken(cfg *rest.Config, token string) *rest.Config {
	c := rest.AnonymousClientConfig(cfg)
	c.BearerToken = token
	return c
}

func pct(lat []time.Duration, p int) time.Duration {
	s := slices.Clone(lat)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

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

// processCPU is the user and system CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
