package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// SafetyProfileReconciler reports each profile's validity and the plans locked to it, and keeps
// the built-in profiles as toolgate defines them.
type SafetyProfileReconciler struct {
	client.Client
	Clock clock.PassiveClock
}

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=safetyprofiles,verbs=get;list;watch;create;update;patch
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=safetyprofiles/status,verbs=get;update;patch

// Reconcile restores an edited built-in, then writes Ready and lockedPlans.
func (r *SafetyProfileReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	sp := &safetyv1alpha1.SafetyProfile{}
	if err := r.Get(ctx, req.NamespacedName, sp); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if want, ok := BuiltinSpec(sp.Name); ok && !equality.Semantic.DeepEqual(sp.Spec, want) {
		ctrl.LoggerFrom(ctx).Info("Restoring built-in SafetyProfile")
		sp.Spec = want
		if err := r.Update(ctx, sp); err != nil {
			return ctrl.Result{}, fmt.Errorf("restoring built-in SafetyProfile %s: %w", sp.Name, err)
		}
	}
	before := sp.DeepCopy()
	reason, msg := safetyv1alpha1.ReadyReason, "The profile compiles"
	if _, errs := policy.CheckedProfileFromSpec(&sp.Spec, field.NewPath("spec")); len(errs) > 0 {
		reason, msg = safetyv1alpha1.InvalidReason, errs.ToAggregate().Error()
	}
	readyCondition(&sp.Status.Conditions, sp.Generation, r.Clock, reason, msg)
	n, err := countLockedPlans(ctx, r.Client, "SafetyProfile", sp.Name)
	if err != nil {
		return ctrl.Result{}, err
	}
	sp.Status.LockedPlans, sp.Status.ObservedGeneration = n, sp.Generation
	return ctrl.Result{}, patchStatus(ctx, r.Client, sp, before)
}

// BuiltinSpec returns the API form of a built-in profile, fully defaulted.
func BuiltinSpec(name string) (safetyv1alpha1.SafetyProfileSpec, bool) {
	p, ok := safety.Builtin(name)
	if !ok {
		return safetyv1alpha1.SafetyProfileSpec{}, false
	}
	spec := policy.SpecFromProfile(p)
	spec.Description = builtinDescriptions[name]
	return spec, true
}

var builtinDescriptions = map[string]string{
	safety.BuiltinUnrestricted: "Nothing restricts; for trusted automation in throwaway environments only.",
	safety.BuiltinReadOnly:     "Tools that write are denied; reading tools run without a sandbox.",
	safety.BuiltinSandboxed:    "Writes only inside a sandbox, only with checkpointable tools, no unsafe tools.",
}

// EnsureBuiltins creates or restores the built-in SafetyProfiles; the manager runs it at start-up.
func EnsureBuiltins(ctx context.Context, c client.Client) error {
	for _, name := range safety.BuiltinNames() {
		want, _ := BuiltinSpec(name)
		sp := &safetyv1alpha1.SafetyProfile{}
		sp.Name = name
		if _, err := ctrl.CreateOrUpdate(ctx, c, sp, func() error { sp.Spec = want; return nil }); err != nil {
			return fmt.Errorf("ensuring built-in SafetyProfile %s: %w", name, err)
		}
	}
	return nil
}

// SetupWithManager watches profiles and the plans that lock them.
func (r *SafetyProfileReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&safetyv1alpha1.SafetyProfile{}).
		Watches(&safetyv1alpha1.AgentPlan{}, handler.EnqueueRequestsFromMapFunc(profilesOfPlan("SafetyProfile"))).
		Named("safetyprofile").
		Complete(r)
}
