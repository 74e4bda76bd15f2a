package controller

import (
	"context"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/policy"
)

// UnfinishedCallReconciler deletes the AgentToolCalls no one ever reported finished (the
// coding-agent hook reports no phase at all) once they can no longer matter: their plan has
// ended or is gone, and the reporter's window and the finished-call TTL have passed since
// (unfinishedDue). Each gets a completion record saying it ended unfinished, and is settled
// into its plan's counters, as a finished call is (removeCall). It reconciles plans, not calls:
// the manager caches finished calls only, so a plan's unfinished calls are listed from the API
// server when the plan ends (its deadline) or goes, never by a poll of every call.
type UnfinishedCallReconciler struct {
	client.Client
	// APIReader lists a plan's calls from the API server, a page at a time.
	APIReader client.Reader
	Clock     clock.PassiveClock
	Log       CompletionLog
	// Counters settle each call into its plan's deleted part before it goes; nil settles none.
	Counters CallSettler

	mu sync.Mutex
	// goneSince is when this process first found a plan (by key) gone or being deleted while calls of it were
	// left: the time their plan counts as ended. A restart moves it later, never earlier.
	goneSince map[types.NamespacedName]time.Time
	// recorded are the calls whose unfinished completion this process appended, until they are
	// gone: a delete that lost a race is tried again without a second record.
	recorded map[types.UID]bool
}

// unfinishedBatch is the least time between two listings of one plan's calls: calls created
// within a window of each other fall due within it, and are deleted together, not one listing
// each.
const unfinishedBatch = time.Minute

// Reconcile deletes the due unfinished calls of the plan req names, and comes back when the next
// is due, or at the plan's deadline while it is active. The calls of an active plan are never
// touched, however old; those of an earlier plan of the same name are its own (gone) plan's.
func (r *UnfinishedCallReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	plan := &safetyv1alpha1.AgentPlan{}
	if err := r.Get(ctx, req.NamespacedName, plan); err != nil {
		if !apierrors.IsNotFound(err) {
			return ctrl.Result{}, err
		}
		plan = nil
	}
	now := r.Clock.Now()
	active := plan != nil && policy.PlanActive(plan, now)
	if active && !r.hasGone(req.NamespacedName) {
		return ctrl.Result{RequeueAfter: policy.PlanDeadline(plan).Sub(now)}, nil
	}
	ttl, err := finishedTTL(ctx, r.Client)
	if err != nil {
		return ctrl.Result{}, err
	}
	var next time.Time      // the soonest a call left is due
	var retry time.Duration // a call to try again soon (its settlement not stored yet)
	earlier := false        // calls of a gone plan are left (goneSince is kept for them)
	err = listUnfinished(ctx, r.APIReader, req.NamespacedName, func(call *safetyv1alpha1.AgentToolCall) error {
		ended, own := planEnded(plan, call, now)
		if !own {
			ended = r.goneAt(req.NamespacedName, now)
		} else if ended.IsZero() {
			return nil // its plan is active
		}
		due := unfinishedDue(call, ended, ttl)
		if due.After(now) {
			next, earlier = soonest(next, due), earlier || !own
			return nil
		}
		again, err := r.remove(ctx, call, due.Add(-ttl))
		retry, earlier = max(retry, again), earlier || (!own && again > 0)
		return err
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	if !earlier {
		r.forgetGone(req.NamespacedName)
	}
	if active {
		next = soonest(next, policy.PlanDeadline(plan))
	}
	switch {
	case retry > 0:
		return ctrl.Result{RequeueAfter: retry}, nil
	case next.IsZero():
		return ctrl.Result{}, nil
	}
	return ctrl.Result{RequeueAfter: max(next.Sub(now), unfinishedBatch)}, nil
}

// unfinishedDue is when an unfinished call may be deleted: the finished-call TTL after it stopped
// mattering, which is when its plan ended (ended), and not before the reporter's window since its
// creation has passed (a report may still come until then, and must find it).
func unfinishedDue(call *safetyv1alpha1.AgentToolCall, ended time.Time, ttl time.Duration) time.Time {
	start := ended
	if reportable := call.CreationTimestamp.Add(policy.ReportWindow); reportable.After(start) {
		start = reportable
	}
	return start.Add(ttl)
}

// planEnded says when plan, the plan of call's name as it is now (nil: none), ended for call:
// own is false when it is not call's live plan (none, one being deleted, or a newer one of the
// same name), whose end is when this process first saw it so (goneAt); a zero time when it is
// active at now.
func planEnded(plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall, now time.Time) (ended time.Time, own bool) {
	if plan == nil || plan.DeletionTimestamp != nil || !policy.CallOfPlan(plan, call) {
		return time.Time{}, false
	}
	if policy.PlanActive(plan, now) {
		return time.Time{}, true
	}
	return policy.PlanDeadline(plan), true
}

// remove records call as ended unfinished, its TTL counting from start, unless it finished
// meanwhile (the finished-call controller's then), and deletes it (removeCall). It is read
// again from the API server first: a listing is as old as its first page.
func (r *UnfinishedCallReconciler) remove(ctx context.Context, listed *safetyv1alpha1.AgentToolCall, start time.Time) (time.Duration, error) {
	call := &safetyv1alpha1.AgentToolCall{}
	if err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(listed), call); err != nil || call.UID != listed.UID || finished(call) {
		r.forgetRecord(listed.UID)
		return 0, client.IgnoreNotFound(err)
	}
	if !r.wasRecorded(call.UID) {
		if _, err := r.Log.RecordCompletion(ctx, completionOf(call, audit.PhaseUnfinished, start)); err != nil {
			return 0, fmt.Errorf("recording the unfinished AgentToolCall %s/%s: %w", call.Namespace, call.Name, err)
		}
		r.markRecorded(call.UID)
	}
	retry, err := removeCall(ctx, r.Client, r.Counters, call)
	if err == nil && retry == 0 {
		r.forgetRecord(call.UID)
		ctrl.LoggerFrom(ctx).V(1).Info("Deleted unfinished AgentToolCall", "call", call.Name, "ended", start)
	}
	return retry, err
}

func soonest(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}

func (r *UnfinishedCallReconciler) hasGone(key types.NamespacedName) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.goneSince[key]
	return ok
}

