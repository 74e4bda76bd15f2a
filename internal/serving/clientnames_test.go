package serving

import (
	"crypto/tls"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	certutil "k8s.io/client-go/util/cert"

	"github.com/toolgate/toolgate/internal/testca"
)

// handshake runs a TLS handshake of a client presenting cert against a server configured by cfg.
func handshake(t *testing.T, cfg *tls.Config, cert tls.Certificate) error {
	t.Helper()
	srv, cli := net.Pipe()
	defer func() { _ = cli.Close() }()
	// A pipe has no buffer: a bound on every read and write keeps a side the other stopped
	// reading from failing instead of waiting forever.
	_ = srv.SetDeadline(time.Now().Add(10 * time.Second))
	_ = cli.SetDeadline(time.Now().Add(10 * time.Second))
	done := make(chan error, 1)
	go func() {
		done <- tls.Server(srv, cfg).Handshake()
		_ = srv.Close() // unblocks the client, whichever way the server ended
	}()
	c := tls.Client(cli, &tls.Config{InsecureSkipVerify: true, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS13}) //nolint:gosec // the test checks the server's side
	_ = c.Handshake()
	go func() { _, _ = io.Copy(io.Discard, cli) }() // what the server still sends: tickets, or its alert
	return <-done
}

// With the cluster's CA, which also signs kubelets' and administrators' client certificates,
// only a certificate naming the API server is answered.
func TestClientNamesAdmitOnlyTheAPIServersCertificate(t *testing.T) {
	ca, err := testca.New("cluster CA")
	if err != nil {
		t.Fatal(err)
	}
	client := func(cn string, dnsNames ...string) tls.Certificate {
		t.Helper()
		c, err := ca.TLSClientCert(cn, dnsNames...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	path := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(path, ca.PEM, 0o600); err != nil {
		t.Fatal(err)
	}
	clientCA, err := loadClientCA(path)
	if err != nil {
		t.Fatal(err)
	}
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey("localhost", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	serving, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	base := &tls.Config{Certificates: []tls.Certificate{serving}, MinVersion: tls.VersionTLS13}
	pinned := requireClientCert(base, clientCA, []string{"kube-apiserver-webhook-client", "apiserver.example"})
	for _, c := range []struct {
		name string
		cert tls.Certificate
		ok   bool
	}{
		{"the API server's, by common name", client("kube-apiserver-webhook-client"), true},
		{"the API server's, by DNS name", client("whatever", "apiserver.example"), true},
		{"a kubelet's", client("system:node:worker-1"), false},
		{"an administrator's", client("kubernetes-admin"), false},
	} {
		if err := handshake(t, pinned, c.cert); (err == nil) != c.ok {
			t.Errorf("%s: handshake error %v, want accepted=%v", c.name, err, c.ok)
		}
	}
	if err := handshake(t, requireClientCert(base, clientCA, nil), client("kubernetes-admin")); err != nil {
		t.Errorf("without names every certificate of the CA is accepted, as before: %v", err)
	}
}

func TestSplitNames(t *testing.T) {
	if got, err := SplitNames(" a, ,b,"); err != nil || len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("SplitNames = %q, %v", got, err)
	}
	if got, err := SplitNames(""); err != nil || got != nil {
		t.Errorf("SplitNames of nothing = %q, %v; want none and no error", got, err)
	}
	// Names given that pin none would answer any certificate the CA verifies.
	if got, err := SplitNames(" , ,"); err == nil {
		t.Errorf("SplitNames of blanks = %q; want an error", got)
	}
}
