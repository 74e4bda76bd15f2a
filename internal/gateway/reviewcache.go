package gateway

import (
	"crypto/sha256"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"k8s.io/utils/clock"
)

// reviewCache remembers successful TokenReviews for a short time, so that the several HTTP
// requests of one MCP exchange cost one review. It is safe because the review only decides what
// the gateway shows: every call is created with the caller's token, which the API server
// authenticates again, so a token revoked (its pod deleted) within the TTL may still list tools
// but cannot get a call admitted.
//
// It also remembers, until the token expires, that a token was verified once (known): such a
// token's next review takes reviewGate's lane of known tokens, which no flood of garbage fills.
// Knowing a token decides nothing: it is reviewed again all the same.
//
// And it remembers refusals (the API server did not authenticate the token for the gateway's
// audience) for rejectedTTL, so that a token sent again and again costs one review per
// rejectedTTL; never an error of the review itself (the API server unavailable, a timeout),
// which is no verdict on the token. A refused token is no longer known.
type reviewCache struct {
	clock    clock.PassiveClock
	ttl      time.Duration
	max      int
	mu       sync.Mutex
	entries  map[[sha256.Size]byte]cachedReview
	rejected map[[sha256.Size]byte]rejection
}

type cachedReview struct {
	info *auth.TokenInfo
	// until is when the review is no longer reused; known until when the token is no longer known.
	until, knownUntil time.Time
}

type rejection struct {
	err   error
	until time.Time
}

// rejectedTTL is how long a refused token is refused again without a review: short, as the API
// server's refusal of a real token may come of a passing failure of its own authenticator.
const rejectedTTL = 5 * time.Second

func newReviewCache(clk clock.PassiveClock, ttl time.Duration, maxEntries int) *reviewCache {
	return &reviewCache{clock: clk, ttl: ttl, max: maxEntries, entries: map[[sha256.Size]byte]cachedReview{},
		rejected: map[[sha256.Size]byte]rejection{}}
}

func (c *reviewCache) get(token string) (*auth.TokenInfo, bool) {
	if c == nil || c.ttl <= 0 {
		return nil, false
	}
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	now := c.clock.Now()
	if !ok || !now.Before(e.until) {
		if ok && !now.Before(e.knownUntil) {
			delete(c.entries, key)
		}
		return nil, false
	}
	return e.info, true
}

// known is whether token was verified once and has not expired since.
func (c *reviewCache) known(token string) bool {
	if c == nil || c.ttl <= 0 {
		return false
	}
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	return ok && c.clock.Now().Before(e.knownUntil)
}

func (c *reviewCache) put(token string, info *auth.TokenInfo) {
	if c == nil || c.ttl <= 0 {
		return
	}
	now := c.clock.Now()
	until := now.Add(c.ttl)
	if !info.Expiration.IsZero() && info.Expiration.Before(until) {
		until = info.Expiration
	}
	knownUntil := until
	if info.Expiration.After(until) {
		knownUntil = info.Expiration
	}
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.rejected, key)
	if len(c.entries) >= c.max {
		for k, e := range c.entries { // drop what has expired; if nothing has, start over
			if !now.Before(e.knownUntil) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= c.max {
			clear(c.entries)
		}
	}
	c.entries[key] = cachedReview{info: info, until: until, knownUntil: knownUntil}
}

// refused is the API server's refusal of token, when it was refused within rejectedTTL.
func (c *reviewCache) refused(token string) (error, bool) {
	if c == nil || c.ttl <= 0 {
		return nil, false
	}
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.rejected[key]
	if !ok || !c.clock.Now().Before(r.until) {
		delete(c.rejected, key)
		return nil, false
	}
	return r.err, true
}

// refuse remembers the API server's refusal of token (never an error of the review itself).
// Anyone can fill this map with refusals, one review each, so when full it starts over: the
// cost of that is one more review of a token refused before, which reviewGate bounds.
func (c *reviewCache) refuse(token string, err error) {
	if c == nil || c.ttl <= 0 {
		return
	}
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, key)
	if len(c.rejected) >= c.max {
		clear(c.rejected)
	}
	c.rejected[key] = rejection{err: err, until: c.clock.Now().Add(min(rejectedTTL, c.ttl))}
}
