package controller

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// DefaultEndedPlanTTL applies when there is no AuditLedger or it sets no endedPlanTTLSeconds.
const DefaultEndedPlanTTL = 7 * 24 * time.Hour

// boundPodRecheck is how soon a plan past its TTL is looked at again while the pod it is bound to
// still runs: pods are not watched (the operator reads one pod when it must, and watching every
// pod of the cluster would cost far more than a look every few minutes at the few such plans).
const boundPodRecheck = 5 * time.Minute

// EndedPlanReconciler deletes an AgentPlan the AuditLedger's endedPlanTTLSeconds after it ended.
// Ended plans are never used again, but the plan of every ServiceAccount is found by listing its
// plans (at each plan creation, and by the hook at each tool call), so a ServiceAccount that runs a
// plan per task would otherwise make those lists grow for ever. Deleting goes the way any deletion
// does: the plan controller seals its counters, settles its spend into the ProjectPolicy and
// revokes its approvals before releasing it.
type EndedPlanReconciler struct {
	client.Client
	// APIReader reads the one pod a plan is bound to, live (pods are not cached).
	APIReader client.Reader
	Clock     clock.PassiveClock
}

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=agentplans,verbs=get;list;watch;delete
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=auditledgers,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=pods,verbs=get

// Reconcile deletes an ended plan once its TTL has passed, or says when to look again.
func (r *EndedPlanReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	plan := &safetyv1alpha1.AgentPlan{}
	if err := r.Get(ctx, req.NamespacedName, plan); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if plan.DeletionTimestamp != nil {
		return ctrl.Result{}, nil
	}
	ttl, err := endedPlanTTL(ctx, r.Client)
	if err != nil {
		return ctrl.Result{}, err
	}
	if wait := EndedPlanDue(plan, ttl).Sub(r.Clock.Now()); wait > 0 {
		return ctrl.Result{RequeueAfter: wait}, nil
	}
	held, err := r.podHolds(ctx, plan)
	if err != nil {
		return ctrl.Result{}, err
	}
	if held {
		return ctrl.Result{RequeueAfter: boundPodRecheck}, nil
	}
	// The preconditions make sure the plan deleted is the one judged: a re-lock since it was read
	// (which binds a pod recreated under its pod name) changed its resourceVersion. Its spec, the
	// deadline included, is immutable.
	err = r.Delete(ctx, plan, client.Preconditions{UID: &plan.UID, ResourceVersion: &plan.ResourceVersion})
	if apierrors.IsConflict(err) {
		return ctrl.Result{RequeueAfter: time.Second}, nil // changed since it was read: look again
	}
	if client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, fmt.Errorf("deleting ended AgentPlan %s: %w", req, err)
	}
	ctrl.LoggerFrom(ctx).V(1).Info("Deleted ended AgentPlan after its TTL", "ttl", ttl, "ended", policy.PlanDeadline(plan))
	return ctrl.Result{}, nil
}

// EndedPlanDue is when an ended plan may be deleted: ttl after its deadline, and not before the
// reporter's window has passed for its last calls. A call admitted just before the deadline may
// be reported up to policy.ReportWindow later, by the plan's cost reporter or by its agent (its
// phase), and every report of a call is refused once its plan is gone: deleting the plan sooner
// would charge a reporter's call its hold at the ceiling instead of its reported cost, and leave a
// call its agent reported finished recorded as unfinished.
func EndedPlanDue(plan *safetyv1alpha1.AgentPlan, ttl time.Duration) time.Time {
	return policy.PlanDeadline(plan).Add(max(ttl, policy.ReportWindow))
}

// podHolds says the plan is what binds a pod that still runs: the pod it was locked to, or, for a
// plan never locked, any pod of its name. Such a pod takes no other plan of its ServiceAccount
// while a plan binds it (policy.BindsPod), so deleting the pod's only binding plan would let it hop
// to one. A later plan of the same pod binds it as well (laterPlanOfPod), so only the pod's latest
// plan is kept for it: a pod that runs one plan after another does not keep its whole history.
func (r *EndedPlanReconciler) podHolds(ctx context.Context, plan *safetyv1alpha1.AgentPlan) (bool, error) {
	if plan.Spec.PodName == "" {
		return false, nil
	}
	pod := &corev1.Pod{}
	err := r.APIReader.Get(ctx, client.ObjectKey{Namespace: plan.Namespace, Name: plan.Spec.PodName}, pod)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading pod %s of plan %s/%s: %w", plan.Spec.PodName, plan.Namespace, plan.Name, err)
	}
	if snap := plan.Status.Snapshot; snap != nil && snap.PodUID != "" && string(pod.UID) != snap.PodUID {
		return false, nil
	}
	later, err := r.laterPlanOfPod(ctx, plan)
	return !later, err
}

// laterPlanOfPod says a plan created after plan (by name when in the same second) binds plan's
// pod too (policy.BindsPod): the latest of a pod's plans is never deleted for another, so a pod
// that exists always keeps one. The plan found in the cache is read again from the API server: a
// plan deleted since would not hold the pod.
func (r *EndedPlanReconciler) laterPlanOfPod(ctx context.Context, plan *safetyv1alpha1.AgentPlan) (bool, error) {
	var plans safetyv1alpha1.AgentPlanList
	if err := r.List(ctx, &plans, client.InNamespace(plan.Namespace), client.MatchingFields{PlanPodIndex: plan.Spec.PodName},
		client.UnsafeDisableDeepCopy); err != nil {
		return false, fmt.Errorf("listing the plans of pod %s/%s: %w", plan.Namespace, plan.Spec.PodName, err)
	}
	for i := range plans.Items {
		o := &plans.Items[i]
		if o.UID == plan.UID || !policy.BindsPod(o, plan.Spec.ServiceAccountName, plan.Spec.PodName) || !createdAfter(o, plan) {
			continue
		}
		live := &safetyv1alpha1.AgentPlan{}
		err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(o), live)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("reading plan %s/%s of pod %s: %w", o.Namespace, o.Name, plan.Spec.PodName, err)
		}
		if live.UID == o.UID && policy.BindsPod(live, plan.Spec.ServiceAccountName, plan.Spec.PodName) {
			return true, nil
		}
	}
	return false, nil
}

// createdAfter orders plans by creation, then name: creation times have whole seconds.
func createdAfter(a, b *safetyv1alpha1.AgentPlan) bool {
	if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
		return b.CreationTimestamp.Before(&a.CreationTimestamp)
	}
	return a.Name > b.Name
}

// SetupWithManager watches plans, and the AuditLedger, whose TTL change re-times them all.
func (r *EndedPlanReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&safetyv1alpha1.AgentPlan{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Watches(&safetyv1alpha1.AuditLedger{}, handler.EnqueueRequestsFromMapFunc(r.allPlans),
			builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Named("endedplan").
		Complete(r)
}

func (r *EndedPlanReconciler) allPlans(ctx context.Context, _ client.Object) []reconcile.Request {
	return planRequests(ctx, r.Client, nil)
}
