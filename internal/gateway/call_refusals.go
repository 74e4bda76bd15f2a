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

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// probeTimeout bounds the ping that checks whether an upstream still knows a session.
const probeTimeout = 10 * time.Second

// maxRefusalBytes bounds what is read of a refusal's body, or of a ping's answer: the MCP client
// reads a refusal only for a JSON-RPC error, which is short.
const maxRefusalBytes = 64 << 10

// oneCallRefusals returns c with an upstream's refusal of one request on a session made that
// request's alone, and a refusal of the session itself made what the MCP client (v1.8.0) takes
// for one. The client ends the whole session, failing every call in flight on it, when a request
// is answered with a status other than 2xx, 500, 502, 503, 504 or 429 and a body that is no
// JSON-RPC error: a 404 it takes for a session the server has forgotten (a restart; the gateway
// then also forgets the ToolServer's pool, connects anew, lists its tools again and sends the call
// again), and any other for a broken transport. A refusal whose body is a JSON-RPC error it takes
// for that call's answer, and keeps the session.
//
// Servers refuse a session they no longer know in all these ways: 404 by the specification, 400
// from some SDKs and servers, some with a JSON-RPC error in the body (Python's SDK answers 404
// with one; server-everything, 400 with one, which the client would keep the dead session for,
// failing every call on it until the gateway restarts). But an upstream, or a proxy in front of
// it, also refuses what a call asks for (a path it routes by, arguments larger than it takes,
// content a filter refuses), which an agent picks: each such call would end the calls of other
// agents on the same session and cost a reconnect, and a 404 the pool, three times over.
//
// So a refusal of a request on a session, without a JSON-RPC error or with one and the status
// 400 or 404, is checked with a ping on that session:
//   - answered: the session is alive and the refusal was the request's own. A JSON-RPC error
//     reaches the client as it came; any other refusal as HTTP 502 (an upstream's answer the
//     gateway cannot pass on). Either fails that call alone, as one that may have run.
//   - refused too: the session is gone. A 400 or 404 reaches the client as a 404 without a
//     JSON-RPC error, the one answer it takes for a forgotten session, so that the gateway
//     connects anew and sends the call again (the server refused the ping, with the same
//     headers, as it refused the call: the session, not the call, was refused); any other status
//     as it came, and the client ends the session.
//   - not answered (a transport error, or no answer within probeTimeout: a server handling one
//     request at a time may be busy): nothing is known of the session, and the refusal goes on
//     as it came.
//
// A redirect is left to the HTTP client to follow; under a protocol version without sessions
// there is no session to lose, and a refusal is the request's own.
func oneCallRefusals(c *http.Client) *http.Client {
	return wrapTransport(c, func(next http.RoundTripper) http.RoundTripper { return &callRefusals{next: next} })
}

type callRefusals struct {
	next http.RoundTripper
	ids  atomic.Uint64 // each ping's own JSON-RPC id: two at once on one session must not share one
}

func (p *callRefusals) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := p.next.RoundTrip(req)
	if err != nil || !onSession(req) || resp.StatusCode < 400 || transientStatus(resp.StatusCode) {
		return resp, err
	}
	// The body is read and closed before any ping: the refusal's time on the upstream ends there
	// (timeUpstream), and the ping's is timed on its own, not inside it.
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxRefusalBytes))
	_ = resp.Body.Close()
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	rpcError := isRPCError(body)
	refusal := fmt.Sprintf("the upstream answered HTTP %d %s to this request", resp.StatusCode, http.StatusText(resp.StatusCode))
	if !namesSession(req) {
		if rpcError {
			return resp, nil // the client fails that call alone, with the server's error
		}
		return replaced(req, resp, http.StatusBadGateway, refusal), nil
	}
	if rpcError && !sessionRefusal(resp.StatusCode) {
		return resp, nil
	}
	switch p.ping(req) {
	case pingAnswered:
		if rpcError {
			return resp, nil
		}
		return replaced(req, resp, http.StatusBadGateway,
			refusal+" on a session it still knows (it answered a ping on it): the request's own refusal"), nil
	case pingRefused:
		if sessionRefusal(resp.StatusCode) {
			return replaced(req, resp, http.StatusNotFound,
				refusal+", and refused a ping on its session too: it no longer knows the session"), nil
		}
	}
	// A ping with no answer (a server busy with one request at a time, or gone) says nothing of
	// the session: the refusal goes on as it came.
	return resp, nil
}

