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
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// maxCommitAttempts bounds how often one batch is re-decided after losing a race for its plan's
// status to another replica (or to the plan controller); each attempt re-reads the plan live.
const maxCommitAttempts = 16

// commitTimeout bounds one batch's reads and writes; the API server gives an admission 5 s.
const commitTimeout = 5 * time.Second

// idlePlanTTL is how long a plan's batcher, and the copy of the plan it last wrote, is kept after
// its last admission.
const idlePlanTTL = time.Minute

// decideFunc decides one request against the plan's counters as they stand in its batch: the
// counters read plus the increments of the batch's earlier requests. It adds its own increments
// to u. It may run more than once (after a conflict) and must give the same side effects once.
type decideFunc func(plan *safetyv1alpha1.AgentPlan, u *policy.Usage) (outcome, error)

type usageRequest struct {
	decide decideFunc
	done   chan usageResult
}

type usageResult struct {
	out outcome
	err error
}

// usageCommitter is the group commit of a plan's counters. Admissions (and cost reports) of one
// plan queue up; whoever finds no batch running becomes its leader and decides everything queued
// against the plan's status.usage, in order, each seeing the increments of those before it, then
// writes the result as one status update carrying the resourceVersion it read. If another replica
// wrote the plan in between, the update conflicts, and the leader re-reads the plan and re-decides
// the whole batch: a decision is only answered once the counters it was taken against are the
// ones stored, so counts are exact across replicas. Requests that arrive while a batch is being
// written form the next batch, so under load one write carries many calls.
type usageCommitter struct {
	cache  client.Reader // the manager's cache, for a plan this replica has not written lately
	live   client.Reader // the API server, after a conflict
	writer client.StatusClient
	totals *projectTotals

	mu      sync.Mutex
	plans   map[types.NamespacedName]*planBatch
	swept   time.Time
	nowFunc func() time.Time
}

// planBatch is one plan's queue and the plan as this replica last wrote it: the next batch starts
// from that copy rather than a cache that may not show the write yet.
type planBatch struct {
	queue   []*usageRequest
	running bool
	last    *safetyv1alpha1.AgentPlan
	used    time.Time
	// carry is reportedCost from reports that added nothing to accumulatedCost; it rides on the
	// plan's next write instead of costing one. Lost if the replica stops first: it decides nothing.
	carry safety.Money
}

func newUsageCommitter(cache, live client.Reader, writer client.StatusClient, totals *projectTotals, now func() time.Time) *usageCommitter {
	return &usageCommitter{cache: cache, live: live, writer: writer, totals: totals, plans: map[types.NamespacedName]*planBatch{}, nowFunc: now}
}

// submit queues decide for plan key and returns its outcome once the batch it is in is stored.
func (c *usageCommitter) submit(ctx context.Context, key types.NamespacedName, decide decideFunc) (outcome, error) {
	req := &usageRequest{decide: decide, done: make(chan usageResult, 1)}
	c.mu.Lock()
	b := c.plans[key]
	if b == nil {
		c.sweep()
		b = &planBatch{}
		c.plans[key] = b
	}
	b.queue = append(b.queue, req)
	b.used = c.nowFunc()
	if !b.running {
		b.running = true
		batch := b.queue
		b.queue = nil
		c.mu.Unlock()
		c.commit(ctx, key, b, batch)
		c.mu.Lock()
		// The leader answers its own request now; whatever queued meanwhile is committed by a
		// goroutine of its own, so a busy plan never keeps one admission waiting for the others.
		if len(b.queue) > 0 {
			go c.drain(ctx, key, b)
		} else {
			b.running = false
		}
	}
	c.mu.Unlock()
	select {
	case res := <-req.done:
		return res.out, res.err
	case <-ctx.Done():
		return outcome{}, ctx.Err()
	}
}

// drain commits b's queued requests, batch after batch, until none is left. b.running is set.
func (c *usageCommitter) drain(ctx context.Context, key types.NamespacedName, b *planBatch) {
	for {
		c.mu.Lock()
		if len(b.queue) == 0 {
			b.running = false
			c.mu.Unlock()
			return
		}
		batch := b.queue
		b.queue = nil
		c.mu.Unlock()
		c.commit(ctx, key, b, batch)
	}
}

