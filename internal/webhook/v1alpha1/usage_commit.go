package v1alpha1

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// idlePlanTTL is how long a plan's counters stay in memory after its last admission, once they
// are stored.
const idlePlanTTL = time.Minute

// decideFunc decides one request against the plan's counters as they stand, adding its own
// increments to u. It runs exactly once, with no other decision of the plan running.
type decideFunc func(u *policy.Usage) (outcome, error)

// usageCommitter keeps every plan's counters in memory and decides against them, one request of
// a plan at a time, so counts are exact with no API write on the answer path. The counters are
// stored in the plan's status behind the answers (usage_flush.go), at most every flushInterval.
//
// Only one replica decides counters at any time (counter_owner.go): the others forward their
// AgentToolCall reviews to it, so there is one copy of each plan's counters and no two replicas
// can both admit a step's last allowed attempt. A replica that starts deciding a plan reads its
// counters live and recounts the plan's calls (usage_recount.go), adding what the calls deleted
// since counted (the deleted part, usage_deleted.go), so what a previous owner had admitted but
// not yet stored when it stopped is counted again.
type usageCommitter struct {
	live   client.Reader // the API server: the plan's stored counters and, for the recount, its calls
	writer client.StatusClient
	totals *projectTotals

	mu    sync.Mutex
	plans map[types.NamespacedName]*planCounters
	// trusted are plans forgotten by sweep with every count stored, by UID, and the term of this
	// replica's decisions in which they were stored: loaded again in the same term, their stored
	// counters are exact and need no recount. c.mu guards it.
	trusted map[types.UID]uint64
	// deleted are the plans the plan informer saw deleted while their counters were in memory,
	// by UID: their spend is settled and their calls in flight hold nothing more
	// (projectTotals.forget), so sweep forgets them even with holds left, which no decision of
	// theirs will ever expire. c.mu guards it.
	deleted map[types.UID]types.NamespacedName
	// term names the current unbroken run of this replica's decisions (LeaseOwner.Term); nil is
	// one run for the process's life (one replica, no leader election).
	term func() uint64
	// untrusting is set for an owner that cannot name its terms: no stored counters are trusted
	// without a recount.
	untrusting bool
	// recounts bounds the recounts running at once: each holds a page of up to recountPage calls.
	recounts chan struct{}
	swept    time.Time
	nowFunc  func() time.Time
	// flushInterval is the least time between two writes of one plan's counters, and the pause in
	// its decisions a write waits for; maxFlushInterval the longest it waits for that pause.
	flushInterval, maxFlushInterval time.Duration
	// stopped is closed when the committer stops: flushers write what is left and return.
	stopped chan struct{}
	// deciding says this replica decides counters now (CounterOwner); nil means always.
	deciding func() bool
	// flushers and inflight count the running flushers and decisions (not WaitGroups: either may
	// start while Start waits for the others, during shutdown).
	flushers, inflight atomic.Int64
}

