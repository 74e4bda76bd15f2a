package gateway

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"
)

// listenHeaderTimeout bounds how long a pooled session's connect waits for the headers of its
// listening stream (listenOrNothing).
const listenHeaderTimeout = 3 * time.Second

// listenOrNothing returns c with the answer to a session's listening stream made "405 Method Not
// Allowed", the protocol's "no stream here", whenever that stream cannot be had: no headers
// within listenHeaderTimeout, a failed request, or a 5xx. The SDK opens that stream inside
// Connect, for notifications/tools/list_changed: a GET (the standalone stream, protocol versions
// before 2026-07-28), or a POST of subscriptions/listen (later ones). It waits for the GET's
// headers and fails the session on a 5xx, so an upstream (or a proxy before it) that holds such a
// GET unanswered made every pooled connect fail after connectTimeout, and one that answers it 500
// made every session fail at once, where both served calls before pooled sessions listened. The
// POST it sends on a context that never ends, and writes nothing else on the session until its
// headers come, so one held unanswered hung the connect and every call waiting for it for good.
// Such a session is used unwatched, as every session was before: its tools are still compared
// when it connects (describedAlike), and a change it would have announced goes unseen. A GET that
// resumes an interrupted answer (Last-Event-ID) is left as it is.
func listenOrNothing(c *http.Client) *http.Client {
	return wrapTransport(c, func(next http.RoundTripper) http.RoundTripper { return listenRoundTripper{next: next} })
}

type listenRoundTripper struct{ next http.RoundTripper }

// listening says whether req opens a session's listening stream. The SDK names a POST's method in
// Mcp-Method under the protocol versions that have subscriptions/listen.
func listening(req *http.Request) bool {
	switch req.Method {
	case http.MethodGet:
		return req.Header.Get("Last-Event-ID") == ""
	case http.MethodPost:
		return req.Header.Get("Mcp-Method") == "subscriptions/listen"
	}
	return false
}

func (l listenRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if !listening(req) {
		return l.next.RoundTrip(req)
	}
	ctx, cancel := context.WithCancel(req.Context())
	timer := time.AfterFunc(listenHeaderTimeout, cancel)
	resp, err := l.next.RoundTrip(req.WithContext(ctx))
	timedOut := !timer.Stop()
	if err != nil || timedOut || resp.StatusCode >= http.StatusInternalServerError {
		if err == nil {
			_ = resp.Body.Close()
		}
		cancel()
		if req.Context().Err() != nil { // the session itself ended: say so, not "no stream"
			return nil, req.Context().Err()
		}
		return noStream(req), nil
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel} // the stream lives until it is closed
	return resp, nil
}

// noStream is the answer of an upstream that offers no listening stream.
func noStream(req *http.Request) *http.Response {
	return &http.Response{Status: "405 Method Not Allowed", StatusCode: http.StatusMethodNotAllowed,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{"Content-Type": {"text/plain"}},
		Body: io.NopCloser(strings.NewReader("")), Request: req}
}

// cancelOnClose ends its request's context once the body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
