package main

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/testca"
)

// TestTheMCPListenerServesTLSWithBoundedHandshakes: with a pair, the MCP listener serves it
// (HTTP/2 and HTTP/1.1, as ListenAndServeTLS did) and a client that verifies it is answered;
// a client speaking plain HTTP to it gets net/http's 400.
func TestTheMCPListenerServesTLSWithBoundedHandshakes(t *testing.T) {
	certFile, keyFile, roots := servingPair(t)
	lis, err := listenMCP(t.Context(), "127.0.0.1:0", certFile, keyFile, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	server := &http.Server{ReadHeaderTimeout: 10 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, r.Proto) })}
	go func() { _ = server.Serve(lis) }()
	t.Cleanup(func() { _ = server.Close() })
	addr := lis.Addr().String()

	for _, h2 := range []bool{true, false} {
		transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "localhost"},
			ForceAttemptHTTP2: h2}
		if !h2 {
			transport.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
		}
		resp, err := (&http.Client{Transport: transport, Timeout: 30 * time.Second}).Get("https://" + addr + "/")
		if err != nil {
			t.Fatalf("h2 %v: %v", h2, err)
		}
		proto, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if want := map[bool]string{true: "HTTP/2.0", false: "HTTP/1.1"}[h2]; string(proto) != want {
			t.Errorf("served over %s, want %s", proto, want)
		}
	}

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	_, _ = io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a.b.c\r\n\r\n")
	answer, _ := io.ReadAll(conn)
	if !strings.HasPrefix(string(answer), "HTTP/1.0 400 Bad Request") {
		t.Errorf("plain HTTP to the TLS listener: answered %q", answer)
	}
}

// servingPair writes a serving pair for localhost, issued by a new test CA, and returns its files
// and a pool of that CA.
func servingPair(t *testing.T) (certFile, keyFile string, roots *x509.CertPool) {
	t.Helper()
	ca, err := testca.New("gateway test CA")
	if err != nil {
		t.Fatal(err)
	}
	certPEM, keyPEM, err := ca.Issue(testca.Cert{CommonName: "gateway", DNSNames: []string{"localhost"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	for name, data := range map[string][]byte{certFile: certPEM, keyFile: keyPEM} {
		if err := os.WriteFile(name, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	roots = x509.NewCertPool()
	roots.AppendCertsFromPEM(ca.PEM)
	return certFile, keyFile, roots
}