// planCounters is one plan's counters in memory. mu serializes the plan's decisions and guards
// every field.
type planCounters struct {
	mu sync.Mutex
	// uid is the plan these counters belong to: a plan deleted and created again under the same
	// name starts from its own.
	uid types.UID
	// loaded says u holds the plan's counters; false until the first decision reads them.
	loaded bool
	u      policy.Usage
	// stored is the plan as last read from or written to the API server: the resourceVersion the
	// next write carries, and the counters known to be stored.
	stored *safetyv1alpha1.AgentPlan
	// dirty says u holds counts the plan's status does not; flushing that a flusher is running.
	dirty, flushing bool
	used            time.Time
	lastWrite       time.Time
	lastDecided     time.Time // when a decision last added to u (markDirty)
	conflicted      bool      // the last write conflicted: the next waits flushInterval alone
	failures        int       // writes failed in a row (not conflicts), for the backoff
	gone            bool      // the plan no longer exists: nothing is written
	// kick asks the flusher to write without waiting out flushInterval (CounterStore).
	kick chan struct{}
	// sealed refuses every further decision: the plan is being deleted and its spend settled.
	sealed bool
	// seen is the newest snapshot this replica knows the plan is stored with (seeSnapshot): a
	// decision made with an older one, a cache not yet showing a re-lock, is refused
	// errSnapshotReplaced. Read and written without mu.
	seen atomic.Pointer[snapshotSeen]
	// recounting is the recount load waits for, which outlives a request that gave up on it.
	recounting *recountResult
	// term is the term of this replica's decisions the counters were loaded in.
	term uint64
	// reports are the reports counted, per call, so that one sent again after its store failed
	// is not counted twice (report_memo.go).
	reports map[types.UID]countedReport
	// held is what the plan's calls in flight hold (held_calls.go).
	held heldCalls
	// deleted is the deleted part of the counters (status.usage.deleted): what the plan's calls
	// deleted after their TTL counted, each added before it was deleted (usage_deleted.go).
	deleted policy.Usage
	// pending are the calls counted into deleted that may not be deleted yet, by UID.
	pending map[types.UID]*pendingCall
	// removals says pending holds deleted calls the status still lists.
	removals bool
}

// reset makes p the empty counters of the plan with uid, not yet loaded. A running flusher stays
// and writes these once they are loaded. The failures and conflict were the former plan's
// writes: a plan made again under its name must not wait out their backoff. lastWrite stays, so
// the name's writes keep their interval. p.mu is held.
func (p *planCounters) reset(uid types.UID) {
	p.uid, p.loaded, p.u, p.stored, p.dirty, p.gone, p.sealed = uid, false, policy.Usage{}, nil, false, false, false
	p.reports, p.held = nil, heldCalls{}
	p.deleted, p.pending, p.removals = policy.Usage{}, nil, false
	p.failures, p.conflicted = 0, false
}

func newUsageCommitter(live client.Reader, writer client.StatusClient, totals *projectTotals, now func() time.Time) *usageCommitter {
	return &usageCommitter{live: live, writer: writer, totals: totals, plans: map[types.NamespacedName]*planCounters{},
		trusted: map[types.UID]uint64{}, deleted: map[types.UID]types.NamespacedName{}, recounts: make(chan struct{}, maxRecounts),
		nowFunc: now, flushInterval: DefaultUsageFlushInterval, maxFlushInterval: DefaultUsageFlushMaxInterval, stopped: make(chan struct{})}
}

// submit decides one request of plan against its counters, and schedules the counters' write if
// the decision added to them. plan is the handler's own read of the plan (the cache's, or live).
// A nil decide only loads the counters (preload).
func (c *usageCommitter) submit(ctx context.Context, plan *safetyv1alpha1.AgentPlan, decide decideFunc) (outcome, error) {
	if decide == nil {
		return c.submitWith(ctx, plan, nil)
	}
	return c.submitWith(ctx, plan, func(p *planCounters) (outcome, error) { return decide(&p.u) })
}

// submitWith is submit for a decision that needs more of the plan's counters than its usage (the
// reports counted, report_memo.go). What decide changes beyond p.u it keeps only when it answers
// no error.
func (c *usageCommitter) submitWith(ctx context.Context, plan *safetyv1alpha1.AgentPlan, decide func(p *planCounters) (outcome, error)) (outcome, error) {
	// Counted before the stop check, so Start waits for every decision that passed it.
	c.inflight.Add(1)
	defer c.inflight.Add(-1)
	select {
	case <-c.stopped:
		return outcome{}, errStopping
	default:
	}
	key := client.ObjectKeyFromObject(plan)
	p := c.lockCounters(key)
	defer p.mu.Unlock()
	if c.deciding != nil && !c.deciding() { // checked again here: the owner may have changed while queued
		return outcome{}, errNotDeciding
	}
	p.used = c.nowFunc()
	if err := c.current(ctx, key, p, plan.UID); err != nil {
		return outcome{}, err
	}
	if p.sealed {
		return outcome{}, errPlanSealed
	}
	if p.replaced(plan) {
		return outcome{}, errSnapshotReplaced
	}
	c.chargeEnded(key, plan, p)
	if decide == nil {
		return outcome{}, nil
	}
	before := p.u.Clone()
	out, err := decide(p)
	if err != nil {
		p.u = before // an error answers nothing: it must count nothing
		return outcome{}, err
	}
	if !p.u.Equal(before) {
		c.totals.observeUsage(plan, p.u)
		c.markDirty(key, p)
	}
	return out, nil
}

