package v1alpha1

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// departedTTL is how long a deleted plan's cost is still counted while the ProjectPolicy that
// settles it is not yet seen to: the window in which the plan's informer event arrived before the
// policy's. Counting it longer only over-counts, the safe direction.
const departedTTL = time.Minute

// projectTotals keeps each namespace's total spend in memory, so the maxTotalCost check reads it in
// O(1) instead of listing the namespace's plans: the spend of the plans that exist (fed by the
// plan informer, and by this replica's own status writes the moment they land) plus what the
// ProjectPolicy says deleted plans spent. Each plan's figure only ever grows (a stale event never
// lowers it). A plan's own decision adds its not-yet-observed increments through total's planCost.
//
// The one replica that decides counters raises a plan's figure as it decides (observeUsage), and
// decisions that check maxTotalCost are serialized per namespace (lockNamespace), so the total is
// exceeded by at most the last admitted call's reservation (plus reports, as for a plan's cost).
type projectTotals struct {
	mu sync.Mutex
	ns map[string]*namespaceTotal
	// deciding serializes, per namespace, the decisions that check maxTotalCost: one plan's
	// decision reads the total and counts into it before another plan's reads it.
	deciding sync.Map // namespace -> *sync.Mutex
	// synced says whether the informer has delivered its initial list; until then total lists.
	synced func() bool
	// reader lists plans before synced, and reads ProjectPolicies.
	reader client.Reader
}

type namespaceTotal struct {
	sum      safety.Money
	plans    map[types.UID]safety.Money
	departed map[types.UID]departedPlan
	// held is what each plan's calls in flight hold (held_calls.go), as the replica that decides
	// them last saw it: unlike the spend, it falls, and only the deciding replica knows it (it is
	// in no status). A hold past its until counts here until its plan is charged for it, at the
	// plan's next decision (chargeEnded): the other plans see it as spent meanwhile.
	held map[types.UID]safety.Money
}

type departedPlan struct {
	cost safety.Money
	at   time.Time
}

func newProjectTotals(reader client.Reader) *projectTotals {
	return &projectTotals{ns: map[string]*namespaceTotal{}, reader: reader, synced: func() bool { return true }}
}

// lockNamespace serializes the decisions of namespace that check the project's total; the caller
// runs the returned unlock. Taken before a plan's counters, never after.
func (t *projectTotals) lockNamespace(namespace string) (unlock func()) {
	m, _ := t.deciding.LoadOrStore(namespace, &sync.Mutex{})
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// observe records a plan's accumulated cost, if it grew.
func (t *projectTotals) observe(plan *safetyv1alpha1.AgentPlan) {
	u, err := policy.UsageOf(plan)
	if err != nil {
		return // the schema keeps it a decimal; an unreadable figure is left as it was
	}
	t.observeUsage(plan, u)
}

// observeUsage records the accumulated cost of plan's counters u, if it grew: the counters as
// decided, before they are stored, so the next admission of any plan of the namespace sees them.
func (t *projectTotals) observeUsage(plan *safetyv1alpha1.AgentPlan, u policy.Usage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.namespace(plan.Namespace)
	if old, ok := n.plans[plan.UID]; !ok || u.Accumulated.Cmp(old) > 0 {
		n.sum = safety.MoneyFromNanos(n.sum.Nanos() - old.Nanos()).SaturatingAdd(u.Accumulated)
		n.plans[plan.UID] = u.Accumulated
	}
}

// observeHeld records what plan's calls hold now.
func (t *projectTotals) observeHeld(plan *safetyv1alpha1.AgentPlan, amount safety.Money) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.namespace(plan.Namespace)
	if amount.IsZero() {
		delete(n.held, plan.UID)
		return
	}
	n.held[plan.UID] = amount
}

// heldByOthers is what the namespace's plans other than plan hold: plan's own holds are its
// decision's to add. It visits the plans that hold anything. t.mu is held.
func (n *namespaceTotal) heldByOthers(plan types.UID) safety.Money {
	var sum safety.Money
	for uid, amount := range n.held {
		if uid != plan {
			sum = sum.SaturatingAdd(amount)
		}
	}
	return sum
}

// forget moves a deleted plan's cost aside until the ProjectPolicy shows it settled.
func (t *projectTotals) forget(namespace string, uid types.UID, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.namespace(namespace)
	cost, ok := n.plans[uid]
	if !ok {
		return
	}
	delete(n.plans, uid)
	delete(n.held, uid) // a deleted plan's spend is final: its calls hold nothing more
	n.sum = safety.MoneyFromNanos(n.sum.Nanos() - cost.Nanos())
	n.departed[uid] = departedPlan{cost: cost, at: now}
}

func (t *projectTotals) namespace(ns string) *namespaceTotal {
	n := t.ns[ns]
	if n == nil {
		n = &namespaceTotal{plans: map[types.UID]safety.Money{}, departed: map[types.UID]departedPlan{}, held: map[types.UID]safety.Money{}}
		t.ns[ns] = n
	}
	return n
}

