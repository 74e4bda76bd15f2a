package gateway

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestARefusalOfOneCallIsThatCallsAlone: which answers reach the MCP client as HTTP 502 (a call
// failed alone), which as a plain 404 (a forgotten session), which are checked with a ping on the
// session first, and which are passed on as they came.
func TestARefusalOfOneCallIsThatCallsAlone(t *testing.T) {
	const (
		asCame     = iota // the server's answer, passed on as it came
		ownRefusal        // HTTP 502: the call fails alone
		forgotten         // a plain 404: the client takes the session for forgotten
	)
	cases := []struct {
		name      string
		session   string // the request's Mcp-Session-Id
		version   string // its Mcp-Protocol-Version
		answer    int    // the server's status for the request
		jsonRPC   bool   // the server's answer is a JSON-RPC error
		ping      string // the server's answer to a ping: "ok", "404" or "reset"
		wantPings int
		want      int // what the client gets
	}{
		{name: "a 404 on a session that answers a ping is the call's own", session: "s1", version: "2025-06-18",
			answer: http.StatusNotFound, ping: "ok", wantPings: 1, want: ownRefusal},
		{name: "a 404 on a session whose ping is refused too is a forgotten session", session: "s1",
			version: "2025-06-18", answer: http.StatusNotFound, ping: "404", wantPings: 1, want: forgotten},
		{name: "a 404 whose ping gets no answer is passed on", session: "s1", version: "2025-06-18",
			answer: http.StatusNotFound, ping: "reset", wantPings: 1, want: asCame},
		{name: "as is a 400 with a JSON-RPC error whose ping gets no answer: one agent's call resets no session", session: "s1",
			version: "2025-06-18", answer: http.StatusBadRequest, jsonRPC: true, ping: "reset", wantPings: 1, want: asCame},
		{name: "a 404 to a request naming no session is not checked", version: "2025-06-18",
			answer: http.StatusNotFound, ping: "ok", want: asCame},
		{name: "one under a protocol version without sessions is the call's own, unchecked", session: "s1", version: sessionless,
			answer: http.StatusNotFound, ping: "ok", want: ownRefusal},
		{name: "nor an answer", session: "s1", version: "2025-06-18", answer: http.StatusOK, ping: "ok",
			want: asCame},
		{name: "any other refusal on a session that answers a ping is the call's own", session: "s1", version: "2025-06-18",
			answer: http.StatusRequestEntityTooLarge, ping: "ok", wantPings: 1, want: ownRefusal},
		{name: "any other refusal on a session whose ping is refused too is passed on: the client ends the session",
			session: "s1", version: "2025-06-18", answer: http.StatusForbidden, ping: "404", wantPings: 1, want: asCame},
		{name: "a 400 on a session whose ping is refused too is a forgotten session (as some SDKs answer)", session: "s1",
			version: "2025-06-18", answer: http.StatusBadRequest, ping: "404", wantPings: 1, want: forgotten},
		{name: "a redirect is left to the client to follow", session: "s1", version: "2025-06-18",
			answer: http.StatusTemporaryRedirect, ping: "ok", want: asCame},
		{name: "as under a protocol version without sessions", version: sessionless,
			answer: http.StatusForbidden, ping: "ok", want: ownRefusal},
		{name: "a 404 with a JSON-RPC error on a session that answers a ping is passed on: the client fails that call alone",
			session: "s1", version: "2025-06-18", answer: http.StatusNotFound, jsonRPC: true, ping: "ok", wantPings: 1, want: asCame},
		{name: "a 404 with a JSON-RPC error on a session whose ping is refused too is a forgotten session (Python's SDK)",
			session: "s1", version: "2025-06-18", answer: http.StatusNotFound, jsonRPC: true, ping: "404", wantPings: 1, want: forgotten},
		{name: "as is a 400 with one (server-everything)", session: "s1", version: "2025-06-18",
			answer: http.StatusBadRequest, jsonRPC: true, ping: "404", wantPings: 1, want: forgotten},
		{name: "any other refusal with a JSON-RPC error is passed on, unchecked: the client fails that call alone",
			session: "s1", version: "2025-06-18", answer: http.StatusForbidden, jsonRPC: true, ping: "404", want: asCame},
		{name: "as under a protocol version without sessions", session: "s1", version: sessionless,
			answer: http.StatusNotFound, jsonRPC: true, ping: "404", want: asCame},
		{name: "a status the client fails one call for is passed on", session: "s1", version: "2025-06-18",
			answer: http.StatusServiceUnavailable, ping: "404", want: asCame},
		{name: "a refusal of the first request, on no session, fails the connect: passed on", version: "2025-06-18",
			answer: http.StatusForbidden, ping: "ok", want: asCame},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var (
				mu    sync.Mutex
				pings []*http.Request
			)
			server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				if !strings.Contains(string(body), `"method":"ping"`) {
					if c.jsonRPC {
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(c.answer)
						_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"the call's answer"}}`)
						return
					}
					http.Error(w, "the call's answer", c.answer)
					return
				}
				mu.Lock()
				pings = append(pings, r)
				mu.Unlock()
				switch c.ping {
				case "ok":
					w.Header().Set("Content-Type", "application/json")
					_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
				case "404":
					http.Error(w, "session not found", http.StatusNotFound)
				case "reset":
					conn, _, _ := http.NewResponseController(w).Hijack()
					_ = conn.Close()
				}
			}))
			defer closeUpstream(server)

			req, err := http.NewRequest(http.MethodPost, server.URL, strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set(protocolVersionHeader, c.version)
			if c.session != "" {
				req.Header.Set(sessionIDHeader, c.session)
			}
			resp, err := oneCallRefusals(server.Client()).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()

			switch c.want {
			case asCame:
				if resp.StatusCode != c.answer || !strings.Contains(string(body), "the call's answer") {
					t.Errorf("status %d (%s), want the server's own answer, %d", resp.StatusCode, body, c.answer)
				}
			case ownRefusal:
				if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), fmt.Sprintf("answered HTTP %d", c.answer)) {
					t.Errorf("status %d (%s), want 502 saying what the upstream answered", resp.StatusCode, body)
				}
				if c.wantPings > 0 && !strings.Contains(string(body), "on a session it still knows") {
					t.Errorf("body %q does not say why", body)
				}
			case forgotten:
				if resp.StatusCode != http.StatusNotFound || isRPCError(body) ||
					!strings.Contains(string(body), fmt.Sprintf("answered HTTP %d", c.answer)) ||
					!strings.Contains(string(body), "no longer knows the session") {
					t.Errorf("status %d (%s), want a plain 404 saying what the upstream answered, and why", resp.StatusCode, body)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if len(pings) != c.wantPings {
				t.Fatalf("%d pings, want %d", len(pings), c.wantPings)
			}
			for _, p := range pings {
				if p.Header.Get(sessionIDHeader) != c.session || p.Header.Get(protocolVersionHeader) != c.version ||
					p.Header.Get("Accept") != "application/json, text/event-stream" {
					t.Errorf("the ping's headers %v are not the request's", p.Header)
				}
			}
		})
	}
}

// The ping's time on the upstream is counted once: the 404's body is closed before it is sent,
// so the 404's wait does not hold the ping's too.
func TestASessionProbesPingIsTimedOnce(t *testing.T) {
	const slow = 200 * time.Millisecond
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), `"method":"ping"`) {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		time.Sleep(slow)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer closeUpstream(server)

	ctx, timing := withCallTiming(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, server.URL, strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(protocolVersionHeader, "2025-06-18")
	req.Header.Set(sessionIDHeader, "s1")
	start := time.Now()
	resp, err := oneCallRefusals(timeUpstream(server.Client())).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	timing.upstreamDone()
	elapsed := time.Since(start)
	if resp.StatusCode != http.StatusBadGateway {
		t.Fatalf("status %d, want 502", resp.StatusCode)
	}
	timing.mu.Lock()
	d := timing.waits[waitUpstream]
	timing.mu.Unlock()
	// Counted once, the waits of the 404 and of the ping, one after the other, add up to no more
	// than the time the whole request took, however slow the machine; the 404's held open during
	// the ping would add the ping's time twice. (A fixed bound of twice the ping's time failed
	// whenever the machine stalled the request for longer than the ping.)
	if d < slow || d > elapsed {
		t.Errorf("upstream wait %s; the ping took %s and counts once, in a request of %s", d, slow, elapsed)
	}
}

// A redirect on a session (a server that moved its endpoint, or adds a trailing slash) is followed
// by the HTTP client, as without the gateway's check.
func TestARedirectOnASessionIsFollowed(t *testing.T) {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp/" {
			http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":7,"result":{}}`)
	}))
	defer closeUpstream(server)
	req, err := http.NewRequest(http.MethodPost, server.URL+"/mcp/", strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(protocolVersionHeader, "2025-06-18")
	req.Header.Set(sessionIDHeader, "s1")
	resp, err := oneCallRefusals(server.Client()).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != "/mcp" {
		t.Errorf("status %d at %s, want 200 at /mcp", resp.StatusCode, resp.Request.URL.Path)
	}
}