// chargeEnded ends the plan's holds past their until, and charges what they held to its
// accumulatedCost (held_calls.go): before the decision, so that a decision that fails keeps the
// charge of holds it has ended. p.mu is held.
func (c *usageCommitter) chargeEnded(key types.NamespacedName, plan *safetyv1alpha1.AgentPlan, p *planCounters) {
	c.charge(key, plan, p, p.held.expire(c.nowFunc()))
}

// charge adds what ended holds are charged to the plan's accumulatedCost. p.mu is held.
func (c *usageCommitter) charge(key types.NamespacedName, plan *safetyv1alpha1.AgentPlan, p *planCounters, charged safety.Money) {
	if charged.IsZero() {
		return
	}
	p.u.Accumulated = p.u.Accumulated.SaturatingAdd(charged)
	c.totals.observeUsage(plan, p.u)
	c.totals.observeHeld(plan, p.held.held())
	c.markDirty(key, p)
}

// preload loads plan's counters, if they are not loaded, without deciding anything: a decision
// that must wait for others (the namespace's, for maxTotalCost) loads first, so that a plan whose
// counters take a recount does not hold the others up. It refuses what submit would.
func (c *usageCommitter) preload(ctx context.Context, plan *safetyv1alpha1.AgentPlan) error {
	_, err := c.submit(ctx, plan, nil)
	return err
}

// errStopping refuses a decision once the committer has stopped: what it counted could no longer
// be stored. The API server's retry reaches the next replica to decide.
var errStopping = errors.New("this replica is stopping and decides no more counts; retry")

// errNotDeciding refuses a decision on a replica that does not decide counters (any more).
var errNotDeciding = errors.New("this replica no longer decides counters; retry")

// errPlanReplaced refuses a decision for a plan read before it was deleted and created again.
var errPlanReplaced = errors.New("the plan was replaced while its call was decided; retry")

// errPlanSealed refuses a decision for a plan whose spend is being settled (CounterStore.Seal).
var errPlanSealed = errors.New("the plan is being deleted")

// errSnapshotReplaced refuses a decision made with a plan read before a re-lock this replica knows
// of (planCounters.seen): the handler reads the plan again, live, and decides once more.
var errSnapshotReplaced = errors.New("the plan was re-locked while its call was decided; retry")

// snapshotSeen is a plan (by UID) and the epoch of the newest snapshot it is known to be stored
// with.
type snapshotSeen struct {
	uid   types.UID
	epoch int32
}

// seeSnapshot notes that plan is stored with its snapshot: read live (load, a re-read after a
// conflict), written (a flush), or just re-locked by the plan controller of this process
// (CounterStore.Relocked). Only a newer epoch of the same plan, or another plan, replaces what
// was seen.
func (p *planCounters) seeSnapshot(plan *safetyv1alpha1.AgentPlan) {
	s := plan.Status.Snapshot
	if s == nil {
		return
	}
	next := &snapshotSeen{uid: plan.UID, epoch: s.Epoch}
	for {
		cur := p.seen.Load()
		if cur != nil && cur.uid == plan.UID && cur.epoch >= s.Epoch {
			return
		}
		if p.seen.CompareAndSwap(cur, next) {
			return
		}
	}
}

