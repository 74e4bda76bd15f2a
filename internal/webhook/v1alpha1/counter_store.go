package v1alpha1

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// CounterStore lets the plan controller, in the same process, wait until the counters this
// replica decided for a plan are in its status: a deleted plan's spend is settled into its
// project from its status, so the last counts must be there first. The leader runs the
// controllers and decides the counters, so settling happens where the counters are.
type CounterStore struct {
	mu sync.Mutex
	c  *usageCommitter
}

// storePoll is how often Store looks whether a plan's counters are written.
const storePoll = 5 * time.Millisecond

func (s *CounterStore) attach(c *usageCommitter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.c = c
}

// Store returns once the counters decided here for plan key are stored (at once if there are
// none), or ctx ends.
func (s *CounterStore) Store(ctx context.Context, key types.NamespacedName) error {
	s.mu.Lock()
	c := s.c
	s.mu.Unlock()
	if c == nil {
		return nil // the webhook is not serving yet: it decided nothing
	}
	c.mu.Lock()
	p := c.plans[key]
	c.mu.Unlock()
	if p == nil {
		return nil
	}
	for {
		p.mu.Lock()
		pending := (p.dirty || p.flushing) && !p.gone
		p.mu.Unlock()
		if !pending {
			return nil
		}
		select {
		case p.kick <- struct{}{}:
		default: // already asked
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for plan %s's counters to be stored: %w", key, ctx.Err())
		case <-time.After(storePoll):
		}
	}
}
