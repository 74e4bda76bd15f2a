package gateway

import (
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// tooManyBodies is the refusal of a request whose caller has its limit of bodies arriving.
type tooManyBodies struct {
	caller string
	limit  int
}

func (e *tooManyBodies) Error() string {
	return fmt.Sprintf("%s has %d requests whose body is still arriving through this gateway, its limit: "+
		"send the next once one has arrived", e.caller, e.limit)
}

func newBodiesArriving(limit int) *callsInFlight {
	b := newCallsInFlight(limit)
	b.refusal = func(caller string, limit int) error { return &tooManyBodies{caller: caller, limit: limit} }
	return b
}

// bodiesArriving bounds the requests of one caller whose body is still arriving (at most
// MaxCallsPerCaller of them, as its calls in flight; bodyDeadline gives each 10 s). Before the
// body has been read no call is known, so callsInFlight does not count such a request: an agent
// could open connection after connection, each with a body it trickles, and hold every one of
// --max-connections, all serving a request, refusing every other agent's new connection. One
// more is refused HTTP 429 naming the caller and the limit, and its connection closed.
func (g *Gateway) bodiesArriving(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		caller, ok := callerOf(auth.TokenInfoFromContext(r.Context()))
		if !ok || r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		release, err := g.arriving.acquire(caller.Username)
		if err != nil {
			w.Header().Set("Connection", "close") // its body is not read: bodyDeadline closes at once
			http.Error(w, err.Error(), http.StatusTooManyRequests)
			return
		}
		defer release() // a body never read to its end
		r.Body = &arrivingBody{ReadCloser: r.Body, release: release}
		next.ServeHTTP(w, r)
	})
}

// arrivingBody gives its request's slot back once it has been read to its end, or its read
// failed (release is acquire's, which gives it back once).
type arrivingBody struct {
	io.ReadCloser
	release func()
}

func (b *arrivingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.release()
	}
	return n, err
}
