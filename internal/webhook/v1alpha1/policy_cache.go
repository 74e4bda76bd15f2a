package v1alpha1

import (
	"sync"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// maxCachedPolicies bounds the cache; a snapshot hash identifies a policy completely, so an evicted
// entry is simply compiled again.
const maxCachedPolicies = 1024

// policyCache compiles each locked snapshot once: every regex, glob and CEL argument rule is
// compiled when a snapshot is first used, not per request.
type policyCache struct {
	mu       sync.RWMutex
	policies map[string]*policy.LockedPolicy
}

func newPolicyCache() *policyCache { return &policyCache{policies: map[string]*policy.LockedPolicy{}} }

// get returns the compiled policy of a snapshot.
func (c *policyCache) get(snap *safetyv1alpha1.PlanSnapshot) (*policy.LockedPolicy, error) {
	c.mu.RLock()
	p, ok := c.policies[snap.Hash]
	c.mu.RUnlock()
	if ok {
		return p, nil
	}
	p, err := policy.CompileLocked(snap)
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
