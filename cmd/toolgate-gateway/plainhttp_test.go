package main

import (
	"strings"
	"testing"
)

// TestPlainHTTPOnlyOnLoopbackOrWhenAskedFor: without a serving certificate the gateway refuses
// to listen anywhere but loopback unless --insecure-serve-http says so, naming the flags; the
// near misses (loopback, TLS, the explicit flag) start.
func TestPlainHTTPOnlyOnLoopbackOrWhenAskedFor(t *testing.T) {
	const cert, key = "/etc/toolgate/tls/tls.crt", "/etc/toolgate/tls/tls.key"
	for _, c := range []struct {
		listen, cert, key string
		insecure          bool
		refusal           string // "" means it starts
	}{
		{listen: ":8443", refusal: "--insecure-serve-http"},
		{listen: "0.0.0.0:8443", refusal: "--tls-cert-file"},
		{listen: "[::]:8443", refusal: "not a loopback address"},
		{listen: "10.0.0.5:8443", refusal: "not a loopback address"},
		{listen: "localhost:8443", refusal: "not a loopback address"},
		{listen: "127.0.0.1.example.com:8443", refusal: "not a loopback address"},
		{listen: "8443", refusal: "not a loopback address"},
		{listen: ":8443", cert: cert, refusal: "--tls-key-file"},
		{listen: ":8443", key: key, refusal: "--tls-cert-file and --tls-key-file go together"},
		{listen: ":8443", cert: cert, key: key, insecure: true, refusal: "contradict"},

		{listen: ":8443", cert: cert, key: key},
		{listen: ":8443", insecure: true},
		{listen: "127.0.0.1:8443"},
		{listen: "127.0.0.2:0"},
		{listen: "[::1]:8443"},
		{listen: "127.0.0.1:8443", cert: cert, key: key},
	} {
		err := checkServing(c.listen, c.cert, c.key, c.insecure)
		switch {
		case c.refusal == "" && err != nil:
			t.Errorf("%+v: refused: %v", c, err)
		case c.refusal != "" && err == nil:
			t.Errorf("%+v: taken, want a refusal naming %q", c, c.refusal)
		case c.refusal != "" && !strings.Contains(err.Error(), c.refusal):
			t.Errorf("%+v: %v, want it to name %q", c, err, c.refusal)
		}
	}
}
