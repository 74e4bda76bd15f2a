package main

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
)

// TestTheMCPListenersHoldAtMostMaxConnections: on the TLS listener (whose handshake anyone
// completes, no client certificate being asked for) and on the plain one alike, connections that
// trickle a request's headers are held at most --max-connections at once however many are
// opened: each one more closes the one that has waited longest, and an agent's request is
// answered while the newest ones stay open.
func TestTheMCPListenersHoldAtMostMaxConnections(t *testing.T) {
	const maxConnections = 3
	certFile, keyFile, roots := servingPair(t)
	for _, tc := range []struct {
		name              string
		certFile, keyFile string
	}{{"tls", certFile, keyFile}, {"plain HTTP", "", ""}} {
		t.Run(tc.name, func(t *testing.T) {
			lis, err := listenMCP(t.Context(), "127.0.0.1:0", tc.certFile, tc.keyFile, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			server := mcpServer("", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				_, _ = io.WriteString(w, "answered")
			}), maxConnections)
			// Only the cap may close a trickling connection here: with the served 10 s header
			// timeout, a run slowed past it would see the oldest ones go by the timeout instead.
			server.ReadHeaderTimeout = 10 * time.Minute
			go func() { _ = server.Serve(lis) }()
			t.Cleanup(func() { _ = server.Close() })
			addr := lis.Addr().String()
			dial := func() net.Conn {
				if tc.certFile == "" {
					return dialOrFail(t, func() (net.Conn, error) { return net.Dial("tcp", addr) })
				}
				return dialOrFail(t, func() (net.Conn, error) {
					return tls.Dial("tcp", addr, &tls.Config{RootCAs: roots, ServerName: "localhost"})
				})
			}
			before := closedAtCap(t)

			held := make([]net.Conn, 0, 3*maxConnections)
			for i := range 3 * maxConnections {
				conn := dial()
				if _, err := io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: x\r\n"); err != nil {
					t.Fatal(err)
				}
				held = append(held, conn)
				// The server took this one in, closing one for it, before the next is opened.
				for deadline := time.Now().Add(time.Minute); closedAtCap(t)-before < float64(i+1-maxConnections); {
					if time.Now().After(deadline) {
						t.Fatalf("connection %d: %v closed at the cap in a minute", i+1, closedAtCap(t)-before)
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
			for i, conn := range held[:2*maxConnections] {
				if !closedBy(conn, 30*time.Second) {
					t.Fatalf("trickling connection %d of %d is still held with %d newer ones open (cap %d)",
						i+1, len(held), len(held)-i-1, maxConnections)
				}
			}

			scheme, transport := "https", &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots,
				ServerName: "localhost"}}
			if tc.certFile == "" {
				scheme, transport = "http", &http.Transport{}
			}
			resp, err := (&http.Client{Transport: transport, Timeout: 30 * time.Second}).Post(
				scheme+"://"+addr+"/mcp", "application/json", strings.NewReader("{}"))
			if err != nil {
				t.Fatalf("an agent's request, the cap full of trickling connections: %v", err)
			}
			answer, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if string(answer) != "answered" {
				t.Errorf("an agent's request: answered %d %q", resp.StatusCode, answer)
			}
			for _, conn := range held[2*maxConnections+1:] {
				if closedBy(conn, 0) {
					t.Error("a trickling connection within the cap was closed")
				}
			}
		})
	}
}

func dialOrFail(t *testing.T, dial func() (net.Conn, error)) net.Conn {
	t.Helper()
	conn, err := dial()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// closedBy says whether the server closed conn (a read ends in EOF or a reset) before d passes.
func closedBy(conn net.Conn, d time.Duration) bool {
	_ = conn.SetReadDeadline(time.Now().Add(max(d, time.Millisecond)))
	_, err := io.Copy(io.Discard, conn)
	var netErr net.Error
	return !errors.As(err, &netErr) || !netErr.Timeout()
}

// closedAtCap is toolgate_connections_closed_at_cap_total{listener="gateway",closed="waiting"}.
func closedAtCap(t *testing.T) float64 {
	t.Helper()
	families, err := ctrlmetrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "toolgate_connections_closed_at_cap_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["listener"] == "gateway" && labels["closed"] == "waiting" {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

// TestAnHTTP2ConnectionIsCappedByItsStreams: an agent's HTTP/2 connection counts as serving while
// a stream on it is (an SSE answer, say), so a new connection at the cap is refused rather than
// cutting it; once its streams end it waits idle and is the one closed for a new connection.
func TestAnHTTP2ConnectionIsCappedByItsStreams(t *testing.T) {
	certFile, keyFile, roots := servingPair(t)
	lis, err := listenMCP(t.Context(), "127.0.0.1:0", certFile, keyFile, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	server := mcpServer("", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			entered <- struct{}{}
			<-release
		}
		_, _ = io.WriteString(w, r.Proto)
	}), 1)
	go func() { _ = server.Serve(lis) }()
	t.Cleanup(func() { _ = server.Close() })
	url := "https://" + lis.Addr().String()
	h2 := func() *http.Client {
		return &http.Client{Timeout: time.Minute, Transport: &http.Transport{ForceAttemptHTTP2: true,
			TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "localhost"}}}
	}
	agent := h2()
	held := make(chan error, 1)
	go func() {
		resp, err := agent.Get(url + "/hold")
		if err == nil {
			proto, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if string(proto) != "HTTP/2.0" {
				err = errors.New("served over " + string(proto))
			}
		}
		held <- err
	}()
	<-entered
	if _, err := h2().Get(url + "/"); err == nil {
		t.Error("a new connection was answered at the cap while the only one served a stream")
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatalf("the stream served while the cap was full: %v", err)
	}
	// Its stream ended, the agent's connection waits idle; a new one takes its place, at once or,
	// if net/http has not marked it idle yet, on a retry.
	for deadline := time.Now().Add(time.Minute); ; {
		resp, err := h2().Get(url + "/")
		if err == nil {
			_ = resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a new connection, the agent's idle: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
