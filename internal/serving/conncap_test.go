package serving

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// startCappedServer serves handler over TLS on loopback with limits, as the webhook does, its
// connections capped under name (one per test, so that its counters are the test's own).
func startCappedServer(t *testing.T, limits Limits, name string, handler http.Handler) string {
	t.Helper()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lis := limits.tlsListener(inner, selfSignedConfig(t), name)
	srv := limits.Server(context.Background(), name, handler)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(func() { _ = srv.Close() })
	return lis.Addr().String()
}

// waitForCount waits until c has risen by want since before, failing the test after a minute.
func waitForCount(t *testing.T, what string, before, want float64, c prometheus.Counter) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for counterValue(c)-before < want {
		if time.Now().After(deadline) {
			t.Fatalf("%s rose by %v in a minute, want %v", what, counterValue(c)-before, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTricklingConnectionsAreCappedAndAClientStillGetsThrough: connections past their handshake
// that trickle a request's headers are held at most MaxConnections at once, however many are
// opened (the header timeout is long here, so only the cap closes them): each one more closes
// the one that has waited longest, and a client's request is answered while the newest ones stay
// open, its connection taking the oldest's place.
func TestTricklingConnectionsAreCappedAndAClientStillGetsThrough(t *testing.T) {
	limits := tight
	limits.ReadHeaderTimeout, limits.ReadTimeout, limits.WriteTimeout, limits.IdleTimeout =
		10*time.Minute, 10*time.Minute, 10*time.Minute, 10*time.Minute
	limits.MaxConnections = 4
	const name = "test-trickling-connections"
	addr := startCappedServer(t, limits, name, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	closed := connectionsClosedAtCap.WithLabelValues(name, "waiting")
	before := counterValue(closed)

	held := make([]net.Conn, 0, 3*limits.MaxConnections)
	for i := range 3 * limits.MaxConnections {
		held = append(held, sendTLS(t, addr, "POST / HTTP/1.1\r\nHost: x\r\n"))
		if over := i + 1 - limits.MaxConnections; over > 0 {
			// The server took this one in (closing one for it) before the next is opened.
			waitForCount(t, "toolgate_connections_closed_at_cap_total{closed=waiting}", before, float64(over), closed)
		}
	}
	expectOldestGiveWay(t, addr, held, limits.MaxConnections, "trickling connection",
		closed, before, "toolgate_connections_closed_at_cap_total{closed=waiting}")
}

// TestAtTheCapServingConnectionsAreKeptAndANewOneRefused: with every held connection serving a
// request, a new connection is closed at once and counted, and the requests being served are
// answered; once they are, their connections wait idle, and a new client's connection takes the
// place of one of them (the near miss: the cap refuses only while nothing can be closed).
func TestAtTheCapServingConnectionsAreKeptAndANewOneRefused(t *testing.T) {
	limits := tight
	limits.ReadHeaderTimeout, limits.ReadTimeout, limits.WriteTimeout, limits.IdleTimeout =
		10*time.Minute, 10*time.Minute, 10*time.Minute, 10*time.Minute
	limits.MaxConnections = 2
	const name = "test-serving-connections"
	entered, release := make(chan struct{}), make(chan struct{})
	addr := startCappedServer(t, limits, name, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			entered <- struct{}{}
			<-release
		}
		_, _ = io.WriteString(w, "ok")
	}))
	refused := connectionsClosedAtCap.WithLabelValues(name, "new")
	closedWaiting := connectionsClosedAtCap.WithLabelValues(name, "waiting")
	refusedBefore, waitingBefore := counterValue(refused), counterValue(closedWaiting)

	hc := &http.Client{Timeout: time.Minute, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // our own test server
	answers := make(chan error, limits.MaxConnections)
	for range limits.MaxConnections {
		go func() {
			resp, err := hc.Get("https://" + addr + "/hold")
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body) // read to its end, so that the connection is kept
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					err = io.ErrUnexpectedEOF
				}
			}
			answers <- err
		}()
		<-entered
	}

	conn := sendTLS(t, addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	if !closedWithin(conn, 30*time.Second) {
		t.Fatal("a new connection was held with every connection at the cap serving a request")
	}
	waitForCount(t, "toolgate_connections_closed_at_cap_total{closed=new}", refusedBefore, 1, refused)

	close(release)
	for range limits.MaxConnections {
		if err := <-answers; err != nil {
			t.Errorf("a request served while the cap was full: %v", err)
		}
	}
	// net/http marks a connection idle just after its answer is written: wait for both.
	waitForGauge(t, "toolgate_connections_held{state=waiting}", float64(limits.MaxConnections),
		connectionsHeld.WithLabelValues(name, "waiting"))
	other := &http.Client{Timeout: time.Minute, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // our own test server
	resp, err := other.Get("https://" + addr + "/")
	if err != nil {
		t.Fatalf("a new client, the held connections idle: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if got := counterValue(closedWaiting) - waitingBefore; got != 1 {
		t.Errorf("toolgate_connections_closed_at_cap_total{closed=waiting} rose by %v, want 1 (an idle one)", got)
	}
	// The client reads its answer before the server marks that connection idle: wait for it, as
	// above, rather than reading the gauge in the gap.
	waitForGauge(t, "toolgate_connections_held{state=serving}", 0, connectionsHeld.WithLabelValues(name, "serving"))
	if got := counterValue(refused) - refusedBefore; got != 1 {
		t.Errorf("toolgate_connections_closed_at_cap_total{closed=new} rose by %v, want 1", got)
	}
}

// waitForGauge waits until g reads want, failing the test after a minute.
func waitForGauge(t *testing.T, what string, want float64, g prometheus.Gauge) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); gaugeValue(g) != want; {
		if time.Now().After(deadline) {
			t.Fatalf("%s is %v after a minute, want %v", what, gaugeValue(g), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// gaugeValue is g's value.
func gaugeValue(g prometheus.Gauge) float64 {
	var m dto.Metric
	if err := g.Write(&m); err != nil {
		panic(err)
	}
	return m.GetGauge().GetValue()
}
