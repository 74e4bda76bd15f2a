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
	// The preconditions make sure the plan deleted is the one judged ended: an administrator who
	// extended its deadline since it was read changed its resourceVersion.
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

// EndedPlanDue is when an ended plan may be deleted: ttl after its deadline, and, for a plan that
// names a cost reporter, not before the reporter's window has passed for its last calls (a call
// admitted just before the deadline may be reported up to policy.ReportWindow later; deleting the
// plan sooner would charge its hold at the ceiling instead of the reported cost).
func EndedPlanDue(plan *safetyv1alpha1.AgentPlan, ttl time.Duration) time.Time {
	if policy.CostReporterUser(plan) != "" {
		ttl = max(ttl, policy.ReportWindow)
	}
	return policy.PlanDeadline(plan).Add(ttl)
}

// podHolds says the plan is bound to a pod that still runs: the pod it was locked to, or, for a
// plan never locked, any pod of its name. Such a pod takes no other plan of its ServiceAccount
// while its ended plan exists (policy.BindsPod), so deleting the plan would let it hop to one.
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
	snap := plan.Status.Snapshot
	return snap == nil || snap.PodUID == "" || string(pod.UID) == snap.PodUID, nil
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
