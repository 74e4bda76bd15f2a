package controller

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// AutomationProfileReconciler reports whether each profile resolves and how many plans it locked.
type AutomationProfileReconciler struct {
	client.Client
	Clock clock.PassiveClock
}

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=automationprofiles/status,verbs=get;update;patch

// Reconcile writes Ready and lockedPlans.
func (r *AutomationProfileReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	ap := &safetyv1alpha1.AutomationProfile{}
	if err := r.Get(ctx, req.NamespacedName, ap); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	before := ap.DeepCopy()
	reason, msg, err := r.readiness(ctx, ap)
	if err != nil {
		return ctrl.Result{}, err
	}
	readyCondition(&ap.Status.Conditions, ap.Generation, r.Clock, reason, msg)
	n, err := countLockedPlans(ctx, r.Client, "AutomationProfile", ap.Name)
	if err != nil {
		return ctrl.Result{}, err
	}
	ap.Status.LockedPlans, ap.Status.ObservedGeneration = n, ap.Generation
	return ctrl.Result{}, patchStatus(ctx, r.Client, ap, before)
}

func (r *AutomationProfileReconciler) readiness(ctx context.Context, ap *safetyv1alpha1.AutomationProfile) (reason, msg string, err error) {
	if ap.Spec.Safety != nil {
		if _, errs := policy.CheckedProfileFromSpec(ap.Spec.Safety, field.NewPath("spec", "safety")); len(errs) > 0 {
			return safetyv1alpha1.InvalidReason, errs.ToAggregate().Error(), nil
		}
	}
	if ref := ap.Spec.SafetyProfileRef; ref != nil {
		err := r.Get(ctx, client.ObjectKey{Name: ref.Name}, &safetyv1alpha1.SafetyProfile{})
		if apierrors.IsNotFound(err) {
			return safetyv1alpha1.SafetyProfileRefNotFoundReason, "SafetyProfile " + ref.Name + " named by spec.safetyProfileRef does not exist", nil
		}
		if err != nil {
			return "", "", err
		}
	}
	return safetyv1alpha1.ReadyReason, "The profile resolves", nil
}

// SetupWithManager watches AutomationProfiles, the SafetyProfiles they name and the plans they lock.
func (r *AutomationProfileReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&safetyv1alpha1.AutomationProfile{}).
		Watches(&safetyv1alpha1.AgentPlan{}, handler.EnqueueRequestsFromMapFunc(profilesOfPlan("AutomationProfile"))).
		Watches(&safetyv1alpha1.SafetyProfile{}, handler.EnqueueRequestsFromMapFunc(r.referrers)).
		Named("automationprofile").
		Complete(r)
}

// referrers maps a SafetyProfile to the AutomationProfiles that name it.
func (r *AutomationProfileReconciler) referrers(ctx context.Context, o client.Object) []reconcile.Request {
	var list safetyv1alpha1.AutomationProfileList
	if err := r.List(ctx, &list); err != nil {
		ctrl.LoggerFrom(ctx).Error(err, "Listing AutomationProfiles")
		return nil
	}
	var reqs []reconcile.Request
	for _, ap := range list.Items {
		if ap.Spec.SafetyProfileRef != nil && ap.Spec.SafetyProfileRef.Name == o.GetName() {
			reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKey{Name: ap.Name}})
		}
	}
	return reqs
}
