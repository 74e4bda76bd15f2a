package controller

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// AgentPlanReconciler locks each plan's effective profile into its status and keeps its usage.
type AgentPlanReconciler struct {
	client.Client
	// APIReader reads live from the API server for the one-time resolution at lock time.
	APIReader client.Reader
	Clock     clock.PassiveClock
	Recorder  recorder.EventRecorder
}

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=agentplans,verbs=get;list;watch
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=agentplans/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=agenttoolcalls,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=safetyprofiles;automationprofiles;projectpolicies,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// pendingEvent is emitted only after the status write it describes has landed.
type pendingEvent struct{ eventType, reason, note string }

// Reconcile locks the plan if it is not locked (or a re-lock was requested), then brings its
// usage up to date: calls being deleted are settled, the live ones recounted. Finalizers are
// added and released only after the status write that accounts for them has landed.
func (r *AgentPlanReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	plan := &safetyv1alpha1.AgentPlan{}
	if err := r.Get(ctx, req.NamespacedName, plan); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{}, r.releaseOrphans(ctx, req.NamespacedName)
		}
		return ctrl.Result{}, err
	}
	before := plan.DeepCopy()
	event, err := r.lock(ctx, plan)
	if err != nil {
		return ctrl.Result{}, err
	}
	changes, err := r.account(ctx, plan)
	if err != nil {
		return ctrl.Result{}, err
	}
	r.setActive(plan)
	if !equality.Semantic.DeepEqual(before.Status, plan.Status) {
		plan.Status.ObservedGeneration = plan.Generation
		// The optimistic lock is what makes settlement exactly-once: a decision taken on a stale
		// copy of settled.uids is rejected here and taken again on the current one.
		if err := r.Status().Patch(ctx, plan, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
			return ctrl.Result{}, fmt.Errorf("writing status of plan %s: %w", req, err)
		}
	}
	if event != nil {
		r.Recorder.Eventf(plan, nil, event.eventType, event.reason, "Lock", "%s", event.note)
	}
	res, err := r.applyFinalizers(ctx, changes)
	return r.requeue(plan, res), err
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

func (r *AgentPlanReconciler) setLocked(plan *safetyv1alpha1.AgentPlan, status metav1.ConditionStatus, reason, msg string) {
	meta.SetStatusCondition(&plan.Status.Conditions, metav1.Condition{
		Type: safetyv1alpha1.AgentPlanLockedCondition, Status: status, Reason: reason, Message: msg,
		ObservedGeneration: plan.Generation, LastTransitionTime: metav1.NewTime(r.Clock.Now()),
	})
}

// account brings the plan's usage up to date. Calls being deleted are settled: their cost and
// attempt move into status.usage.settled together with their UID, in the same status write, so a
// crash before their finalizer is released settles nothing twice. UIDs whose call is gone are
// dropped. It returns the finalizer changes to make once that write has landed.
func (r *AgentPlanReconciler) account(ctx context.Context, plan *safetyv1alpha1.AgentPlan) (finalizerChanges, error) {
	var changes finalizerChanges
	var calls safetyv1alpha1.AgentToolCallList
	if err := r.List(ctx, &calls, client.InNamespace(plan.Namespace), client.MatchingFields{CallPlanIndex: plan.Name}); err != nil {
		return changes, fmt.Errorf("listing calls of plan %s/%s: %w", plan.Namespace, plan.Name, err)
	}
	settled := plan.Status.Usage.Settled.DeepCopy()
	if settled == nil {
		settled = &safetyv1alpha1.SettledUsage{}
	}
	present := make(map[string]bool, len(calls.Items))
	for i := range calls.Items {
		present[string(calls.Items[i].UID)] = true
	}
	settled.UIDs = slices.DeleteFunc(settled.UIDs, func(uid string) bool { return !present[uid] })
	for i := range calls.Items {
		c := &calls.Items[i]
		switch {
		case slices.Contains(settled.UIDs, string(c.UID)):
			if controllerutil.ContainsFinalizer(c, safetyv1alpha1.UsageFinalizer) {
				changes.release = append(changes.release, c)
			}
		case c.DeletionTimestamp != nil:
			if len(settled.UIDs) >= safetyv1alpha1.MaxSettlingCalls {
				continue // settled once earlier calls are gone and their UIDs dropped
			}
			current, err := r.stillThere(ctx, c)
			if err != nil {
				return changes, err
			}
			if current == nil {
				continue // gone: it leaves the cache, and the count, with the next event
			}
			if err := settle(settled, current); err != nil {
				return changes, err
			}
			if controllerutil.ContainsFinalizer(current, safetyv1alpha1.UsageFinalizer) {
				changes.release = append(changes.release, current)
			}
		case !controllerutil.ContainsFinalizer(c, safetyv1alpha1.UsageFinalizer):
			changes.adopt = append(changes.adopt, c)
		}
	}
	if len(settled.UIDs) == 0 {
		settled.UIDs = nil
	}
	if settled.Calls == 0 && settled.UIDs == nil {
		settled = nil // no call was ever deleted: the status says nothing about settlement
	}
	usage, err := computeUsage(calls.Items, settled, plan.Status.Usage.Denials)
	if err != nil {
		return changes, err
	}
	plan.Status.Usage = usage
	return changes, nil
}