// replaced says plan, as a request read it, holds an older snapshot than the plan is known to
// be stored with: the cache it came from does not show a re-lock yet. Deciding with it would
// judge the call by a policy the platform has replaced (a profile made stricter to stop an agent,
// a tool's new price), and report it in the ledger under that policy's hash.
func (p *planCounters) replaced(plan *safetyv1alpha1.AgentPlan) bool {
	s, seen := plan.Status.Snapshot, p.seen.Load()
	return s != nil && seen != nil && seen.uid == plan.UID && seen.epoch > s.Epoch
}

// replaced says whether plan holds an older snapshot than this replica knows it is stored with
// (planCounters.replaced); false for a plan whose counters it does not hold.
func (c *usageCommitter) replaced(plan *safetyv1alpha1.AgentPlan) bool {
	p := c.held(client.ObjectKeyFromObject(plan))
	return p != nil && p.replaced(plan)
}

// current makes p the loaded counters of the plan with uid. A request that names another plan
// than the one loaded is checked against the plan that exists before anything is reset: one that
// read a deleted plan from a stale cache must not throw away the current plan's counts. p.mu is
// held.
func (c *usageCommitter) current(ctx context.Context, key types.NamespacedName, p *planCounters, uid types.UID) error {
	if p.loaded && !p.gone && p.uid != uid {
		live := &safetyv1alpha1.AgentPlan{}
		if err := c.live.Get(ctx, key, live); err != nil {
			return fmt.Errorf("reading plan %s: %w", key, err)
		}
		if live.UID != uid {
			return fmt.Errorf("plan %s: %w", key, errPlanReplaced)
		}
	}
	if p.uid != uid || p.gone {
		p.reset(uid)
	}
	if p.loaded && p.term == c.currentTerm() {
		return nil
	}
	// Not loaded, or loaded in an earlier term of this replica's decisions: another replica may
	// have decided the plan since, so its counters are read and recounted again (and what this
	// replica still holds is kept: load takes the larger of each).
	return c.load(ctx, key, p)
}

// lockCounters returns key's counters, locked. They are the ones in c.plans once locked: sweep
// may have forgotten the ones found before the lock, and counting into those would be lost to
// the next decision, which starts from fresh ones.
func (c *usageCommitter) lockCounters(key types.NamespacedName) *planCounters {
	for {
		p := c.counters(key)
		p.mu.Lock()
		c.mu.Lock()
		current := c.plans[key] == p
		c.mu.Unlock()
		if current {
			return p
		}
		p.mu.Unlock()
	}
}

// held returns key's counters if this replica holds any, nil otherwise; it creates none.
func (c *usageCommitter) held(key types.NamespacedName) *planCounters {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.plans[key]
}

// counters returns key's counters, creating them empty.
func (c *usageCommitter) counters(key types.NamespacedName) *planCounters {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.plans[key]
	if p == nil {
		c.sweep()
		p = &planCounters{kick: make(chan struct{}, 1)}
		c.plans[key] = p
	}
	return p
}

