package v1alpha1

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// recountPage bounds what one page of the recount holds: a call may be 282 KiB with its arguments.
// maxRecounts bounds the pages held at once, so recounts after a takeover stay well inside the
// manager's memory limit.
const (
	recountPage = 50
	maxRecounts = 2
	// recountTimeout bounds a recount, which outlives the admission that started it.
	recountTimeout = 2 * time.Minute
)

// recountResult is a recount of the plan with uid, running or done.
type recountResult struct {
	uid  types.UID
	done chan struct{}
	u    policy.Usage
	held []recountedHold
	// seen are the calls the status lists as pending deletion that still exist.
	seen map[types.UID]bool
	err  error
}

// recounted is the recount of stored's calls. It runs apart from the request: a plan with more
// calls than a webhook's timeout can list is recounted all the same, and the admissions that time
// out waiting for it fail (closed) until it is done, then the next one takes its result. p.mu is
// held.
func (c *usageCommitter) recounted(ctx context.Context, p *planCounters, stored *safetyv1alpha1.AgentPlan) (policy.Usage, []recountedHold, map[types.UID]bool, error) {
	r := p.recounting
	if r == nil || r.uid != stored.UID {
		r = &recountResult{uid: stored.UID, done: make(chan struct{})}
		p.recounting = r
		go c.runRecount(context.WithoutCancel(ctx), r, stored)
	}
	select {
	case <-r.done:
		p.recounting = nil // used, or failed: the next load starts another
		return r.u, r.held, r.seen, r.err
	case <-ctx.Done():
		return policy.Usage{}, nil, nil, fmt.Errorf("recounting the calls of plan %s/%s, which goes on: %w; retry",
			stored.Namespace, stored.Name, ctx.Err())
	}
}

// runRecount recounts into r, within recountTimeout once it has one of the recount slots, or until
// the committer stops.
func (c *usageCommitter) runRecount(ctx context.Context, r *recountResult, stored *safetyv1alpha1.AgentPlan) {
	defer close(r.done)
	select {
	case c.recounts <- struct{}{}:
		defer func() { <-c.recounts }()
	case <-c.stopped:
		r.err = errStopping
		return
	}
	ctx, cancel := context.WithTimeout(ctx, recountTimeout)
	defer cancel()
	go func() {
		select {
		case <-c.stopped:
			cancel()
		case <-ctx.Done():
		}
	}()
	r.u, r.held, r.seen, r.err = c.recount(ctx, stored)
}

// recount counts the plan's calls that exist now, as the counters would have counted them: one
// call and one attempt of its step each, reserving its tool's costPerCall as the plan pinned it,
// and its reported cost. A call the status lists as pending deletion is counted in the status's
// deleted part already, and not here (seen says which of them still exist). Deleted calls are not
// seen: what they counted is the deleted part, which the finished-call controller has stored
// before it deletes a call (SettleCall). load takes the larger of the stored counters and the sum
// of the deleted part and this: a replica that stopped after admitting calls, and before storing
// their counts, loses none of them, also when calls counted in the stored ones were deleted since.
// Calls deleted by anyone else, and by operators of earlier versions, are in neither: for them the
// sum is a lower bound only (counts of calls admitted and not stored may then be lost). It runs
// when a replica starts deciding a plan in a term of its Lease (not for a plan it forgot in the
// same term with its counts stored: storedExactly), and again after a recount failed; never per
// admission. It reads the API server (the manager caches finished calls only), a page at a time,
// selecting the plan's calls there.
func (c *usageCommitter) recount(ctx context.Context, plan *safetyv1alpha1.AgentPlan) (policy.Usage, []recountedHold, map[types.UID]bool, error) {
	u := policy.Usage{}
	var held []recountedHold
	pending := pendingListed(plan)
	seen := map[types.UID]bool{}
	now := c.nowFunc()
	next := ""
	for {
		opts := []client.ListOption{client.InNamespace(plan.Namespace),
			client.MatchingFields{controller.CallPlanField: plan.Name}, client.Limit(recountPage)}
		if next != "" {
			opts = append(opts, client.Continue(next))
		}
		var calls safetyv1alpha1.AgentToolCallList
		if err := c.live.List(ctx, &calls, opts...); err != nil {
			// %v, not %w: a 404 of the calls' list (their CRD changing) is no "plan not found".
			return policy.Usage{}, nil, nil, fmt.Errorf("recounting the calls of plan %s/%s: %s", plan.Namespace, plan.Name, err.Error())
		}
		for i := range calls.Items {
			into := &u
			if call := &calls.Items[i]; pending[call.UID] {
				seen[call.UID] = true
				into = &policy.Usage{} // counted in the deleted part; what it holds still counts
			}
			if h, ok := recountCall(into, plan, &calls.Items[i], now); ok {
				held = append(held, h)
			}
		}
		if next = calls.Continue; next == "" {
			return u, held, seen, nil
		}
	}
}

// recountCall adds one stored call of plan to u, and returns what it holds at now, if anything:
// a call created less than holdTTL ago whose cost its reporter has not said is final (policy.CostFinal).
// A final phase with a cost does not say so: the agent may write the phase (after a cost reported
// while the call ran, or before the cost), and the replica that saw it do so kept the call's
// hold; only the reporter writes CallCostFinalCondition. A reporter's final phase without it is
// held again here, and charged its ceiling if no report says more: more, never less.
func recountCall(u *policy.Usage, plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall, now time.Time) (recountedHold, bool) {
	if !callOfPlan(plan, call) {
		return recountedHold{}, false
	}
	tool, reserve := reservedFor(plan, call)
	_ = u.CountStored(call.Spec.Step, reserve, call.Status.Cost) // an unreadable cost counts as none: a lower bound still
	until := call.CreationTimestamp.Add(holdTTL)
	if policy.CostFinal(call) || !until.After(now) {
		return recountedHold{}, false
	}
	hold, err := policy.HoldFor(plan, tool)
	if err != nil || hold.IsZero() {
		return recountedHold{}, false
	}
	reported, _ := policy.ReportedCost(call.Status.Cost) // unreadable: none reported, the call charged its whole ceiling
	return recountedHold{call: call.UID, heldCall: heldCall{amount: hold, reserve: reserve, reported: reported, until: until}}, true
}

// reservedFor is the tool call pins in plan, and what the call reserved.
func reservedFor(plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall) (*safetyv1alpha1.AgentTool, safety.Money) {
	tool := policy.ToolAsPinned(plan, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: call.Spec.Tool}})
	reserve, err := policy.ReservedBy(plan, tool, call) // as the report of it counts it
	if err != nil {
		reserve = safety.Money{} // unreadable: counted as reserving nothing, a lower bound still
	}
	return tool, reserve
}

// callOfPlan says call belongs to plan, not to an earlier plan of the same name (policy.CallOfPlan).
func callOfPlan(plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall) bool {
	return policy.CallOfPlan(plan, call)
}
