package gateway

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"k8s.io/utils/clock"
)

// DefaultMaxRequestsServed is how many requests of authenticated callers a replica serves at once
// (fairShares) when Options say nothing: the listener's default connection cap less an eighth,
// left to connections still authenticating (reviewGate's two lanes) and to new agents.
const DefaultMaxRequestsServed = 448

// shareWaitMemory is how long a caller refused for want of room counts as one that shares the
// replica, so that what the others give back goes to it rather than back to them.
const shareWaitMemory = 10 * time.Second

// fairShares divides the requests a replica serves at once among the callers (ServiceAccounts)
// that want them. Each caller's own bounds (callsInFlight, bodiesArriving: 64 each) did not stop
// several ServiceAccounts together from holding every one of --max-connections, each connection
// serving a request (a slow upstream call, a body trickled for its 10 s), after which the listener
// closed every other agent's new connection before reading a byte: locked out, without a word.
//
// So the requests served at once are at most max, below the listener's cap so that a new agent's
// connection is always taken in and its token checked; and while a caller refused for want of
// room waits (within shareWaitMemory), a caller may take another only while it holds fewer than
// its share, max divided among the callers holding any or waiting (at least 1). A caller may use
// any room no one else asks for; as others come, each request that ends frees room that only a
// caller under its share may take while one waits, so the replica converges to equal shares
// without ending anyone's request. A request refused gets HTTP 429 with
// Retry-After and its connection closed. What is left: a caller over its share keeps what it
// holds until those requests end (a body within BodyReadTimeout, a call when its upstream
// answers or UpstreamCallTimeout), so a new agent may be refused until then; and as many
// ServiceAccounts as max, each holding one request, still fill it (a gateway per namespace,
// and the NetworkPolicy letting only agents' namespaces reach it, bound who can).
type fairShares struct {
	clock   clock.PassiveClock
	max     int
	mu      sync.Mutex
	total   int
	by      map[string]int       // requests held, by caller; none has no entry
	waiting map[string]time.Time // callers refused for want of room, until when they count
}

func newFairShares(clk clock.PassiveClock, n int) *fairShares {
	return &fairShares{clock: clk, max: n, by: map[string]int{}, waiting: map[string]time.Time{}}
}

// noShare is the refusal of a request past its caller's share, or past the replica's bound.
type noShare struct {
	caller             string
	held, share, total int
}

func (e *noShare) Error() string {
	return fmt.Sprintf("%s holds %d requests being served by this gateway, its share of the %d it serves at once "+
		"among the callers using it now: retry once one has been answered", e.caller, e.held, e.total)
}

// acquire takes one of the replica's requests for caller, or refuses it; release gives it back,
// once.
func (f *fairShares) acquire(caller string) (release func(), err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.clock.Now()
	held := f.by[caller]
	share := max(1, f.max/f.sharing(caller, now))
	if f.total >= f.max || held >= share && f.waitingUnder(caller, share) {
		if len(f.waiting) >= f.max { // every caller that shares is within max of them; what is older goes
			clear(f.waiting)
		}
		f.waiting[caller] = now.Add(shareWaitMemory)
		return nil, &noShare{caller: caller, held: held, share: share, total: f.max}
	}
	delete(f.waiting, caller)
	f.by[caller]++
	f.total++
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.total--
			if f.by[caller]--; f.by[caller] == 0 {
				delete(f.by, caller)
			}
		})
	}, nil
}

// sharing is how many callers share the replica now: those holding a request, those refused
// within shareWaitMemory, and caller.
func (f *fairShares) sharing(caller string, now time.Time) int {
	n := len(f.by)
	if f.by[caller] == 0 {
		n++
	}
	for c, until := range f.waiting {
		switch {
		case !now.Before(until):
			delete(f.waiting, c)
		case c != caller && f.by[c] == 0:
			n++
		}
	}
	return n
}

// waitingUnder is whether a caller other than caller, refused within shareWaitMemory, holds
// fewer than share: room given back is then its, not that of a caller at or over its share. While
// none waits, a caller may go past its share into room no one asks for (up to its own bound).
func (f *fairShares) waitingUnder(caller string, share int) bool {
	for c := range f.waiting { // sharing has just dropped the expired
		if c != caller && f.by[c] < share {
			return true
		}
	}
	return false
}

// shared holds each authenticated request's place among the requests the replica serves at once
// (fairShares) while it is served.
func (g *Gateway) shared(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		caller, ok := callerOf(auth.TokenInfoFromContext(r.Context()))
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		release, err := g.shares.acquire(caller.Username)
		if err != nil {
			w.Header().Set("Connection", "close") // its body is not read: bodyDeadline closes at once
			w.Header().Set("Retry-After", "1")
			http.Error(w, err.Error(), http.StatusTooManyRequests)
			return
		}
		defer release()
		next.ServeHTTP(w, r)
	})
}
