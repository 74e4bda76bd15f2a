package main

import (
	"errors"
	"fmt"
	"net"
)

// Agents send the gateway their ServiceAccount tokens, which the API server accepts too (the
// gateway creates their AgentToolCalls with them), so over plain HTTP anyone who sees the pod
// network's traffic could take them. As the manager will not answer admission reviews from
// anyone unless told to, the gateway does not serve plain HTTP unless told to: only with
// --insecure-serve-http, or on a loopback address, whose traffic never leaves the host (the
// tests' and a local run's; in a pod, its own containers').

// checkServing refuses a listener that would take tokens in the clear off the host, and serving
// flags that contradict each other, naming the flags.
func checkServing(listen, certFile, keyFile string, insecureHTTP bool) error {
	switch {
	case (certFile == "") != (keyFile == ""):
		return errors.New("--tls-cert-file and --tls-key-file go together: give both or neither")
	case certFile != "" && insecureHTTP:
		return errors.New("--insecure-serve-http and --tls-cert-file contradict each other: set one")
	case certFile != "" || insecureHTTP || loopback(listen):
		return nil
	}
	return fmt.Errorf("--listen %q is not a loopback address and no --tls-cert-file is given: agents' bearer "+
		"tokens, which the API server also accepts, would cross the network in the clear; give a serving "+
		"certificate (--tls-cert-file, --tls-key-file), listen on loopback (127.0.0.1:8443), or serve plain "+
		"HTTP knowingly with --insecure-serve-http", listen)
}

// loopback says whether listen's host is a loopback IP address. A name ("localhost") is not
// taken: what it resolves to is the resolver's to say.
func loopback(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