// total is the namespace's spend as maxTotalCost sees it, with plan's own figure taken as
// planCost when that is higher (the counts its decisions hold in memory, not yet observed), and
// what the other plans' calls in flight hold (plan's own holds are the decision's to add).
func (t *projectTotals) total(ctx context.Context, namespace string, plan types.UID, planCost safety.Money, now time.Time) (safety.Money, error) {
	settledCost, settled, err := t.settled(ctx, namespace)
	if err != nil {
		return safety.Money{}, err
	}
	if !t.synced() {
		listed, err := t.listTotal(ctx, namespace, plan, planCost, settledCost, settled)
		if err != nil {
			return safety.Money{}, err
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		return listed.SaturatingAdd(t.namespace(namespace).heldByOthers(plan)), nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.namespace(namespace)
	total := n.sum.SaturatingAdd(n.heldByOthers(plan))
	for _, uid := range settled {
		if c, ok := n.plans[types.UID(uid)]; ok { // settled, and still in the cache: count it once
			total = safety.MoneyFromNanos(total.Nanos() - c.Nanos())
		}
		delete(n.departed, types.UID(uid))
	}
	for uid, d := range n.departed {
		if now.Sub(d.at) > departedTTL {
			delete(n.departed, uid)
			continue
		}
		total = total.SaturatingAdd(d.cost)
	}
	if own := n.plans[plan]; planCost.Cmp(own) > 0 && !slices.Contains(settled, string(plan)) {
		total = total.SaturatingAdd(safety.MoneyFromNanos(planCost.Nanos() - own.Nanos()))
	}
	return total.SaturatingAdd(settledCost), nil
}

// settled reads what the namespace's deleted plans spent from its ProjectPolicy.
func (t *projectTotals) settled(ctx context.Context, namespace string) (safety.Money, []string, error) {
	pp := &safetyv1alpha1.ProjectPolicy{}
	err := t.reader.Get(ctx, client.ObjectKey{Namespace: namespace, Name: controller.ProjectPolicyName}, pp)
	if apierrors.IsNotFound(err) || (err == nil && pp.Status.Settled == nil) {
		return safety.Money{}, nil, nil
	}
	if err != nil {
		return safety.Money{}, nil, fmt.Errorf("reading the ProjectPolicy of %s: %w", namespace, err)
	}
	s := pp.Status.Settled
	if s.Cost == "" {
		return safety.Money{}, s.UIDs, nil
	}
	m, err := safety.ParseMoney(s.Cost)
	if err != nil {
		return safety.Money{}, nil, fmt.Errorf("status.settled.cost of ProjectPolicy %s/%s: %w", namespace, controller.ProjectPolicyName, err)
	}
	return m, s.UIDs, nil
}

// listTotal is the total the slow way, only until the informer has synced after a start.
func (t *projectTotals) listTotal(ctx context.Context, namespace string, plan types.UID, planCost, settledCost safety.Money,
	settled []string) (safety.Money, error) {
	var plans safetyv1alpha1.AgentPlanList
	if err := t.reader.List(ctx, &plans, client.InNamespace(namespace)); err != nil {
		return safety.Money{}, fmt.Errorf("listing plans in %s: %w", namespace, err)
	}
	total := settledCost
	for i := range plans.Items {
		p := &plans.Items[i]
		if slices.Contains(settled, string(p.UID)) {
			continue
		}
		u, err := policy.UsageOf(p)
		if err != nil {
			return safety.Money{}, err
		}
		if p.UID == plan && planCost.Cmp(u.Accumulated) > 0 {
			u.Accumulated = planCost
		}
		total = total.SaturatingAdd(u.Accumulated)
	}
	return total, nil
}

// handler feeds the totals from the plan informer.
func (t *projectTotals) handler(now func() time.Time) toolscache.ResourceEventHandler {
	return toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if p, ok := obj.(*safetyv1alpha1.AgentPlan); ok {
				t.observe(p)
			}
		},
		UpdateFunc: func(_, obj any) {
			if p, ok := obj.(*safetyv1alpha1.AgentPlan); ok {
				t.observe(p)
			}
		},
		DeleteFunc: onDeletedPlan(func(p *safetyv1alpha1.AgentPlan) { t.forget(p.Namespace, p.UID, now()) }),
	}
}

// onDeletedPlan is an informer's DeleteFunc that calls f with the plan deleted, also when the
// informer missed the deletion and holds only its last known state.
func onDeletedPlan(f func(*safetyv1alpha1.AgentPlan)) func(obj any) {
	return func(obj any) {
		if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		if p, ok := obj.(*safetyv1alpha1.AgentPlan); ok {
			f(p)
		}
	}
}

// watchTotals feeds the handler's project totals from the manager's plan informer and counts
// usage with the manager's client, re-reading live after a conflict.
func (h *AgentToolCallHandler) watchTotals(mgr ctrl.Manager) error {
	inf, err := mgr.GetCache().GetInformer(context.Background(), &safetyv1alpha1.AgentPlan{}, crcache.BlockUntilSynced(false))
	if err != nil {
		return fmt.Errorf("watching plans for the project totals: %w", err)
	}
	reg, err := inf.AddEventHandler(h.totals.handler(h.Clock.Now))
	if err != nil {
		return fmt.Errorf("watching plans for the project totals: %w", err)
	}
	h.totals.synced = reg.HasSynced
	if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{DeleteFunc: onDeletedPlan(h.usage.planDeleted)}); err != nil {
		return fmt.Errorf("watching plans for the usage counters: %w", err)
	}
	h.usage.live = mgr.GetAPIReader()
	return nil
}
