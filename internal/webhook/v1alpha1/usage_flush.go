package v1alpha1

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// DefaultUsageFlushInterval is the least time between two writes of one plan's counters, and the
// pause in its decisions a write waits for: after a burst its counters reach its status this long
// (plus one write) after its last decision.
const DefaultUsageFlushInterval = 100 * time.Millisecond

// DefaultUsageFlushMaxInterval is the longest a write of a plan's counters waits for that pause:
// a plan admitting calls without a pause has its status written once per this interval. Each write
// carries the plan's whole status (its snapshot and every step's counter): at ten writes a second a
// busy plan's own writes were most of the API server's extra CPU for toolgate's creates
// (docs/benchmarks.md, "A busy plan's status written once a second").
const DefaultUsageFlushMaxInterval = time.Second

// maxFlushBackoff bounds the doubling of the wait after failed writes: at most 2^6 flushIntervals.
const maxFlushBackoff = 6

// writeTimeout bounds one write of a plan's counters.
const writeTimeout = 10 * time.Second

// markDirty notes that p holds counts its plan's status does not, and starts its flusher. p.mu
// is held.
func (c *usageCommitter) markDirty(key types.NamespacedName, p *planCounters) {
	p.dirty = true
	p.lastDecided = c.nowFunc()
	if p.flushing {
		return
	}
	p.flushing = true
	c.flushers.Add(1)
	go c.flush(key, p)
}

// flush writes p's counters into its plan's status until nothing is left to write: when each
// write is due (flushWait), carrying every count decided since the last. A write that
// conflicts (the plan controller, the denial counter, or a replica that decided before this one
// wrote the plan in between) re-reads the plan and raises the counters in memory to the stored
// ones before it writes again, so no count is lost whoever wrote.
func (c *usageCommitter) flush(key types.NamespacedName, p *planCounters) {
	defer c.flushers.Add(-1)
	for {
		p.mu.Lock()
		if p.flushed() {
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		c.awaitWrite(p)
		p.mu.Lock()
		if p.flushed() {
			p.mu.Unlock()
			return
		}
		updated := p.stored.DeepCopy()
		p.u.Into(&updated.Status.Usage)
		listed := p.deletedInto(&updated.Status.Usage)
		p.dirty, p.conflicted = false, false
		p.lastWrite = c.nowFunc()
		p.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		err := c.writer.Status().Update(ctx, updated)
		var reread *safetyv1alpha1.AgentPlan
		if apierrors.IsConflict(err) {
			reread = &safetyv1alpha1.AgentPlan{}
			err = c.live.Get(ctx, key, reread)
		}
		cancel()
		c.afterWrite(p, updated, reread, listed, err)
	}
}

// awaitWrite returns once p's next write is due, someone waits for p's counters to be stored, or
// the committer stops. The wait is read again whenever its timer fires: decisions made meanwhile
// put off the pause it waits for. p.mu is not held.
func (c *usageCommitter) awaitWrite(p *planCounters) {
	// However the committer's clock moves (a test's may stand still), no wait lasts longer in
	// real time than the rules allow: the max interval, or the backoff after failures.
	p.mu.Lock()
	deadline := time.Now().Add(max(c.maxFlushInterval, c.backoff(p)))
	p.mu.Unlock()
	for {
		p.mu.Lock()
		wait := min(c.flushWait(p, c.nowFunc()), time.Until(deadline))
		failing := p.failures > 0
		p.mu.Unlock()
		if wait <= 0 {
			return
		}
		kick, stopped := p.kick, c.stopped
		if failing {
			kick, stopped = nil, nil // after a failure the backoff holds, whoever waits
		}
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
			continue
		case <-kick: // someone waits for these counters to be stored (CounterStore)
		case <-stopped: // stopping: write what is left now
		}
		timer.Stop()
		return
	}
}

