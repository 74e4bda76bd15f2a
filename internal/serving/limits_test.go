package serving

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	certutil "k8s.io/client-go/util/cert"
)

// startTestServer serves a handler that echoes the body's length, with short limits.
func startTestServer(t *testing.T, limits Limits) string {
	t.Helper()
	dir := t.TempDir()
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey("localhost", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"tls.crt": certPEM, "tls.key": keyPEM} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewWebhookServer(WebhookOptions{Host: "127.0.0.1", Port: 0, CertDir: dir, Limits: limits, AnyClient: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Register("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := io.Copy(io.Discard, r.Body)
		if _, tooBig := errors.AsType[*http.MaxBytesError](err); tooBig {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
			return
		}
		_, _ = w.Write([]byte(strings.Repeat("x", int(n%10))))
	}))
	return runWebhookServer(t, s)
}

// runWebhookServer starts s until the test ends and returns its address once it listens.
func runWebhookServer(t *testing.T, s *WebhookServer) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for s.Addr() == "" {
		if time.Now().After(deadline) {
			t.Fatal("the webhook server did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return s.Addr()
}

var tight = Limits{ReadHeaderTimeout: 200 * time.Millisecond, ReadTimeout: 400 * time.Millisecond,
	WriteTimeout: time.Second, IdleTimeout: 300 * time.Millisecond, MaxHeaderBytes: 4 << 10, MaxBodyBytes: 1 << 10}

// closedByServer reads until the server ends the connection; it fails the test if the server
// still holds it after a minute, which only a missing timeout explains.
func closedByServer(t *testing.T, conn net.Conn) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(time.Minute))
	_, err := io.Copy(io.Discard, conn)
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		t.Fatal("the server kept a stalled connection open for a minute")
	}
}

// sendTLS opens a TLS connection to addr, writes data and leaves the connection open.
func sendTLS(t *testing.T, addr, data string) net.Conn {
	t.Helper()
	conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // our own test server
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	if _, err := conn.Write([]byte(data)); err != nil {
		t.Fatal(err)
	}
	return conn
}

// stallAfterHandshake is sendTLS for a server whose tight limits bound the TLS handshake too (to
// tight's 200 ms, which a loaded machine can exceed): a connection the server cut before its
// handshake and request were through is opened again, as the test needs one that stalls after
// them.
func stallAfterHandshake(t *testing.T, addr, data string) net.Conn {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; {
		conn, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // our own test server
		if err == nil {
			if _, err = conn.Write([]byte(data)); err == nil {
				t.Cleanup(func() { _ = conn.Close() })
				return conn
			}
			_ = conn.Close()
		}
		if time.Now().After(deadline) {
			t.Fatalf("no connection got through its handshake and request in a minute: %v", err)
		}
	}
}

func TestSlowClientsAreCut(t *testing.T) {
	addr := startTestServer(t, tight)

	t.Run("a TCP connection that never starts the TLS handshake", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = conn.Close() }()
		closedByServer(t, conn)
	})
	t.Run("a request whose headers trickle in and never end", func(t *testing.T) {
		closedByServer(t, stallAfterHandshake(t, addr, "POST / HTTP/1.1\r\nHost: x\r\n"))
	})
	t.Run("a body that is promised and never sent", func(t *testing.T) {
		closedByServer(t, stallAfterHandshake(t, addr, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\nabc"))
	})
	t.Run("an idle kept-alive connection", func(t *testing.T) {
		// Only the idle timeout is tight here: its request, which must be answered, would otherwise
		// have tight's 200 ms for its handshake and headers, which a loaded machine can exceed.
		idle := tight
		idle.ReadHeaderTimeout, idle.ReadTimeout, idle.WriteTimeout = time.Minute, time.Minute, time.Minute
		conn := sendTLS(t, startTestServer(t, idle), "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
		closedByServer(t, conn)
	})
}

func TestOversizedRequestsAreRefused(t *testing.T) {
	// The sizes are tight; the timeouts, which this test is not about, are not: with tight's
	// 200 ms for a TLS handshake, a client stalled that long on a loaded -race machine failed here.
	limits := tight
	limits.ReadHeaderTimeout, limits.ReadTimeout, limits.WriteTimeout, limits.IdleTimeout =
		time.Minute, time.Minute, time.Minute, time.Minute
	addr := startTestServer(t, limits)
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // our own test server

	resp, err := hc.Post("https://"+addr+"/", "application/json", strings.NewReader(strings.Repeat("a", 2<<10)))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a 2 KiB body against a 1 KiB limit: status %d, want 413", resp.StatusCode)
	}

	req, _ := http.NewRequest(http.MethodGet, "https://"+addr+"/", nil)
	req.Header.Set("X-Padding", strings.Repeat("h", 8<<10))
	resp, err = hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("8 KiB of headers against a 4 KiB limit: status %d, want 431", resp.StatusCode)
	}

	resp, err = hc.Post("https://"+addr+"/", "application/json", strings.NewReader("small"))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a small request: status %d, want 200", resp.StatusCode)
	}
}
