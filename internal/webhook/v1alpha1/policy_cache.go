package v1alpha1

import (
	"sync"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// maxCachedPolicies bounds the cache; a snapshot hash identifies a policy completely, so an evicted
// entry is simply compiled again.
const maxCachedPolicies = 1024

// policyCache compiles each locked snapshot once: every regex, glob and CEL argument rule is
// compiled when a snapshot is first used, not per request.
type policyCache struct {
	mu       sync.RWMutex
	policies map[string]*compiledSnapshot
}

// compiledSnapshot is a locked snapshot compiled: the engine's policy and the project's
// argument rules.
type compiledSnapshot struct {
	engine *safety.Policy
	args   *argrules.Set
}

func newPolicyCache() *policyCache { return &policyCache{policies: map[string]*compiledSnapshot{}} }

// get returns the compiled policy of a snapshot.
func (c *policyCache) get(snap *safetyv1alpha1.PlanSnapshot) (*compiledSnapshot, error) {
	c.mu.RLock()
	p, ok := c.policies[snap.Hash]
	c.mu.RUnlock()
	if ok {
		return p, nil
	}
	engine, err := policy.CompileSnapshot(snap)
	if err != nil {
		return nil, err
	}
	args, err := policy.CompileArgumentRules(snap)
	if err != nil {
		return nil, err
	}
	p = &compiledSnapshot{engine: engine, args: args}
	c.mu.Lock()
	if len(c.policies) >= maxCachedPolicies {
		clear(c.policies)
	}
	c.policies[snap.Hash] = p
	c.mu.Unlock()
	return p, nil
}
