package serving

import (
	"bufio"
	"crypto/tls"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/testca"
)

// Nothing but a handshake with the client certificate reaches a handler: no path, method, protocol
// version or plain-HTTP request is let through without one.
func TestWithoutTheClientCertificateNoRequestReachesAHandler(t *testing.T) {
	ca := mustCA(t, "webhook client CA")
	srv := startMTLSServer(t, ca.PEM)

	t.Run("any path and method over TLS", func(t *testing.T) {
		for _, path := range []string{"/validate", "/", "/healthz", "/readyz", "/metrics", "/debug/pprof/", "/convert",
			"//validate", "/VALIDATE", "/validate/", "/validate-safety-toolgate-dev-v1alpha1-agenttoolcall"} {
			for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodHead} {
				for _, h2 := range []bool{false, true} {
					c := newMTLSClientProto(tls.Certificate{}, h2)
					req, err := http.NewRequest(method, "https://"+srv.addr+path, http.NoBody)
					if err != nil {
						t.Fatal(err)
					}
					if resp, err := c.hc.Do(req); err == nil {
						_ = resp.Body.Close()
						t.Errorf("%s %s (h2 %v) without a certificate: answered %d", method, path, h2, resp.StatusCode)
					}
				}
			}
		}
	})

	t.Run("TLS older than 1.2", func(t *testing.T) {
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 10 * time.Second}, "tcp", srv.addr, &tls.Config{
			MaxVersion: tls.VersionTLS11, InsecureSkipVerify: true, //nolint:gosec // the test is about the server
		})
		if err == nil {
			_ = conn.Close()
			t.Error("a TLS 1.1 handshake succeeded")
		}
	})

	t.Run("plain HTTP to the TLS port", func(t *testing.T) {
		conn, err := net.DialTimeout("tcp", srv.addr, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = conn.Close() }()
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := conn.Write([]byte("POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("plain HTTP: answered %d", resp.StatusCode)
			}
		} else if !strings.Contains(err.Error(), "EOF") && !strings.Contains(err.Error(), "reset") {
			t.Errorf("plain HTTP: %v", err)
		}
	})

	if n := srv.served.Load(); n != 0 {
		t.Errorf("%d requests without the client certificate reached the handler", n)
	}
	// The control: with the certificate, the same handler is reached.
	if status, _ := newMTLSClient(mustCert(t, ca, testca.Cert{CommonName: "kube-apiserver"})).post(t, srv.url); status != http.StatusOK ||
		srv.served.Load() != 1 {
		t.Errorf("with the client certificate: status %d, %d requests served", status, srv.served.Load())
	}
}
