package gateway

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// probeTimeout bounds the ping that checks whether an upstream still knows a session.
const probeTimeout = 10 * time.Second

// maxRefusalBytes bounds what is kept of a 404's body: the MCP client reads it only for a
// JSON-RPC error, which is short.
const maxRefusalBytes = 64 << 10

// probeSessions returns c with every HTTP 404 to a request naming a session checked before the
// MCP client sees it. The client takes such a 404 for a session the server has forgotten (a
// restart): it fails every call in flight on the session, and the gateway forgets the ToolServer's
// whole pool, connects anew and lists its tools again (upstreams.failed), and sends the call again
// (forward). But an upstream, or a proxy in front of it, may answer 404 to what a call asks for (a
// path it routes by, a resource the tool looks up), which an agent picks: each such call would
// then end the calls of other agents on the same session and cost the pool a reconnect, three
// times over. So a 404 is checked with a ping on the same session: when the server answers it,
// the session is alive, and the 404 was the call's own; it reaches the client as HTTP 502 (an
// upstream's answer the gateway cannot pass on), which fails that call alone, as one that may
// have run. When the ping is refused too, or gets no answer, the 404 is passed on as it came.
func probeSessions(c *http.Client) *http.Client {
	return wrapTransport(c, func(next http.RoundTripper) http.RoundTripper { return &sessionProbe{next: next} })
}

type sessionProbe struct {
	next http.RoundTripper
	ids  atomic.Uint64 // each ping's own JSON-RPC id: two at once on one session must not share one
}

func (p *sessionProbe) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := p.next.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusNotFound || req.Method != http.MethodPost || !namesSession(req) {
		return resp, err
	}
	// The 404's body is read and closed before the ping: its time on the upstream ends there
	// (timeUpstream), and the ping's is timed on its own, not inside it.
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxRefusalBytes))
	_ = resp.Body.Close()
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	if !p.sessionKnown(req) {
		return resp, nil
	}
	const text = "the upstream answered HTTP 404 Not Found to this request on a session it still knows " +
		"(it answered a ping on it): not a session it has forgotten"
	return &http.Response{
		Status: fmt.Sprintf("%d %s", http.StatusBadGateway, http.StatusText(http.StatusBadGateway)), StatusCode: http.StatusBadGateway,
		Proto: resp.Proto, ProtoMajor: resp.ProtoMajor, ProtoMinor: resp.ProtoMinor,
		Header:        http.Header{"Content-Type": {"text/plain; charset=utf-8"}},
		Body:          io.NopCloser(strings.NewReader(text)),
		ContentLength: int64(len(text)),
		Request:       req,
	}, nil
}

// namesSession says whether req names a session under a protocol version with sessions: only
// then does the MCP client take a 404 for a forgotten session.
func namesSession(req *http.Request) bool {
	return req.Header.Get(sessionIDHeader) != "" && req.Header.Get(protocolVersionHeader) < sessionless
}

// sessionKnown pings the session req names, with req's headers (its session, its protocol
// version, what it accepts), and says whether the server answered it. Not on the call's
// cancellation: the outcome decides the fate of other agents' calls too.
func (p *sessionProbe) sessionKnown(req *http.Request) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(req.Context()), probeTimeout)
	defer cancel()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":"toolgate-gateway-session-probe-%d","method":"ping"}`, p.ids.Add(1))
	ping, err := http.NewRequestWithContext(ctx, http.MethodPost, req.URL.String(), strings.NewReader(body))
	if err != nil {
		return false
	}
	ping.Header = req.Header.Clone()
	resp, err := p.next.RoundTrip(ping)
	if err != nil {
		return false
	}
	discard(resp.Body)
	return resp.StatusCode >= 200 && resp.StatusCode < 300
}

// discard reads what is left of a small body, so that its connection can be used again, and
// closes it.
func discard(body io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(body, 64<<10))
	_ = body.Close()
}
