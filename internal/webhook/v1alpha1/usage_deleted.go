package v1alpha1

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// The finished-call controller deletes a call an hour (finishedCallTTLSeconds) after it finished.
// The counters hold what the call counted, but a replica that starts deciding a plan recounts
// the calls that exist (usage_recount.go), and takes the larger of that and the stored counters.
// Were the deleted calls simply gone from the recount, a replica killed after admitting calls and
// before storing their counts would leave the next one the larger of stored counters that lack
// the new calls and a recount that lacks the deleted ones: min(deleted, unstored) admissions
// lost. So before a call is deleted, what a recount would count for it is added to the deleted
// part of its plan's counters (status.usage.deleted), and the call is listed there as pending, in
// the committer's own write of the plan's status (so no second writer races the counters); the
// controller deletes the call only once that write is stored (SettleCall). A load then takes the
// larger of the stored counters and the deleted part plus the recount, which skips the calls
// listed pending: every call, deleted or not, is in the sum exactly once, and the sum is what
// the counters would be had nothing been admitted since the last write. A call listed and then
// deleted is dropped from the list by the next write (lazily: CallDeleted writes nothing), and
// by a load that finds it gone.

// pendingCall is a call counted into its plan's deleted part, and perhaps not deleted yet.
type pendingCall struct {
	// cost is the reported cost it was counted with: a later report adds only what it grew by.
	cost safety.Money
	// stored says a write of the plan's status holding the call with cost is stored.
	stored bool
	// gone says the call is deleted: the next write lists it no more.
	gone bool
}

// errNoRoomToSettle is no error of the call's: its plan lists MaxPendingDeletions calls, and the
// next write makes room.
var errNoRoomToSettle = errors.New("the plan's pending deletions are full")

// settleCall counts call into the deleted part of its plan's counters, once, and says whether the
// write that holds it is stored: only then may the call be deleted. plan is the controller's read
// of the call's plan. A call of no plan whose counters exist (its plan gone, or the call an
// earlier plan's of the same name) is settled at once: there is nothing to count it into.
func (c *usageCommitter) settleCall(ctx context.Context, plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall) (bool, error) {
	c.inflight.Add(1)
	defer c.inflight.Add(-1)
	select {
	case <-c.stopped:
		return false, errStopping
	default:
	}
	if !callOfPlan(plan, call) {
		return true, nil
	}
	key := client.ObjectKeyFromObject(plan)
	p := c.lockCounters(key)
	defer p.mu.Unlock()
	if c.deciding != nil && !c.deciding() {
		return false, errNotDeciding
	}
	p.used = c.nowFunc()
	// A plan being deleted (sealed) still stores its deleted part: no decision changes its
	// counters any more, and they stay exact for the settlement.
	if err := c.current(ctx, key, p, plan.UID); err != nil {
		if apierrors.IsNotFound(err) {
			return true, nil // the plan is gone, and its spend settled from its status
		}
		return false, err
	}
	plan = p.stored // counted by the plan as stored, as a recount would (its pins)
	cost, err := policy.ReportedCost(call.Status.Cost)
	if err != nil {
		cost = safety.Money{} // as the recount counts it
	}
	if e := p.pending[call.UID]; e != nil {
		if cost.Cmp(e.cost) > 0 { // reported again since it was counted: add what it grew by
			_, reserve := reservedFor(plan, call)
			p.deleted.Report(reserve, e.cost, cost)
			e.cost, e.stored, e.gone = cost, false, false
			c.markDirty(key, p)
		}
		return e.stored, nil
	}
	if p.listed() >= safetyv1alpha1.MaxPendingDeletions {
		if p.removals && !p.flushing {
			c.markDirty(key, p) // the next write lists the deleted ones no more
		}
		return false, errNoRoomToSettle
	}
	recountCall(&p.deleted, plan, call, c.nowFunc())
	if p.pending == nil {
		p.pending = map[types.UID]*pendingCall{}
	}
	p.pending[call.UID] = &pendingCall{cost: cost}
	c.markDirty(key, p)
	return false, nil
}

// callDeleted notes that a call settled into plan key's deleted part is deleted: the next write
// lists it no more. It writes nothing by itself (sweep does, for a plan idle with such calls).
func (c *usageCommitter) callDeleted(key types.NamespacedName, uid types.UID) {
	p := c.held(key)
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.pending[uid]; e != nil && !e.gone {
		e.gone, p.removals = true, true
	}
}

// listed is how many calls the next write lists pending. p.mu is held.
func (p *planCounters) listed() int {
	n := 0
	for _, e := range p.pending {
		if !e.gone {
			n++
		}
	}
	return n
}

