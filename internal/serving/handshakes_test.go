package serving

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	certutil "k8s.io/client-go/util/cert"
)

// TestHalfOpenConnectionsAreCappedAndAClientStillGetsThrough: connections that never start their
// TLS handshake are held at most MaxPendingHandshakes at once, however many are opened: one more
// closes the oldest (which the test sees closed by the server, long before the handshake timeout),
// and a client that handshakes is answered while the attacker's connections stay open.
func TestHalfOpenConnectionsAreCappedAndAClientStillGetsThrough(t *testing.T) {
	limits := tight
	// Only the cap may close a half-open connection: net/http's handshake timeout is the least of these.
	limits.ReadHeaderTimeout, limits.ReadTimeout, limits.WriteTimeout = 10*time.Minute, 10*time.Minute, 10*time.Minute
	limits.MaxPendingHandshakes = 4
	addr := startTestServer(t, limits)
	dropped := handshakesDropped.WithLabelValues("webhook")
	before := counterValue(dropped)

	held := make([]net.Conn, 0, 3*limits.MaxPendingHandshakes)
	for range 3 * limits.MaxPendingHandshakes {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = conn.Close() })
		held = append(held, conn)
	}
	// The first 2×cap are closed by the server as later ones arrive; the last cap are held.
	expectOldestGiveWay(t, addr, held, limits.MaxPendingHandshakes, "half-open connection",
		dropped, before, "toolgate_tls_handshakes_dropped_total")
}

// expectOldestGiveWay checks a capped server after held (3×capacity connections, opened oldest
// first, none served) were opened: the first 2×capacity were closed by the server as later ones
// arrived, a client's request is answered, its connection taking the oldest held one's place,
// the newer ones stay open, and counter (named metric) rose by 2×capacity+1 since before.
func expectOldestGiveWay(t *testing.T, addr string, held []net.Conn, capacity int, what string,
	counter prometheus.Counter, before float64, metric string) {
	t.Helper()
	for i, conn := range held[:2*capacity] {
		if !closedWithin(conn, 30*time.Second) {
			t.Fatalf("%s %d of %d is still held with %d newer ones open (cap %d)",
				what, i+1, len(held), len(held)-i-1, capacity)
		}
	}

	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // our own test server
	resp, err := hc.Post("https://"+addr+"/", "application/json", strings.NewReader("small"))
	if err != nil {
		t.Fatalf("a client, with the cap full of %ss: %v", what, err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a client: status %d, want 200", resp.StatusCode)
	}
	if !closedWithin(held[2*capacity], 30*time.Second) {
		t.Errorf("the oldest held %s was not closed when the client's took its place", what)
	}
	for _, conn := range held[2*capacity+1:] {
		if closedWithin(conn, 0) {
			t.Errorf("a %s within the cap was closed", what)
		}
	}
	// The half-open cap closes a connection before it counts the drop: wait for the count, which
	// a reader that saw the close can otherwise read a moment early.
	waitForCount(t, metric, before, float64(2*capacity+1), counter)
	if got := counterValue(counter) - before; got != float64(2*capacity+1) {
		t.Errorf("%s rose by %v, want %d", metric, got, 2*capacity+1)
	}
}

// closedWithin says whether the server closed conn (a read ends in EOF or a reset) before d passes.
func closedWithin(conn net.Conn, d time.Duration) bool {
	if d == 0 {
		d = time.Millisecond
	}
	_ = conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	var netErr net.Error
	return !errors.As(err, &netErr) || !netErr.Timeout()
}

// TestFailedHandshakesAreCountedNotEachLogged: 1000 connections that fail their handshake (plain
// HTTP to the TLS port) are all counted in toolgate_tls_handshake_errors_total and make one log
// line, which says so; each is answered net/http's 400. After the interval, a TCP probe's
// connection (closed without a byte) is counted but not logged, and the next failure's line says
// how many went unlogged. A client that handshakes is still answered.
func TestFailedHandshakesAreCountedNotEachLogged(t *testing.T) {
	var (
		mu    sync.Mutex
		lines []string
		now   = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	)
	log := funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, args)
	}, funcr.Options{})
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	const name = "test-failed-handshakes"
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lis := NewTLSListener(inner, selfSignedConfig(t), HandshakeOptions{Name: name, Log: log, now: clock})
	// Roomy timeouts: the test is about failed handshakes, and its last client, which handshakes,
	// must not fail on tight's 200 ms to send its request on a loaded machine.
	limits := tight
	limits.ReadHeaderTimeout, limits.ReadTimeout, limits.WriteTimeout, limits.IdleTimeout =
		time.Minute, time.Minute, time.Minute, time.Minute
	srv := limits.Server(t.Context(), name, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(func() { _ = srv.Close() })
	// The counter is the package's: read it as a rise since now, so that a second run (-count)
	// or another test under this name does not start it above zero.
	failures := handshakeErrors.WithLabelValues(name)
	before := counterValue(failures)
	failed := func() float64 { return counterValue(failures) - before }

	const attempts = 1000
	for i := range attempts {
		conn, err := net.Dial("tcp", lis.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		_, _ = conn.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
		answer, _ := io.ReadAll(conn) // until the server closes it
		_ = conn.Close()
		if i == 0 && !strings.HasPrefix(string(answer), "HTTP/1.0 400 Bad Request") {
			t.Errorf("plain HTTP to the TLS port was answered %q, want net/http's 400", answer)
		}
	}
	waitForCount(t, "toolgate_tls_handshake_errors_total", before, attempts, failures)
	mu.Lock()
	if len(lines) != 1 {
		t.Errorf("%d failed handshakes made %d log lines, want 1", attempts, len(lines))
	}
	now = now.Add(time.Minute)
	mu.Unlock()

	// A TCP probe (connected, closed without a byte) is counted, not logged.
	probe, err := net.Dial("tcp", lis.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	_ = probe.Close()
	waitForCount(t, "toolgate_tls_handshake_errors_total", before, attempts+1, failures)
	conn, err := net.Dial("tcp", lis.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	_, _ = conn.Write([]byte("plain\r\n\r\n"))
	_, _ = io.Copy(io.Discard, conn)
	_ = conn.Close()
	waitForCount(t, "toolgate_tls_handshake_errors_total", before, attempts+2, failures)
	mu.Lock()
	if len(lines) != 2 || !strings.Contains(lines[1], `"failedUnloggedSinceLastLine"=999`) {
		t.Errorf("after the interval: lines %q, want a second one counting the 999 unlogged", lines)
	}
	mu.Unlock()

	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // our own test server
	resp, err := hc.Get("https://" + lis.Addr().String() + "/")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || failed() != attempts+2 {
		t.Errorf("a client that handshakes: status %d, failures %v, want %d", resp.StatusCode, failed(), attempts+2)
	}
}

func selfSignedConfig(t *testing.T) *tls.Config {
	t.Helper()
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey("localhost", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{pair}}
}

// counterValue is c's count.
func counterValue(c prometheus.Counter) float64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		panic(err)
	}
	return m.GetCounter().GetValue()
}
