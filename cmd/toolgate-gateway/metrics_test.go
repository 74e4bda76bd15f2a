package main

import (
	"crypto/tls"
	"strings"
	"testing"
)

// TestTheMetricsListenerServesTheGatewaysCertificate: with --tls-cert-file the metrics listener
// serves the same pair (so a scraper can verify whom it sends its token to), only over HTTP/1.1,
// and a pair split across directories is refused, naming both flags.
func TestTheMetricsListenerServesTheGatewaysCertificate(t *testing.T) {
	o, err := metricsOptions(":8444", true, "/etc/toolgate/tls/tls.crt", "/etc/toolgate/tls/tls.key")
	if err != nil {
		t.Fatal(err)
	}
	if o.CertDir != "/etc/toolgate/tls" || o.CertName != "tls.crt" || o.KeyName != "tls.key" || !o.Secure {
		t.Errorf("got %+v", o)
	}
	cfg := &tls.Config{}
	for _, opt := range o.TLSOpts {
		opt(cfg)
	}
	if len(cfg.NextProtos) != 1 || cfg.NextProtos[0] != "http/1.1" {
		t.Errorf("protocols %v, want HTTP/1.1 alone", cfg.NextProtos)
	}

	if o, err := metricsOptions(":8444", true, "", ""); err != nil || o.CertDir != "" {
		t.Errorf("without a serving certificate: %+v, %v (want a self-signed one)", o, err)
	}
	if _, err := metricsOptions(":8444", true, "/a/tls.crt", "/b/tls.key"); err == nil {
		t.Error("a pair in two directories was taken")
	} else if msg := err.Error(); !strings.Contains(msg, "--tls-cert-file") || !strings.Contains(msg, "--tls-key-file") {
		t.Errorf("the error does not name the flags: %s", msg)
	}
}
