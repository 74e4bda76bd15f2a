package serving

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	certutil "k8s.io/client-go/util/cert"
)

// pairDir writes a fresh self-signed serving pair into a new directory.
func pairDir(t *testing.T, host string) string {
	t.Helper()
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey(host, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tls.crt"), certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tls.key"), keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startPeers serves "ok" on /hello from a peer listener on loopback with the pair in dir.
func startPeers(t *testing.T, dir string) (*Peers, string) {
	t.Helper()
	return startPeersWith(t, PeerOptions{Host: "127.0.0.1", Port: 0, CertDir: dir})
}

// startPeersWith is startPeers with o.
func startPeersWith(t *testing.T, o PeerOptions) (*Peers, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p := NewPeers(o)
	p.Mux().HandleFunc("/hello", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") })
	done := make(chan error, 1)
	go func() { done <- p.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for p.Addr() == "" {
		if time.Now().After(deadline) {
			t.Fatal("the peer listener did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return p, "https://" + p.Addr() + "/hello"
}

func get(c *http.Client, url string) (string, error) {
	resp, err := c.Get(url)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	return string(body), err
}

func TestPeersAnswerOnlyTheHolderOfTheServingPair(t *testing.T) {
	dir := pairDir(t, "toolgate-webhook-service.toolgate-system.svc")
	server, url := startPeers(t, dir)

	same, err := NewPeers(PeerOptions{CertDir: dir}).Client()
	if err != nil {
		t.Fatal(err)
	}
	if body, err := get(same, url); err != nil || body != "ok" {
		t.Fatalf("a replica with the serving pair: %q, %v; want ok", body, err)
	}
	if own, err := server.Client(); err != nil {
		t.Fatal(err)
	} else if body, err := get(own, url); err != nil || body != "ok" {
		t.Fatalf("the listener's own client: %q, %v; want ok", body, err)
	}

	// Another pair for the very same name: a certificate the operator does not serve.
	other, err := NewPeers(PeerOptions{CertDir: pairDir(t, "toolgate-webhook-service.toolgate-system.svc")}).Client()
	if err != nil {
		t.Fatal(err)
	}
	if body, err := get(other, url); err == nil {
		t.Fatalf("a client with another certificate was answered %q", body)
	}

	// The server's own check, with a client that trusts any server but presents another pair.
	otherDir := pairDir(t, "toolgate-webhook-service.toolgate-system.svc")
	pair, err := tls.LoadX509KeyPair(filepath.Join(otherDir, "tls.crt"), filepath.Join(otherDir, "tls.key"))
	if err != nil {
		t.Fatal(err)
	}
	forged := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{
		Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12,
		InsecureSkipVerify: true, //nolint:gosec // the test is about the server's check
	}}}
	if body, err := get(forged, url); err == nil {
		t.Fatalf("a client presenting another certificate was answered %q", body)
	}

	// No client certificate at all.
	bare := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{
		InsecureSkipVerify: true, //nolint:gosec // the test is about the server's check
		MinVersion:         tls.VersionTLS12}}}
	if body, err := get(bare, url); err == nil {
		t.Fatalf("a client without a certificate was answered %q", body)
	}
}

func TestPeerClientRefusesAServerWithAnotherPair(t *testing.T) {
	_, url := startPeers(t, pairDir(t, "impostor"))
	c, err := NewPeers(PeerOptions{CertDir: pairDir(t, "impostor")}).Client()
	if err != nil {
		t.Fatal(err)
	}
	if body, err := get(c, url); err == nil {
		t.Fatalf("the client talked to a server with another certificate: %q", body)
	}
}

// A connection opened with the serving pair the operator has since rotated away from (a leaked
// key is why one rotates) must not keep forwarding reviews on a kept-alive connection.
func TestAPeerConnectionEndsWithTheRotatedPair(t *testing.T) {
	dir := pairDir(t, "toolgate-webhook-service.toolgate-system.svc")
	oldPair, err := tls.LoadX509KeyPair(filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key"))
	if err != nil {
		t.Fatal(err)
	}
	server, url := startPeers(t, dir)
	held := newMTLSClient(oldPair)
	if status, _ := held.post(t, url); status != http.StatusOK {
		t.Fatalf("the replica holding the serving pair: status %d", status)
	}

	fresh := pairDir(t, "toolgate-webhook-service.toolgate-system.svc")
	for _, name := range []string{"tls.crt", "tls.key"} {
		data, err := os.ReadFile(filepath.Join(fresh, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	w, err := server.certificates()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if own, err := w.GetCertificate(nil); err == nil && !bytes.Equal(own.Certificate[0], oldPair.Certificate[0]) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the listener did not load the rotated pair")
		}
	}

	if status, reused := held.post(t, url); status != http.StatusForbidden || !reused {
		t.Errorf("the rotated-out pair on its open connection: status %d (reused %v), want 403", status, reused)
	}
	rotated, err := NewPeers(PeerOptions{CertDir: dir}).Client()
	if err != nil {
		t.Fatal(err)
	}
	if body, err := get(rotated, url); err != nil || body != "ok" {
		t.Errorf("a replica with the rotated pair: %q, %v; want ok", body, err)
	}
}

// TestThePeerListenersHandshakesAreBounded: anyone who reaches the peer port may start a TLS
// handshake (only a replica's pair completes one), so its half-open connections are capped as
// the webhook's are: with one more than the cap open, the oldest is closed.
func TestThePeerListenersHandshakesAreBounded(t *testing.T) {
	limits := DefaultLimits
	limits.MaxPendingHandshakes = 2
	// Only the cap may close a half-open connection here, not the handshake timeout.
	limits.ReadHeaderTimeout, limits.ReadTimeout, limits.WriteTimeout = 10*time.Minute, 10*time.Minute, 10*time.Minute
	p, _ := startPeersWith(t, PeerOptions{Host: "127.0.0.1", Port: 0, CertDir: pairDir(t, "replica"), Limits: limits})
	dropped := handshakesDropped.WithLabelValues("peers")
	before := counterValue(dropped)
	held := make([]net.Conn, 0, limits.MaxPendingHandshakes+1)
	for range limits.MaxPendingHandshakes + 1 {
		conn, err := net.Dial("tcp", p.Addr())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		held = append(held, conn)
	}
	if !closedWithin(held[0], 30*time.Second) {
		t.Fatalf("the oldest of %d half-open peer connections is still held (cap %d)", len(held), limits.MaxPendingHandshakes)
	}
	for _, conn := range held[1:] {
		if closedWithin(conn, 0) {
			t.Error("a half-open peer connection within the cap was closed")
		}
	}
	// The cap closes the oldest before it counts the drop: wait for the count, then check it is one.
	waitForCount(t, "toolgate_tls_handshakes_dropped_total{listener=\"peers\"}", before, 1, dropped)
	if got := counterValue(dropped) - before; got != 1 {
		t.Errorf("toolgate_tls_handshakes_dropped_total{listener=\"peers\"} rose by %v, want 1", got)
	}
}
