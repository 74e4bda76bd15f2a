package v1alpha1

import (
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// What a plan's calls in flight hold (policy.HoldFor) is kept per call, in the memory of the
// replica that decides the plan's counters, not in the only-growing counters of its status: a
// hold must end. It ends at the reporter's final report of the call, which releases exactly what
// the call held, once (the call leaves the table); or holdTTL after the call was admitted, when
// it is charged: a call not finally reported by then costs its ceiling (what it held is added to
// the plan's accumulatedCost, and a late report counts only what it states beyond the ceiling),
// as a call whose cost the gateway could not read does. So a call whose reporter died, or that
// an agent made and never ran, cannot hold a budget for free; one whose create failed after it
// was admitted (the ledger, another webhook, etcd) is charged as its reservation already is. A
// replica that starts deciding the plan recounts the holds from the calls stored: each call
// without a final report created less than holdTTL ago.
const (
	// holdTTL is the reporter's window (policy.ReportWindow).
	holdTTL = policy.ReportWindow
	// maxHeldCalls bounds the table per plan; a call that would hold beyond it is refused.
	maxHeldCalls = 4096
)

// heldCalls are a plan's holds. The zero value holds nothing. Guarded by the plan's p.mu.
type heldCalls struct {
	byCall map[types.UID]heldCall
	// order is byCall's calls by until, for expiry from the front; a released call's entry stays
	// until it reaches the front or the order is compacted.
	order []queuedHold
	sum   int64 // nanos held by byCall
	// charged are the calls whose holds ended unreported and were charged, and when, so that a
	// late report of one counts only what it states beyond the ceiling; bounded by maxHeldCalls,
	// the oldest past holdTTL first. Forgotten, a late report is counted in full: more, never less.
	charged map[types.UID]chargedHold
}

type chargedHold struct {
	amount, reserve safety.Money
	at              time.Time
}

// heldCall is one call's hold: amount beyond the reservation reserve (the two make the tool's
// ceiling), until until; reported is the most its reporter has reported for it so far.
type heldCall struct {
	amount, reserve, reported safety.Money
	until                     time.Time
}

// charge is what the call costs beyond what is counted for it when its hold ends unreported: up to
// its ceiling, less what its reports already added beyond its reservation.
func (e heldCall) charge() safety.Money {
	beyond := max(0, e.reported.Nanos()-e.reserve.Nanos())
	return safety.MoneyFromNanos(max(0, e.amount.Nanos()-beyond))
}

type queuedHold struct {
	call  types.UID
	until time.Time
}

// hold records call's hold; a call already held keeps its first hold.
func (h *heldCalls) hold(call types.UID, e heldCall) {
	amount, until := e.amount, e.until
	if amount.Nanos() <= 0 {
		return
	}
	if h.byCall == nil {
		h.byCall = map[types.UID]heldCall{}
	}
	if _, ok := h.byCall[call]; ok {
		return
	}
	if _, ok := h.charged[call]; ok {
		return // charged already: a recount finds it again when the API server's clock runs ahead of this one
	}
	h.byCall[call] = e
	h.order = append(h.order, queuedHold{call: call, until: until})
	h.sum = safety.MoneyFromNanos(h.sum).SaturatingAdd(amount).Nanos()
}

// release ends call's hold, if it holds anything, and says whether it did.
func (h *heldCalls) release(call types.UID) bool {
	e, ok := h.byCall[call]
	if !ok {
		return false
	}
	delete(h.byCall, call)
	h.sum = max(0, h.sum-e.amount.Nanos())
	h.compact()
	return true
}

// noteReported records that call's reporter reported cost for it, while it holds.
func (h *heldCalls) noteReported(call types.UID, cost safety.Money) {
	if e, ok := h.byCall[call]; ok && cost.Cmp(e.reported) > 0 {
		e.reported = cost
		h.byCall[call] = e
	}
}

// expire ends the holds past their until at now, and returns what the plan is charged for them
// (heldCall.charge; usageCommitter.chargeEnded).
func (h *heldCalls) expire(now time.Time) safety.Money {
	var ended safety.Money
	for len(h.order) > 0 && !h.order[0].until.After(now) {
		q := h.order[0]
		h.order = h.order[1:]
		if e, ok := h.byCall[q.call]; ok && !e.until.After(now) {
			delete(h.byCall, q.call)
			h.sum = max(0, h.sum-e.amount.Nanos())
			ended = ended.SaturatingAdd(e.charge())
			h.rememberCharge(q.call, chargedHold{amount: e.amount, reserve: e.reserve, at: now})
		}
	}
	h.compact()
	return ended
}

// endAll ends every hold at now, as expire ends those past their until, and returns what the plan
// is charged for them: its spend is being settled (CounterStore.Seal), and no report of a call
// still in flight counts in a deleted plan.
func (h *heldCalls) endAll(now time.Time) safety.Money {
	var ended safety.Money
	for call, e := range h.byCall {
		ended = ended.SaturatingAdd(e.charge())
		h.rememberCharge(call, chargedHold{amount: e.amount, reserve: e.reserve, at: now})
	}
	clear(h.byCall)
	h.order, h.sum = h.order[:0], 0
	return ended
}

// held is what the plan's calls hold, as of the last expire.
func (h *heldCalls) held() safety.Money { return safety.MoneyFromNanos(h.sum) }

// chargedFor is what call held when its hold ended unreported and it was charged, if it was: a
// late report of it counts from its ceiling, its reservation and that.
func (h *heldCalls) chargedFor(call types.UID) (safety.Money, bool) {
	c, ok := h.charged[call]
	return c.amount, ok
}

// reserveOf is what call reserved at its admission, as its hold recorded it, while it holds or
// is remembered charged. A report of it counts from that: after a re-lock the plan no longer pins
// the price the call was admitted at (policy.ReservedBy then counts it as reserving nothing).
func (h *heldCalls) reserveOf(call types.UID) (safety.Money, bool) {
	if e, ok := h.byCall[call]; ok {
		return e.reserve, true
	}
	c, ok := h.charged[call]
	return c.reserve, ok
}

func (h *heldCalls) rememberCharge(call types.UID, c chargedHold) {
	if h.charged == nil {
		h.charged = map[types.UID]chargedHold{}
	}
	makeRoom(h.charged, maxHeldCalls, c.at.Add(-holdTTL), func(e chargedHold) time.Time { return e.at })
	h.charged[call] = c
}

// full says a new hold would take the table past maxHeldCalls.
func (h *heldCalls) full() bool { return len(h.byCall) >= maxHeldCalls }

// compact rebuilds the order once released calls make up most of it, so that it stays within
// twice the calls held.
func (h *heldCalls) compact() {
	if len(h.order) <= 2*len(h.byCall)+64 {
		return
	}
	h.compactAlways()
}

// compactAlways rebuilds the order from the calls held, by until.
func (h *heldCalls) compactAlways() {
	h.order = h.order[:0]
	for call, e := range h.byCall {
		h.order = append(h.order, queuedHold{call: call, until: e.until})
	}
	slices.SortFunc(h.order, func(a, b queuedHold) int { return a.until.Compare(b.until) })
}

// recountedHold is a stored call's hold, as a recount finds it.
type recountedHold struct {
	call types.UID
	heldCall
}

// merge adds the holds recounted from the calls stored to what this replica holds from an
// earlier term: a call it admitted whose create was not yet stored when the recount listed the
// calls still holds, and one another replica saw finally reported meanwhile holds until its
// until (more, never less).
func (h *heldCalls) merge(recounted []recountedHold) {
	for _, r := range recounted {
		h.hold(r.call, r.heldCall)
	}
	if len(recounted) > 0 {
		h.compactAlways() // recounted holds may end before this replica's: the order is by until again
	}
}

// heldKey is the key of call's hold: its UID, which the API server assigns before it asks the
// validating webhooks. A create that reaches the webhook without one (never from the API server)
// holds under its request's UID, which no report names: its hold ends with holdTTL.
func heldKey(req admission.Request, call *safetyv1alpha1.AgentToolCall) types.UID {
	if call.UID != "" {
		return call.UID
	}
	return "request:" + req.UID
}