// deletedInto writes p's deleted part and its pending calls into usage, for the write about to
// be sent, leaving out the calls known deleted. It returns the calls written. p.mu is held.
func (p *planCounters) deletedInto(usage *safetyv1alpha1.PlanUsage) []safetyv1alpha1.PendingDeletion {
	p.removals = false // a write that fails or conflicts is tried again, from p as it is then
	if p.deleted.IsZero() && len(p.pending) == 0 && usage.Deleted == nil {
		return nil
	}
	d := &safetyv1alpha1.DeletedCalls{}
	p.deleted.IntoDeleted(d)
	for uid, e := range p.pending {
		if !e.gone {
			d.Pending = append(d.Pending, safetyv1alpha1.PendingDeletion{UID: string(uid), Cost: policy.MoneyString(e.cost)})
		}
	}
	usage.Deleted = d
	return d.Pending
}

// deletedStored notes the calls a stored write listed with their costs, and forgets the deleted
// ones it no longer listed (kept until then, so that a conflict's re-read, which still lists
// them, does not bring them back). p.mu is held.
func (p *planCounters) deletedStored(written []safetyv1alpha1.PendingDeletion) {
	listed := make(map[types.UID]bool, len(written))
	for _, w := range written {
		listed[types.UID(w.UID)] = true
		if e := p.pending[types.UID(w.UID)]; e != nil && w.Cost == policy.MoneyString(e.cost) {
			e.stored = true
		}
	}
	for uid, e := range p.pending {
		if e.gone && !listed[uid] {
			delete(p.pending, uid)
		}
	}
}

// loadDeleted makes p's deleted part the stored one, raised to what p held (an earlier term's,
// for this very plan), and its pending calls those stored that still exist (exists nil: all of
// them) with those p had not stored yet. p.mu is held.
func (p *planCounters) loadDeleted(stored *safetyv1alpha1.AgentPlan, deleted policy.Usage, exists map[types.UID]bool) {
	if p.loaded {
		deleted.MergeMax(p.deleted)
	}
	pending := map[types.UID]*pendingCall{}
	if p.loaded {
		for uid, e := range p.pending {
			if !e.stored && !e.gone {
				pending[uid] = e
			}
		}
	}
	p.deleted, p.pending, p.removals = deleted, pending, false
	p.mergePending(stored, exists)
}

// mergePending adds the calls plan's status lists pending (that exist, when exists is set) to
// p's, as stored. p.mu is held.
func (p *planCounters) mergePending(plan *safetyv1alpha1.AgentPlan, exists map[types.UID]bool) {
	d := plan.Status.Usage.Deleted
	if d == nil {
		return
	}
	for _, s := range d.Pending {
		uid := types.UID(s.UID)
		if _, ok := p.pending[uid]; ok || (exists != nil && !exists[uid]) {
			continue
		}
		cost := safety.Money{}
		if s.Cost != "" {
			if m, err := safety.ParseMoney(s.Cost); err == nil {
				cost = m
			}
		}
		if p.pending == nil {
			p.pending = map[types.UID]*pendingCall{}
		}
		p.pending[uid] = &pendingCall{cost: cost, stored: true}
	}
	if exists != nil && len(p.pending) < len(d.Pending) {
		p.removals = true // the status lists calls that are gone
	}
}

// pendingListed are the calls plan's status lists pending deletion.
func pendingListed(plan *safetyv1alpha1.AgentPlan) map[types.UID]bool {
	out := map[types.UID]bool{}
	if d := plan.Status.Usage.Deleted; d != nil {
		for _, s := range d.Pending {
			out[types.UID(s.UID)] = true
		}
	}
	return out
}

// SettleCall counts a finished call, about to be deleted, into the deleted part of its plan's
// counters in this process, and says whether the write that holds it is stored: the
// finished-call controller deletes the call only then, and asks again later otherwise (the
// write follows within the flush interval, carrying every call settled meanwhile). Without a
// webhook in this process nothing was decided here, and the call may go.
func (s *CounterStore) SettleCall(ctx context.Context, plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall) (bool, error) {
	c := s.committer()
	if c == nil {
		return true, nil
	}
	stored, err := c.settleCall(ctx, plan, call)
	if errors.Is(err, errNoRoomToSettle) {
		return false, nil
	}
	return stored, err
}

// CallDeleted notes that a call SettleCall settled is deleted.
func (s *CounterStore) CallDeleted(plan types.NamespacedName, call types.UID) {
	if c := s.committer(); c != nil {
		c.callDeleted(plan, call)
	}
}