// carryReported adds a report from before to after to the plan's reportedCost with its next write.
func (c *usageCommitter) carryReported(key types.NamespacedName, after, before safety.Money) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.plans[key]
	if b == nil {
		b = &planBatch{used: c.nowFunc()}
		c.plans[key] = b
	}
	b.carry = b.carry.SaturatingAdd(safety.MoneyFromNanos(after.Nanos() - before.Nanos()))
}

// takeCarry removes and returns a plan's carried reportedCost.
func (c *usageCommitter) takeCarry(b *planBatch) safety.Money {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := b.carry
	b.carry = safety.Money{}
	return m
}

func (c *usageCommitter) returnCarry(b *planBatch, m safety.Money) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b.carry = b.carry.SaturatingAdd(m)
}

// sweep forgets plans idle for idlePlanTTL, at most once per idlePlanTTL. The caller holds c.mu.
func (c *usageCommitter) sweep() {
	now := c.nowFunc()
	if now.Sub(c.swept) < idlePlanTTL {
		return
	}
	c.swept = now
	for key, b := range c.plans {
		if !b.running && len(b.queue) == 0 && b.carry.IsZero() && now.Sub(b.used) > idlePlanTTL {
			delete(c.plans, key)
		}
	}
}

// commit decides and stores one batch, and answers each of its requests. Only the leader touches
// b.last, so it needs no lock.
func (c *usageCommitter) commit(ctx context.Context, key types.NamespacedName, b *planBatch, batch []*usageRequest) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitTimeout)
	defer cancel()
	answer := func(results []usageResult) {
		for i, r := range batch {
			r.done <- results[i]
		}
	}
	fail := func(err error) {
		results := make([]usageResult, len(batch))
		for i := range results {
			results[i].err = err
		}
		answer(results)
	}
	plan := b.last
	if plan == nil {
		plan = &safetyv1alpha1.AgentPlan{}
		if err := c.cache.Get(ctx, key, plan); err != nil {
			fail(fmt.Errorf("reading plan %s: %w", key, err))
			return
		}
	}
	for range maxCommitAttempts {
		read, err := policy.UsageOf(plan)
		if err != nil {
			fail(err)
			return
		}
		u := read.Clone()
		results := make([]usageResult, len(batch))
		for i, r := range batch {
			results[i].out, results[i].err = r.decide(plan, &u)
		}
		if sameUsage(read, u) {
			answer(results)
			return
		}
		updated := plan.DeepCopy()
		carry := c.takeCarry(b)
		u.Reported = u.Reported.SaturatingAdd(carry)
		u.Into(&updated.Status.Usage)
		err = c.writer.Status().Update(ctx, updated)
		if err != nil {
			c.returnCarry(b, carry)
			u.Reported = safety.MoneyFromNanos(u.Reported.Nanos() - carry.Nanos())
		}
		switch {
		case err == nil:
			b.last = updated
			c.totals.observe(updated)
			answer(results)
			return
		case apierrors.IsConflict(err):
			b.last = nil
			plan = &safetyv1alpha1.AgentPlan{}
			if err := c.live.Get(ctx, key, plan); err != nil {
				fail(fmt.Errorf("re-reading plan %s after a conflict: %w", key, err))
				return
			}
		default:
			b.last = nil
			fail(fmt.Errorf("writing the usage of plan %s: %w", key, err))
			return
		}
	}
	fail(errors.New("the usage of plan " + key.String() + " kept changing under this replica; retry"))
}

// sameUsage says whether a batch changed nothing, so there is nothing to write.
func sameUsage(a, b policy.Usage) bool {
	if a.Calls != b.Calls || a.Accumulated != b.Accumulated || a.Reserved != b.Reserved || a.Reported != b.Reported || len(a.Steps) != len(b.Steps) {
		return false
	}
	for k, v := range a.Steps {
		if b.Steps[k] != v {
			return false
		}
	}
	return true
}
