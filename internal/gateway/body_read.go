package gateway

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

// DefaultBodyReadTimeout bounds how long a request's body takes to arrive, from the request's
// headers.
const DefaultBodyReadTimeout = 10 * time.Second

// bodyDeadline bounds the reading of each request's body to timeout from its handler's start.
// The listener bounds a request's line and headers (ReadHeaderTimeout) and nothing after them, so
// a client that declared a body and trickled it, or never sent it, held its connection for as
// long as it liked: an authenticated agent in the SDK's read of the body, before any of the
// gateway's bounds on a caller (callsInFlight) applies, and anyone who reaches the port in
// net/http's read of the body left unread after the 401 (or 403, 405, 415) it was answered, which
// net/http does before it closes or reuses the connection. --max-connections such connections, all
// serving a request, had every other agent's new connection refused. A body read to its end
// clears the deadline: the call's answer then comes when its upstream answers (a read deadline
// passing while the handler runs would end the request's context). A request without a body gets
// no deadline, for the same reason. An answer that closes its connection (a caller without a
// verified token's: unauthenticated_close.go) reads no more of its body: its deadline is moved to
// now, so that the connection is closed once the answer is written, not when the body's time is up.
func bodyDeadline(next http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(time.Now().Add(timeout)) == nil {
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc, timeout: timeout}
		}
		next.ServeHTTP(w, r)
		if w.Header().Get("Connection") == "close" {
			_ = rc.SetReadDeadline(time.Now())
		}
	})
}

// deadlineBody is a request's body read under bodyDeadline's deadline.
type deadlineBody struct {
	io.ReadCloser
	rc      *http.ResponseController
	timeout time.Duration
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case errors.Is(err, io.EOF):
		_ = b.rc.SetReadDeadline(time.Time{}) // read whole, in time: none while the call runs
	case errors.Is(err, os.ErrDeadlineExceeded):
		err = fmt.Errorf("the request's body did not arrive within %v: %w", b.timeout, err)
	}
	return n, err
}
