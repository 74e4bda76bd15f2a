// Package pprofaddr checks the address a binary's profiling endpoint binds to.
package pprofaddr

import (
	"fmt"
	"net"
)

// Check checks the address a binary's profiling endpoint (net/http/pprof, controller-
// runtime's PprofBindAddress) binds to. Empty keeps it off, the default. Anything else must be a
// loopback address with a port: the endpoint has no authentication, so it is reachable only from
// inside the pod (kubectl port-forward).
func Check(addr string) (string, error) {
	if addr == "" || addr == "0" {
		return "", nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--pprof-bind-address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", fmt.Errorf("--pprof-bind-address %q: the profiling endpoint has no authentication and binds to loopback only (127.0.0.1:6060, say)", addr)
	}
	return addr, nil
}
