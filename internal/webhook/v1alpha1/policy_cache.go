package v1alpha1

import (
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// maxCachedPolicies bounds the cache; a snapshot hash identifies a policy completely, so an evicted
// entry is simply compiled again.
const maxCachedPolicies = 1024

// policyCache compiles each locked snapshot once: every regex and glob is compiled when a
// snapshot is first used, not per request.
type policyCache struct {
	mu       sync.RWMutex
	policies map[string]*safety.Policy
}

func newPolicyCache() *policyCache { return &policyCache{policies: map[string]*safety.Policy{}} }

// get returns the compiled policy of a snapshot.
func (c *policyCache) get(snap *safetyv1alpha1.PlanSnapshot) (*safety.Policy, error) {
	c.mu.RLock()
	p, ok := c.policies[snap.Hash]
	c.mu.RUnlock()
	if ok {
		return p, nil
	}
	profile, errs := policy.ProfileFromSpec(&snap.Safety, field.NewPath("status", "snapshot", "safety"))
	if len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	p, err := safety.Compile(profile, policy.RulesFromProject(snap.Project, snap.Level))
	if err != nil {
		return nil, fmt.Errorf("compiling snapshot %s: %w", snap.Hash, err)
	}
	c.mu.Lock()
	if len(c.policies) >= maxCachedPolicies {
		clear(c.policies)
	}
	c.policies[snap.Hash] = p
	c.mu.Unlock()
	return p, nil
}
