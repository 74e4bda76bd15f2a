package gateway

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxDeliveryTries bounds how many times forward sends one admitted call: once, and again (on a
// session fetched anew) only while the upstream provably never received it.
const maxDeliveryTries = 3

// sessionIDHeader names a Streamable HTTP session (the MCP transport's Mcp-Session-Id).
const sessionIDHeader = "Mcp-Session-Id"

// protocolVersionHeader is the MCP protocol version a request is sent under, and sessionless is
// the first version with no sessions: under it a server answers a call it handled with HTTP 404
// when the call's answer is MethodNotFound (SEP-2575), so a 404 there says nothing of delivery.
// Versions are dates, compared as strings (as the SDK compares them).
const (
	protocolVersionHeader = "Mcp-Protocol-Version"
	sessionless           = "2026-07-28"
)

// delivery records the HTTP requests one call made to its upstream, from the upstream HTTP
// client (recordDeliveries): how many were started, and how many of them the server refused
// for naming a session it does not know (HTTP 404 to a request with a session ID, under a protocol
// version with sessions: the MCP transport says a server answers so without handling the
// request).
type delivery struct {
	mu      sync.Mutex
	started int
	refused int // of started, once answered: never more than started
}

// mayHaveRun says whether the upstream may have run a call that ended with err (nil: answered
// with a result): every call that was not provably refused unread (unreceived). An error the
// call ended with says nothing more: the SDK wraps failures after sending (a connection reset,
// HTTP 502, 503, 504 from a proxy in front of a server that timed out or crashed mid-call) in
// JSON-RPC errors of its own, and a server's own JSON-RPC error may come after its tool ran (an
// output that fails its schema). So only what the upstream provably never received counts as
// not run. d is nil when the call was never sent.
func (d *delivery) mayHaveRun(err error) bool {
	return d != nil && (err == nil || !d.unreceived(err))
}

type deliveryKey struct{}

// withDelivery is ctx, whose requests to an upstream d records.
func withDelivery(ctx context.Context, d *delivery) context.Context {
	return context.WithValue(ctx, deliveryKey{}, d)
}

// unreceived says whether a call that failed with err, whose requests d recorded, never reached
// its upstream's handler, so that sending it again cannot run it twice: the SDK refused to send
// it on a session that had ended (mcp.ErrConnectionClosed), or the server refused it for a
// session it does not know (mcp.ErrSessionMissing, as after the upstream restarted), and none
// of its requests may have reached the server otherwise. A request still in progress counts as
// received: the SDK fails every call in flight on a session once one call's request finds the
// session gone, and one of those may be running on the server that knew it.
func (d *delivery) unreceived(err error) bool {
	if !errors.Is(err, mcp.ErrConnectionClosed) && !errors.Is(err, mcp.ErrSessionMissing) {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.refused == d.started
}

// recordDeliveries returns c with each request of a call that carries a delivery recorded in it.
func recordDeliveries(c *http.Client) *http.Client {
	return wrapTransport(c, func(next http.RoundTripper) http.RoundTripper { return deliveries{next: next} })
}

type deliveries struct{ next http.RoundTripper }

func (r deliveries) RoundTrip(req *http.Request) (*http.Response, error) {
	d, _ := req.Context().Value(deliveryKey{}).(*delivery)
	if d == nil {
		return r.next.RoundTrip(req)
	}
	d.mu.Lock()
	d.started++
	d.mu.Unlock()
	resp, err := r.next.RoundTrip(req)
	d.mu.Lock()
	// A transport error may come after the request was written: it counts as received.
	if err == nil && resp.StatusCode == http.StatusNotFound && namesSession(req) {
		d.refused++
	}
	d.mu.Unlock()
	return resp, err
}