// stillThere reads a call being deleted from the API server, not the cache, before it is settled.
// A UID is dropped from settled.uids only once its call is gone, so a call that still exists live
// cannot have been settled and dropped already, even if a cache (a new leader's, say) still shows
// an older state. nil means the call is gone: a call the finalizer held cannot be gone unsettled.
func (r *AgentPlanReconciler) stillThere(ctx context.Context, c *safetyv1alpha1.AgentToolCall) (*safetyv1alpha1.AgentToolCall, error) {
	current := &safetyv1alpha1.AgentToolCall{}
	if err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(c), current); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("reading AgentToolCall %s/%s: %w", c.Namespace, c.Name, err)
	}
	if current.UID != c.UID {
		return nil, nil
	}
	return current, nil
}

// finalizerChanges are the calls whose usage finalizer is added (counted, not being deleted) or
// released (settled) once the plan's status is written.
type finalizerChanges struct {
	adopt, release []*safetyv1alpha1.AgentToolCall
}

// applyFinalizers adds and releases usage finalizers. A conflict (the agent reporting status at
// the same moment) only means "later": the plan is reconciled again.
func (r *AgentPlanReconciler) applyFinalizers(ctx context.Context, changes finalizerChanges) (ctrl.Result, error) {
	var errs []error
	conflicts := false
	apply := func(c *safetyv1alpha1.AgentToolCall, change func(client.Object, string) bool) {
		before := c.DeepCopy()
		if !change(c, safetyv1alpha1.UsageFinalizer) {
			return
		}
		err := r.Patch(ctx, c, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
		switch {
		case apierrors.IsConflict(err):
			conflicts = true
		case err != nil && !apierrors.IsNotFound(err):
			errs = append(errs, fmt.Errorf("updating the finalizers of AgentToolCall %s/%s: %w", c.Namespace, c.Name, err))
		}
	}
	for _, c := range changes.release {
		apply(c, controllerutil.RemoveFinalizer)
	}
	for _, c := range changes.adopt {
		apply(c, controllerutil.AddFinalizer)
	}
	if err := errors.Join(errs...); err != nil {
		return ctrl.Result{}, err
	}
	if conflicts {
		return ctrl.Result{RequeueAfter: finalizerRetry}, nil
	}
	return ctrl.Result{}, nil
}

// finalizerRetry is how soon finalizer changes that hit a conflict are tried again.
const finalizerRetry = 200 * time.Millisecond

// releaseOrphans releases the usage finalizer of the calls being deleted whose plan no longer
// exists: there is nothing to settle them into, and holding them would block namespace deletion.
// The plan's absence is confirmed live, so a cache that has not seen a new plan yet never
// releases a call unsettled.
func (r *AgentPlanReconciler) releaseOrphans(ctx context.Context, key client.ObjectKey) error {
	var calls safetyv1alpha1.AgentToolCallList
	if err := r.List(ctx, &calls, client.InNamespace(key.Namespace), client.MatchingFields{CallPlanIndex: key.Name}); err != nil {
		return fmt.Errorf("listing calls of plan %s: %w", key, err)
	}
	var changes finalizerChanges
	for i := range calls.Items {
		c := &calls.Items[i]
		if c.DeletionTimestamp != nil && controllerutil.ContainsFinalizer(c, safetyv1alpha1.UsageFinalizer) {
			changes.release = append(changes.release, c)
		}
	}
	if len(changes.release) == 0 {
		return nil
	}
	err := r.APIReader.Get(ctx, key, &safetyv1alpha1.AgentPlan{})
	if err == nil {
		return fmt.Errorf("plan %s exists but is not in the cache yet", key)
	}
	if !apierrors.IsNotFound(err) {
		return fmt.Errorf("reading plan %s: %w", key, err)
	}
	res, err := r.applyFinalizers(ctx, changes)
	if err == nil && res.RequeueAfter > 0 {
		err = fmt.Errorf("releasing the calls of deleted plan %s: conflict", key)
	}
	return err
}

// SetupWithManager watches plans, their calls, and the profiles unlocked plans wait for.
func (r *AgentPlanReconciler) SetupWithManager(mgr ctrl.Manager) error {
	unlockedPlans := handler.EnqueueRequestsFromMapFunc(r.unlockedPlans)
	return ctrl.NewControllerManagedBy(mgr).
		For(&safetyv1alpha1.AgentPlan{}, builder.WithPredicates(predicate.Or(
			predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{}))).
		Watches(&safetyv1alpha1.AgentToolCall{}, handler.EnqueueRequestsFromMapFunc(planOfCall)).
		Watches(&safetyv1alpha1.SafetyProfile{}, unlockedPlans).
		Watches(&safetyv1alpha1.AutomationProfile{}, unlockedPlans).
		Watches(&safetyv1alpha1.ProjectPolicy{}, unlockedPlans).
		Named("agentplan").
		Complete(r)
}

func planOfCall(_ context.Context, o client.Object) []reconcile.Request {
	call := o.(*safetyv1alpha1.AgentToolCall)
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: call.Namespace, Name: call.Spec.Plan}}}
}

// unlockedPlans maps a profile or policy change to every plan still waiting for its lock.
func (r *AgentPlanReconciler) unlockedPlans(ctx context.Context, _ client.Object) []reconcile.Request {
	var plans safetyv1alpha1.AgentPlanList
	if err := r.List(ctx, &plans, client.MatchingFields{PlanLockedIndex: "false"}); err != nil {
		ctrl.LoggerFrom(ctx).Error(err, "Listing unlocked plans")
		return nil
	}
	reqs := make([]reconcile.Request, 0, len(plans.Items))
	for _, p := range plans.Items {
		reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&p)})
	}
	return reqs
}