// goneAt is when this process first found the plan of key gone (or replaced), now the first time.
func (r *UnfinishedCallReconciler) goneAt(key types.NamespacedName, now time.Time) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.goneSince[key]; ok {
		return t
	}
	if r.goneSince == nil {
		r.goneSince = map[types.NamespacedName]time.Time{}
	}
	r.goneSince[key] = now
	return now
}

func (r *UnfinishedCallReconciler) forgetGone(key types.NamespacedName) {
	r.mu.Lock()
	delete(r.goneSince, key)
	r.mu.Unlock()
}

func (r *UnfinishedCallReconciler) wasRecorded(uid types.UID) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.recorded[uid]
}

func (r *UnfinishedCallReconciler) markRecorded(uid types.UID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.recorded == nil {
		r.recorded = map[types.UID]bool{}
	}
	r.recorded[uid] = true
}

func (r *UnfinishedCallReconciler) forgetRecord(uid types.UID) {
	r.mu.Lock()
	delete(r.recorded, uid)
	r.mu.Unlock()
}

// SetupWithManager reconciles a plan when it is created (so the first listing of plans covers
// every plan at start), changes its spec (its deadline) or goes; the AuditLedger, whose TTL
// change re-times every plan that ended; and, once at start, every plan that unfinished calls
// name (sweepUnfinished), which finds the calls of plans deleted before this process ran.
func (r *UnfinishedCallReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&safetyv1alpha1.AgentPlan{}, builder.WithPredicates(predicate.Funcs{
			CreateFunc:  func(event.CreateEvent) bool { return true },
			DeleteFunc:  func(event.DeleteEvent) bool { return true },
			UpdateFunc:  func(e event.UpdateEvent) bool { return e.ObjectOld.GetGeneration() != e.ObjectNew.GetGeneration() },
			GenericFunc: func(event.GenericEvent) bool { return false },
		})).
		Watches(&safetyv1alpha1.AuditLedger{}, handler.EnqueueRequestsFromMapFunc(r.endedPlans),
			builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		WatchesRawSource(source.Func(r.sweepUnfinished)).
		Named("unfinishedcall").
		Complete(r)
}

// endedPlans are the plans whose unfinished calls wait for the TTL: those ended, and those gone.
func (r *UnfinishedCallReconciler) endedPlans(ctx context.Context, _ client.Object) []reconcile.Request {
	now := r.Clock.Now()
	reqs := planRequests(ctx, r.Client, func(p *safetyv1alpha1.AgentPlan) bool { return !policy.PlanActive(p, now) })
	r.mu.Lock()
	for key := range r.goneSince {
		reqs = append(reqs, reconcile.Request{NamespacedName: key})
	}
	r.mu.Unlock()
	return reqs
}