// pingOutcome is what became of a ping on a session.
type pingOutcome int

const (
	pingUnanswered pingOutcome = iota // no HTTP answer: a transport error or the probe's timeout
	pingAnswered                      // a 2xx: the server knows the session
	pingRefused                       // another status: the server refused it
)

// isRPCError says whether body is a JSON-RPC error answer, which the MCP client takes for the
// answer to the call it names (streamable.go, checkResponse).
func isRPCError(body []byte) bool {
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		return false
	}
	r, ok := msg.(*jsonrpc.Response)
	return ok && r.Error != nil
}

// sessionRefusal is a status servers answer a session they do not know with: 404 by the
// specification, 400 from some.
func sessionRefusal(code int) bool {
	return code == http.StatusNotFound || code == http.StatusBadRequest
}

// replaced is the answer to req, in place of resp, with status code and a plain-text body.
func replaced(req *http.Request, resp *http.Response, code int, text string) *http.Response {
	return &http.Response{
		Status: fmt.Sprintf("%d %s", code, http.StatusText(code)), StatusCode: code,
		Proto: resp.Proto, ProtoMajor: resp.ProtoMajor, ProtoMinor: resp.ProtoMinor,
		Header:        http.Header{"Content-Type": {"text/plain; charset=utf-8"}},
		Body:          io.NopCloser(strings.NewReader(text)),
		ContentLength: int64(len(text)),
		Request:       req,
	}
}

// onSession says whether req is a POST on an established session: one naming its session, or
// any under a protocol version without sessions. The first POST (initialize) is left alone: its
// refusal fails the connect, which ends no call.
func onSession(req *http.Request) bool {
	return req.Method == http.MethodPost &&
		(req.Header.Get(sessionIDHeader) != "" || req.Header.Get(protocolVersionHeader) >= sessionless)
}

// transientStatus is a status the MCP client fails a call alone for (streamable.go,
// isTransientHTTPStatus).
func transientStatus(code int) bool {
	switch code {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable,
		http.StatusGatewayTimeout, http.StatusTooManyRequests:
		return true
	}
	return false
}

// namesSession says whether req names a session under a protocol version with sessions: only
// then does the MCP client take a 404 for a forgotten session.
func namesSession(req *http.Request) bool {
	return req.Header.Get(sessionIDHeader) != "" && req.Header.Get(protocolVersionHeader) < sessionless
}

// ping pings the session req names, with req's headers (its session, its protocol version, what
// it accepts), and says how the server answered. Not on the call's cancellation: the outcome
// decides the fate of other agents' calls too.
func (p *callRefusals) ping(req *http.Request) pingOutcome {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(req.Context()), probeTimeout)
	defer cancel()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":"toolgate-gateway-session-probe-%d","method":"ping"}`, p.ids.Add(1))
	ping, err := http.NewRequestWithContext(ctx, http.MethodPost, req.URL.String(), strings.NewReader(body))
	if err != nil {
		return pingUnanswered
	}
	ping.Header = req.Header.Clone()
	resp, err := p.next.RoundTrip(ping)
	if err != nil {
		return pingUnanswered
	}
	discard(resp.Body)
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return pingAnswered
	}
	return pingRefused
}

// discard reads what is left of a small body, so that its connection can be used again, and
// closes it.
func discard(body io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(body, maxRefusalBytes))
	_ = body.Close()
}