// load reads the plan's stored counters live and raises them to the recount of its calls. p.mu
// is held.
func (c *usageCommitter) load(ctx context.Context, key types.NamespacedName, p *planCounters) error {
	term := c.currentTerm()
	stored := &safetyv1alpha1.AgentPlan{}
	if err := c.live.Get(ctx, key, stored); err != nil {
		return fmt.Errorf("reading plan %s: %w", key, err)
	}
	if stored.UID != p.uid {
		return fmt.Errorf("plan %s: %w", key, errPlanReplaced)
	}
	p.seeSnapshot(stored)
	u, err := policy.UsageOf(stored)
	if err != nil {
		return err
	}
	deleted, err := policy.DeletedOf(stored)
	if err != nil {
		return err
	}
	if !p.loaded && c.storedExactly(stored.UID) {
		p.loadDeleted(stored, deleted, nil)
		p.u, p.stored, p.loaded, p.term = u, stored, true, term
		p.sealed = stored.DeletionTimestamp != nil
		return nil
	}
	counted, held, exists, err := c.recounted(ctx, p, stored)
	if err != nil {
		return err
	}
	p.held.merge(held)
	c.totals.observeHeld(stored, p.held.held())
	// Every call the plan has had is in the deleted part (stored before it was deleted) or in the
	// recount, once: their sum is what the stored counters would say had nothing been admitted
	// since they were written, and more if something had (usage_deleted.go).
	counted.Add(deleted)
	merged := u.Clone()
	merged.MergeMax(counted)
	if p.loaded { // an earlier term's counters, for this very plan: nothing of them is lost
		merged.MergeMax(p.u)
	}
	p.loadDeleted(stored, deleted, exists)
	p.u, p.stored, p.loaded, p.term = merged, stored, true, term
	// The reports remembered were counted into counters merged by maximum, not by sum, with what
	// another replica decided meanwhile: what they added may be lost in the merge, so a report sent
	// again is counted again (charged more, never less).
	p.reports = nil
	p.held.charged = nil // likewise: a charge lost in the merge must not make a late report count from the ceiling
	// A plan being deleted admits nothing more, whatever a stale cache told the handler.
	p.sealed = stored.DeletionTimestamp != nil
	if !merged.Equal(u) { // the recount found admissions the status lacks: store them
		c.totals.observeUsage(stored, merged) // before another plan's decision checks the total
		c.markDirty(key, p)
	}
	return nil
}

// maxTrusted bounds c.trusted; past it the table starts afresh (a recount is always correct).
const maxTrusted = 100_000

// storedExactly says whether plan uid was forgotten with its counters stored in this very term,
// and forgets that: loaded again, its counters are this replica's to keep.
func (c *usageCommitter) storedExactly(uid types.UID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	term, ok := c.trusted[uid]
	delete(c.trusted, uid)
	return ok && term == c.currentTerm()
}

func (c *usageCommitter) currentTerm() uint64 {
	if c.term == nil {
		return 0
	}
	return c.term()
}

// sweep forgets plans idle for idlePlanTTL whose counters are stored, at most once per
// idlePlanTTL. The caller holds c.mu.
func (c *usageCommitter) sweep() {
	now := c.nowFunc()
	if now.Sub(c.swept) < idlePlanTTL {
		return
	}
	c.swept = now
	for key, p := range c.plans {
		if !p.mu.TryLock() {
			continue // deciding or being written: in use
		}
		if c.forgettable(key, p, now) {
			delete(c.plans, key)
			if p.loaded && !p.gone && !c.untrusting && p.term == c.currentTerm() {
				if len(c.trusted) >= maxTrusted {
					clear(c.trusted)
				}
				c.trusted[p.uid] = p.term
			}
		}
		p.mu.Unlock()
	}
	for uid, key := range c.deleted {
		if p := c.plans[key]; p == nil {
			delete(c.deleted, uid)
		}
	}
}

// forgettable says sweep may forget p: idle for idlePlanTTL with its counters stored. A plan whose
// status still lists calls deleted since is written once now instead, and forgotten at a later
// sweep (a plan loaded again without a recount trusts the list). c.mu and p.mu are held.
func (c *usageCommitter) forgettable(key types.NamespacedName, p *planCounters, now time.Time) bool {
	if p.dirty || p.flushing || p.recounting != nil || now.Sub(p.used) <= idlePlanTTL {
		return false
	}
	if p.removals && !p.gone && p.loaded {
		c.markDirty(key, p)
		return false
	}
	// A plan whose calls hold part of its budget stays: the holds are in memory only, and those
	// that end unreported are charged at its next decision. A deleted plan has none.
	_, deleted := c.deleted[p.uid]
	return len(p.held.byCall) == 0 || deleted || p.gone
}

// planDeleted notes that the plan informer saw plan deleted, for sweep.
func (c *usageCommitter) planDeleted(plan *safetyv1alpha1.AgentPlan) {
	key := client.ObjectKeyFromObject(plan)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.plans[key]; ok {
		c.deleted[plan.UID] = key
	}
}
