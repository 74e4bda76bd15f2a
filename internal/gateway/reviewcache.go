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
// but cannot get a call admitted. Failed reviews are never cached.
type reviewCache struct {
	clock   clock.PassiveClock
	ttl     time.Duration
	max     int
	mu      sync.Mutex
	entries map[[sha256.Size]byte]cachedReview
}

type cachedReview struct {
	info  *auth.TokenInfo
	until time.Time
}

func newReviewCache(clk clock.PassiveClock, ttl time.Duration, maxEntries int) *reviewCache {
	return &reviewCache{clock: clk, ttl: ttl, max: maxEntries, entries: map[[sha256.Size]byte]cachedReview{}}
}

func (c *reviewCache) get(token string) (*auth.TokenInfo, bool) {
	if c == nil || c.ttl <= 0 {
		return nil, false
	}
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || !c.clock.Now().Before(e.until) {
		delete(c.entries, key)
		return nil, false
	}
	return e.info, true
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
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		for k, e := range c.entries { // drop what has expired; if nothing has, start over
			if !now.Before(e.until) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= c.max {
			clear(c.entries)
		}
	}
	c.entries[sha256.Sum256([]byte(token))] = cachedReview{info: info, until: until}
}