// flushWait is how long p's flusher waits before its next write at now; 0 or less writes now. A
// write waits flushInterval after the last write and, while decisions keep coming, for a pause of
// flushInterval in them, but no longer than maxFlushInterval after the last write. After failed
// writes the backoff alone decides; after a conflict, flushInterval alone (the plan was just read
// again: waiting for a pause would let another writer's next write, say the denial counter's each
// second, conflict with this one's again). p.mu is held.
func (c *usageCommitter) flushWait(p *planCounters, now time.Time) time.Duration {
	sinceWrite := now.Sub(p.lastWrite)
	if p.failures > 0 {
		return c.backoff(p) - sinceWrite
	}
	if p.conflicted {
		return c.flushInterval - sinceWrite
	}
	wait := max(c.flushInterval-sinceWrite, c.flushInterval-now.Sub(p.lastDecided))
	return min(wait, max(c.maxFlushInterval, c.flushInterval)-sinceWrite)
}

// backoff is the least time from a failed write to the next: flushInterval, doubled per failure
// in a row, at most maxFlushBackoff times. p.mu is held.
func (c *usageCommitter) backoff(p *planCounters) time.Duration {
	return c.flushInterval << min(p.failures, maxFlushBackoff)
}

// flushed ends p's flusher when p holds nothing to write (or no plan to write it to). p.mu is
// held.
func (p *planCounters) flushed() bool {
	if p.dirty && !p.gone && p.loaded {
		return false
	}
	p.flushing = false
	return true
}

// afterWrite records a write's result in p: the plan as written, or as re-read after a conflict
// (whose counters are raised into p's), or p's plan gone.
func (c *usageCommitter) afterWrite(p *planCounters, written, reread *safetyv1alpha1.AgentPlan, listed []safetyv1alpha1.PendingDeletion, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stored == nil || p.stored.UID != written.UID {
		return // reset for a new plan of the same name meanwhile
	}
	switch {
	case apierrors.IsNotFound(err):
		p.gone = true
	case err != nil:
		p.dirty = true // not stored: the next round tries again, later after each failure
		p.failures++
		if p.failures == 1 || p.failures%100 == 0 {
			logf.Log.WithName("usage").Error(err, "storing a plan's counters failed; retrying", "plan", written.Namespace+"/"+written.Name,
				"failures", p.failures)
		}
		return
	case reread != nil:
		if reread.UID != p.uid {
			p.gone = true
			return
		}
		if u, err := policy.UsageOf(reread); err == nil {
			p.u.MergeMax(u)
		}
		if d, err := policy.DeletedOf(reread); err == nil {
			p.deleted.MergeMax(d) // another writer's deleted part (a former owner's last write)
			p.mergePending(reread, nil)
		}
		p.stored = reread
		p.seeSnapshot(reread)
		p.dirty, p.conflicted = true, true
	default:
		p.stored = written
		p.seeSnapshot(written)
		p.deletedStored(listed)
		c.totals.observe(written)
	}
	p.failures = 0
}

// stopFlushTimeout bounds how long a stopping replica spends storing the counters it holds.
const stopFlushTimeout = 10 * time.Second

// Start runs until ctx ends, then writes every plan's counters not yet stored, at once, before
// the manager stops: the replica that decides next reads them from the plans' status.
func (c *usageCommitter) Start(ctx context.Context) error {
	<-ctx.Done()
	close(c.stopped)
	for deadline := time.Now().Add(stopFlushTimeout); (c.flushers.Load() > 0 || c.inflight.Load() > 0) && time.Now().Before(deadline); {
		time.Sleep(storePoll)
	}
	return nil
}

// NeedLeaderElection is false: every replica that serves the webhook stores what it decided.
func (c *usageCommitter) NeedLeaderElection() bool { return false }

// setFlushIntervals sets the flush's intervals; 0 keeps a default. The error names the flag.
func (c *usageCommitter) setFlushIntervals(least, most time.Duration) error {
	if least < 0 || most < 0 {
		return fmt.Errorf("--usage-flush-interval (%s) and --usage-flush-max-interval (%s) must not be negative", least, most)
	}
	if least > 0 {
		c.flushInterval = least
	}
	if most > 0 {
		c.maxFlushInterval = most
	}
	if c.maxFlushInterval < c.flushInterval {
		return fmt.Errorf("--usage-flush-max-interval (%s) must be at least --usage-flush-interval (%s)",
			c.maxFlushInterval, c.flushInterval)
	}
	return nil
}
