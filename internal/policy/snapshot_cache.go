package policy

import (
	"sync"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// maxCachedPolicies bounds a SnapshotCache; a snapshot hash identifies a policy completely, so an
// evicted entry is simply compiled again.
const maxCachedPolicies = 1024

// SnapshotCache compiles each locked snapshot once: every regex, glob and CEL argument rule is
// compiled when a snapshot is first used, not per request. The webhook decides calls with it and
// the gateway decides which tools a plan's tools/list shows.
type SnapshotCache struct {
	mu       sync.RWMutex
	policies map[string]*LockedPolicy
}

// NewSnapshotCache returns an empty cache.
func NewSnapshotCache() *SnapshotCache { return &SnapshotCache{policies: map[string]*LockedPolicy{}} }

// Get returns the compiled policy of a snapshot.
func (c *SnapshotCache) Get(snap *safetyv1alpha1.PlanSnapshot) (*LockedPolicy, error) {
	c.mu.RLock()
	p, ok := c.policies[snap.Hash]
	c.mu.RUnlock()
	if ok {
		return p, nil
	}
	p, err := CompileLocked(snap)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.policies) >= maxCachedPolicies {
		clear(c.policies)
	}
	c.policies[snap.Hash] = p
	c.mu.Unlock()
	return p, nil
}
