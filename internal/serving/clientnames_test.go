package serving

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	certutil "k8s.io/client-go/util/cert"
)

// testCA issues client certificates, as a cluster CA does for the API server and for others.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newTestCA(t *testing.T) testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "cluster CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

func (ca testCA) client(t *testing.T, cn string, dnsNames ...string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn}, DNSNames: dnsNames,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

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
	ca := newTestCA(t)
	path := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(path, ca.pem, 0o600); err != nil {
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
		{"the API server's, by common name", ca.client(t, "kube-apiserver-webhook-client"), true},
		{"the API server's, by DNS name", ca.client(t, "whatever", "apiserver.example"), true},
		{"a kubelet's", ca.client(t, "system:node:worker-1"), false},
		{"an administrator's", ca.client(t, "kubernetes-admin"), false},
	} {
		if err := handshake(t, pinned, c.cert); (err == nil) != c.ok {
			t.Errorf("%s: handshake error %v, want accepted=%v", c.name, err, c.ok)
		}
	}
	if err := handshake(t, requireClientCert(base, clientCA, nil), ca.client(t, "kubernetes-admin")); err != nil {
		t.Errorf("without names every certificate of the CA is accepted, as before: %v", err)
	}
}

func TestSplitNames(t *testing.T) {
	if got := SplitNames(" a, ,b,"); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("SplitNames = %q", got)
	}
}
