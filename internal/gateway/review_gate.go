package gateway

import (
	"fmt"
	"net"
	"net/http"
	"sync"
)

// DefaultMaxTokenReviews bounds the TokenReviews in flight at once for tokens the gateway has
// not verified before (reviewGate), and, apart, for tokens it has.
const DefaultMaxTokenReviews = 32

// reviewGate bounds the TokenReviews the gateway sends at once. Every request whose token is not
// in the review cache costs one, and anyone who reaches the port can send token-shaped garbage
// (checkClaims turns away what does not even claim the gateway's audience; a forger writes any
// claims it likes): unbounded, a flood of it made the gateway send the API server as many reviews
// as requests. So the reviews of tokens never verified before are at most max at once, and at
// most a quarter of those from one source address (a pod's, behind the Service), so that one
// flooding pod leaves the rest to others; and the reviews of tokens the gateway has verified
// before (an agent whose cached review has run out) have a lane of their own of max, which no
// flood of unverified tokens can fill: a running agent always gets through. A request past its
// bound is refused at once (HTTP 429, its connection closed), never queued: a queue would hold
// the flood's connections. What is left: reviews of new agents' first tokens share their lane
// with the flood, so a flood from four or more sources can make a new agent retry.
type reviewGate struct {
	max, perSource int
	mu             sync.Mutex
	unverified     int
	known          int
	bySource       map[string]int
}

func newReviewGate(n int) *reviewGate {
	return &reviewGate{max: n, perSource: max(1, n/4), bySource: map[string]int{}}
}

// reviewsBusy is the refusal of a request whose token would need a review past reviewGate's bounds.
type reviewsBusy struct {
	source string // "" when the bound of all sources was reached
	limit  int
}

func (e *reviewsBusy) Error() string {
	if e.source != "" {
		return fmt.Sprintf("%d token reviews are in progress for unverified tokens from %s, its limit: retry", e.limit, e.source)
	}
	return fmt.Sprintf("%d token reviews are in progress, the gateway's limit: retry", e.limit)
}

// acquire takes a review's place in its lane (known: its token was verified before), or refuses
// it; release gives it back, once.
func (g *reviewGate) acquire(source string, known bool) (release func(), err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case known && g.known >= g.max:
		return nil, &reviewsBusy{limit: g.max}
	case known:
		g.known++
	case g.unverified >= g.max:
		return nil, &reviewsBusy{limit: g.max}
	case g.bySource[source] >= g.perSource:
		return nil, &reviewsBusy{source: source, limit: g.perSource}
	default:
		g.unverified++
		g.bySource[source]++
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			if known {
				g.known--
				return
			}
			g.unverified--
			if g.bySource[source]--; g.bySource[source] == 0 {
				delete(g.bySource, source)
			}
		})
	}, nil
}

// sourceOf is the address a request came from, without its port: the agent pod's IP behind the
// Service (kube-proxy keeps it). Never a header, which the sender writes.
func sourceOf(r *http.Request) string {
	if r == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
