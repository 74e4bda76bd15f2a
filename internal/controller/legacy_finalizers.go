package controller

import (
	"context"
	"fmt"
	"slices"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// LegacyFinalizerReconciler removes from AgentToolCalls the finalizers toolgate put on calls
// before usage was counted at admission (safety.toolgate.dev/usage): nothing else releases them
// any more, so a call stored by an earlier release could otherwise never be deleted. The call's
// usage is already in its plan's counters, which is all the finalizer waited for. Only calls that
// carry one reach it, and each costs one write, once.
type LegacyFinalizerReconciler struct {
	client.Client
}

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=agenttoolcalls,verbs=get;list;watch;patch

// Reconcile releases a call's toolgate finalizers, keeping everyone else's.
func (r *LegacyFinalizerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	call := &safetyv1alpha1.AgentToolCall{}
	if err := r.Get(ctx, req.NamespacedName, call); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !hasOwnFinalizer(call) {
		return ctrl.Result{}, nil
	}
	base := call.DeepCopy()
	call.Finalizers = slices.DeleteFunc(call.Finalizers, policy.IsOwnCallFinalizer)
	// The optimistic lock keeps a finalizer someone else added meanwhile.
	if err := r.Patch(ctx, call, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
		return ctrl.Result{}, fmt.Errorf("releasing the finalizers of AgentToolCall %s: %w", req.NamespacedName, err)
	}
	return ctrl.Result{}, nil
}

func hasOwnFinalizer(c *safetyv1alpha1.AgentToolCall) bool {
	return slices.ContainsFunc(c.Finalizers, policy.IsOwnCallFinalizer)
}

// SetupWithManager registers the reconciler for the calls that carry a toolgate finalizer.
func (r *LegacyFinalizerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	carries := predicate.NewPredicateFuncs(func(o client.Object) bool { return hasOwnFinalizer(o.(*safetyv1alpha1.AgentToolCall)) })
	return ctrl.NewControllerManagedBy(mgr).
		For(&safetyv1alpha1.AgentToolCall{}, builder.WithPredicates(carries)).
		Named("legacyfinalizer").
		Complete(r)
}
