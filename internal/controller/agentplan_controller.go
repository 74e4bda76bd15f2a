package controller

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
)

// AgentPlanReconciler locks each plan's effective profile into its status and keeps its usage.
type AgentPlanReconciler struct {
	client.Client
	// APIReader reads live from the API server for the one-time resolution at lock time.
	APIReader client.Reader
	Clock     clock.PassiveClock
	Recorder  recorder.EventRecorder
	// Configs records every lock and re-lock, with the snapshot; nil records none.
	Configs audit.ConfigLog
	// Counters are the webhook's, stored before a deleted plan is settled; nil stores nothing.
	Counters CounterStore
}

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=agentplans,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=agentplans/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=agenttoolcalls,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=safetyprofiles;automationprofiles;projectpolicies,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// pendingEvent is emitted only after the status write it describes has landed.
type pendingEvent struct{ eventType, reason, note string }

// Reconcile locks the plan if it is not locked (or a re-lock was requested). A plan carries the
// PlanFinalizer from its first reconcile; when it is deleted, its spend is settled into its
// project's total before the finalizer is released. Usage is not counted here: the admission
// webhook counts every call into the plan's status as it admits it.
func (r *AgentPlanReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	plan := &safetyv1alpha1.AgentPlan{}
	if err := r.Get(ctx, req.NamespacedName, plan); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if plan.DeletionTimestamp != nil {
		return ctrl.Result{}, r.settle(ctx, plan)
	}
	if err := r.holdSpend(ctx, plan); err != nil {
		return ctrl.Result{}, err
	}
	before := plan.DeepCopy()
	event, err := r.lock(ctx, plan)
	if err != nil {
		return ctrl.Result{}, err
	}
	// One reading of the clock decides both the condition and the requeue: read twice, a deadline
	// passing between them (the status write is in between) left Active=True with no requeue.
	now := r.Clock.Now()
	r.setActive(plan, now)
	if !equality.Semantic.DeepEqual(before.Status, plan.Status) {
		plan.Status.ObservedGeneration = plan.Generation
		// The optimistic lock keeps the webhook's usage counters, written since the cache was
		// read, from being overwritten: a stale copy conflicts and is reconciled again.
		if err := r.Status().Patch(ctx, plan, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
			return ctrl.Result{}, fmt.Errorf("writing status of plan %s: %w", req, err)
		}
		if was := before.Status.Snapshot; r.Counters != nil && was != nil && plan.Status.Snapshot.Epoch != was.Epoch {
			// The webhook's cache shows the re-lock a moment later; its counters, which every
			// decision of the plan goes through, know it now.
			r.Counters.Relocked(plan)
		}
	}
	if event != nil {
		r.Recorder.Eventf(plan, nil, event.eventType, event.reason, "Lock", "%s", event.note)
	}
	r.recordLock(ctx, before.Status.Snapshot, plan)
	return r.requeue(plan, now, ctrl.Result{}), nil
}

// lock sets the snapshot of an unlocked plan, or replaces it when the relock annotation asks for
// it; a plan that cannot be locked gets Locked=False with the reason.
func (r *AgentPlanReconciler) lock(ctx context.Context, plan *safetyv1alpha1.AgentPlan) (*pendingEvent, error) {
	old := plan.Status.Snapshot
	token := plan.Annotations[safetyv1alpha1.RelockAnnotation]
	if old != nil && (token == "" || token == old.RelockToken) {
		return nil, nil
	}
	podUID, err := r.binding(ctx, plan, old == nil)
	var snap *safetyv1alpha1.PlanSnapshot
	if err == nil {
		snap, err = resolver{reader: r.APIReader}.snapshot(ctx, plan)
	}
	if lockErr, ok := errors.AsType[*lockError](err); ok {
		if old != nil { // a failed re-lock keeps the plan on its current snapshot
			return &pendingEvent{corev1.EventTypeWarning, lockErr.Reason, "Re-lock failed: " + lockErr.Message}, nil
		}
		r.setLocked(plan, metav1.ConditionFalse, lockErr.Reason, lockErr.Message)
		return &pendingEvent{corev1.EventTypeWarning, lockErr.Reason, lockErr.Message}, nil
	}
	if err != nil {
		return nil, err
	}
	snap.LockedAt = metav1.NewTime(r.Clock.Now())
	snap.Epoch, snap.RelockToken, snap.PodUID = 1, token, podUID
	plan.Status.Tools = nil // tools are pinned again, at their first use under this lock
	reason := safetyv1alpha1.AgentPlanLockedReason
	if old != nil {
		snap.Epoch, reason = old.Epoch+1, safetyv1alpha1.AgentPlanRelockedReason
	}
	plan.Status.Snapshot = snap
	msg := fmt.Sprintf("Locked %s profile %q (epoch %d, %s)", snap.Provenance, snap.ProfileName, snap.Epoch, snap.Hash)
	r.setLocked(plan, metav1.ConditionTrue, reason, msg)
	return &pendingEvent{corev1.EventTypeNormal, reason, msg}, nil
}

// recordLock writes the config record of a snapshot this reconcile wrote. It runs after the write
// landed, so the ledger never holds a lock that did not happen; a record that fails is in the
// Log's loss account (and its next loss record), since the lock is not undone for it.
func (r *AgentPlanReconciler) recordLock(ctx context.Context, was *safetyv1alpha1.PlanSnapshot, plan *safetyv1alpha1.AgentPlan) {
	now := plan.Status.Snapshot
	if r.Configs == nil || now == nil || (was != nil && was.Epoch == now.Epoch) {
		return
	}
	c, err := audit.LockChange(plan, was != nil)
	if err == nil {
		err = r.Configs.RecordConfig(ctx, c)
	}
	if err != nil {
		ctrl.LoggerFrom(ctx).Error(err, "Recording the lock of the plan in the ledger", "epoch", now.Epoch)
	}
}

func (r *AgentPlanReconciler) setLocked(plan *safetyv1alpha1.AgentPlan, status metav1.ConditionStatus, reason, msg string) {
	meta.SetStatusCondition(&plan.Status.Conditions, metav1.Condition{
		Type: safetyv1alpha1.AgentPlanLockedCondition, Status: status, Reason: reason, Message: msg,
		ObservedGeneration: plan.Generation, LastTransitionTime: metav1.NewTime(r.Clock.Now()),
	})
}

// SetupWithManager watches plans and the profiles unlocked plans wait for.
func (r *AgentPlanReconciler) SetupWithManager(mgr ctrl.Manager) error {
	unlockedPlans := handler.EnqueueRequestsFromMapFunc(r.unlockedPlans)
	return ctrl.NewControllerManagedBy(mgr).
		For(&safetyv1alpha1.AgentPlan{}, builder.WithPredicates(predicate.Or(
			predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{}, deleting))).
		Watches(&safetyv1alpha1.SafetyProfile{}, unlockedPlans).
		Watches(&safetyv1alpha1.AutomationProfile{}, unlockedPlans).
		Watches(&safetyv1alpha1.ProjectPolicy{}, unlockedPlans).
		Named("agentplan").
		Complete(r)
}

// unlockedPlans maps a profile or policy change to every plan still waiting for its lock.
func (r *AgentPlanReconciler) unlockedPlans(ctx context.Context, _ client.Object) []reconcile.Request {
	return planRequests(ctx, r.Client, nil, client.MatchingFields{PlanLockedIndex: "false"})
}
