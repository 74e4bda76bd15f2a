package v1alpha1

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// CounterStore lets the plan controller, in the same process, close a deleted plan's counters
// and wait until they are in its status: a deleted plan's spend is settled into its project from
// its status, so the last counts must be there first, and no call may be counted after. The
// leader runs the controllers and decides the counters, so settling happens where the counters
// are. Tests use Store to read a plan's status once what they admitted is in it.
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

func (s *CounterStore) committer() *usageCommitter {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c
}

// Store returns once the counters decided here for plan key are stored (at once if there are
// none), or ctx ends.
func (s *CounterStore) Store(ctx context.Context, key types.NamespacedName) error {
	c := s.committer()
	if c == nil {
		return nil // the webhook is not serving yet: it decided nothing
	}
	p := c.held(key)
	if p == nil {
		return nil
	}
	return awaitStored(ctx, key, p)
}

// Seal refuses every further decision for plan, which is being deleted; loads its counters if this
// replica holds none yet (after a takeover: the stored ones raised by the recount of its calls);
// ends every hold of its calls, charged as a hold past its until is (a call still in flight can
// report to a deleted plan no more, so its unknown cost is its ceiling); and returns once they
// are stored.
func (s *CounterStore) Seal(ctx context.Context, plan *safetyv1alpha1.AgentPlan) error {
	c := s.committer()
	if c == nil {
		return nil
	}
	key := client.ObjectKeyFromObject(plan)
	p := c.lockCounters(key)
	err := c.current(ctx, key, p, plan.UID)
	if err == nil {
		// Also when a load found the plan being deleted and sealed it: the holds it recounted are
		// charged here, or deleting the plan would give them back.
		c.charge(key, plan, p, p.held.endAll(c.nowFunc()))
		p.sealed = true
	}
	p.mu.Unlock()
	switch {
	case apierrors.IsNotFound(err) || errors.Is(err, errPlanReplaced):
		return nil // gone: settled already
	case err != nil:
		return err
	}
	return awaitStored(ctx, key, p)
}

// Relocked tells the counters that plan, as just written by the plan controller of this process,
// is stored with a new snapshot: a decision of it made afterwards with a plan read before, from a
// cache that does not show the re-lock yet, is made again with the plan read live
// (errSnapshotReplaced). The replica that decides the plan's counters runs the plan controller,
// so every decision after the re-lock's write sees it. A plan whose counters this replica does not
// hold needs nothing: they are loaded from a live read.
func (s *CounterStore) Relocked(plan *safetyv1alpha1.AgentPlan) {
	c := s.committer()
	if c == nil {
		return
	}
	if p := c.held(client.ObjectKeyFromObject(plan)); p != nil {
		p.seeSnapshot(plan)
	}
}

// awaitStored returns once p holds nothing unstored, kicking its flusher out of its interval.
func awaitStored(ctx context.Context, key types.NamespacedName, p *planCounters) error {
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
