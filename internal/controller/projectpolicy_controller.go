package controller

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// ProjectPolicyReconciler rolls the project's spend up into the policy's status: the settled
// spend of deleted plans (which the plan controller adds) plus the plans that exist. The admission
// webhook checks maxTotalCost against the same sum, kept in memory; this is what kubectl shows.
type ProjectPolicyReconciler struct {
	client.Client
	Clock clock.PassiveClock

	mu sync.Mutex
	// written is when each policy's total was last written, so plan usage, which changes with
	// every admission batch, costs the policy at most one write per totalInterval.
	written map[types.NamespacedName]time.Time
}

// totalInterval is how often at most a project's status.totalCost is rewritten while its plans
// are busy.
const totalInterval = 10 * time.Second

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=projectpolicies/status,verbs=get;update;patch

// Reconcile writes Ready, the plan count and the project's total cost, and drops from
// status.settled.uids the settled plans that are gone.
func (r *ProjectPolicyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	pp := &safetyv1alpha1.ProjectPolicy{}
	if err := r.Get(ctx, req.NamespacedName, pp); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	before := pp.DeepCopy()
	reason, msg := safetyv1alpha1.ReadyReason, "The policy compiles"
	if errs := policy.ValidateProjectRules(&pp.Spec, field.NewPath("spec")); len(errs) > 0 {
		reason, msg = safetyv1alpha1.InvalidReason, errs.ToAggregate().Error()
	}
	readyCondition(&pp.Status.Conditions, pp.Generation, r.Clock, reason, msg)
	total, plans, gone, err := ProjectTotalCost(ctx, r.Client, pp)
	if err != nil {
		return ctrl.Result{}, err
	}
	if s := pp.Status.Settled; s != nil && len(gone) > 0 {
		s.UIDs = slices.DeleteFunc(s.UIDs, func(uid string) bool { return slices.Contains(gone, uid) })
		if len(s.UIDs) == 0 {
			s.UIDs = nil
		}
	}
	pp.Status.Plans, pp.Status.ObservedGeneration = plans, pp.Generation
	onlyTotal := equality.Semantic.DeepEqual(before.Status, pp.Status)
	pp.Status.TotalCost = total.String()
	if onlyTotal && before.Status.TotalCost != pp.Status.TotalCost {
		if wait := r.lastWritten(req.NamespacedName).Add(totalInterval).Sub(r.Clock.Now()); wait > 0 {
			return ctrl.Result{RequeueAfter: wait}, nil
		}
	}
	if equality.Semantic.DeepEqual(before.Status, pp.Status) {
		return ctrl.Result{}, nil
	}
	// The optimistic lock keeps a settlement the plan controller just wrote from being lost.
	if err := r.Status().Patch(ctx, pp, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return ctrl.Result{}, fmt.Errorf("writing status of ProjectPolicy %s: %w", req, err)
	}
	r.mu.Lock()
	if r.written == nil {
		r.written = map[types.NamespacedName]time.Time{}
	}
	r.written[req.NamespacedName] = r.Clock.Now()
	r.mu.Unlock()
	return ctrl.Result{}, nil
}

func (r *ProjectPolicyReconciler) lastWritten(key types.NamespacedName) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.written[key]
}

// ProjectTotalCost is a project's spend: its settled part plus the accumulated cost of every plan
// in the namespace not settled already. It also returns the number of plans and the settled UIDs
// whose plans are gone. It lists the namespace's plans, so only controllers and the kubectl plugin
// use it; the webhook keeps the same sum in memory.
func ProjectTotalCost(ctx context.Context, c client.Reader, pp *safetyv1alpha1.ProjectPolicy) (safety.Money, int32, []string, error) {
	var plans safetyv1alpha1.AgentPlanList
	if err := c.List(ctx, &plans, client.InNamespace(pp.Namespace)); err != nil {
		return safety.Money{}, 0, nil, fmt.Errorf("listing plans in %s: %w", pp.Namespace, err)
	}
	total := safety.Money{}
	var settled []string
	if s := pp.Status.Settled; s != nil {
		settled = s.UIDs
		if s.Cost != "" {
			m, err := safety.ParseMoney(s.Cost)
			if err != nil {
				return safety.Money{}, 0, nil, fmt.Errorf("status.settled.cost of ProjectPolicy %s: %w", pp.Namespace, err)
			}
			total = m
		}
	}
	present := map[string]bool{}
	for i := range plans.Items {
		p := &plans.Items[i]
		present[string(p.UID)] = true
		if slices.Contains(settled, string(p.UID)) {
			continue
		}
		u, err := policy.UsageOf(p)
		if err != nil {
			return safety.Money{}, 0, nil, err
		}
		total = total.SaturatingAdd(u.Accumulated)
	}
	var gone []string
	for _, uid := range settled {
		if !present[uid] {
			gone = append(gone, uid)
		}
	}
	return total, int32(len(plans.Items)), gone, nil
}

// SetupWithManager watches policies and the plans of their namespace.
func (r *ProjectPolicyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&safetyv1alpha1.ProjectPolicy{}).
		Watches(&safetyv1alpha1.AgentPlan{}, handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
			return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: o.GetNamespace(), Name: ProjectPolicyName}}}
		})).
		Named("projectpolicy").
		Complete(r)
}
