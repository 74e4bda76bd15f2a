package controller

import (
	"context"
	"fmt"

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

// ProjectPolicyReconciler rolls the project's plans' costs up into the policy's status.
type ProjectPolicyReconciler struct {
	client.Client
	Clock clock.PassiveClock
}

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=projectpolicies/status,verbs=get;update;patch

// Reconcile writes Ready, the plan count and the project's exact total cost.
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
	total, plans, err := ProjectTotalCost(ctx, r.Client, pp.Namespace)
	if err != nil {
		return ctrl.Result{}, err
	}
	pp.Status.TotalCost, pp.Status.Plans, pp.Status.ObservedGeneration = total.String(), plans, pp.Generation
	return ctrl.Result{}, patchStatus(ctx, r.Client, pp, before)
}

// ProjectTotalCost sums the accumulated cost of every plan in a namespace, exactly.
func ProjectTotalCost(ctx context.Context, c client.Reader, namespace string) (safety.Money, int32, error) {
	var plans safetyv1alpha1.AgentPlanList
	if err := c.List(ctx, &plans, client.InNamespace(namespace)); err != nil {
		return safety.Money{}, 0, fmt.Errorf("listing plans in %s: %w", namespace, err)
	}
	total := safety.Money{}
	for _, p := range plans.Items {
		if p.Status.Usage.AccumulatedCost == "" {
			continue
		}
		cost, err := safety.ParseMoney(p.Status.Usage.AccumulatedCost)
		if err != nil {
			return safety.Money{}, 0, fmt.Errorf("cost of plan %s/%s: %w", namespace, p.Name, err)
		}
		total = total.SaturatingAdd(cost)
	}
	return total, int32(len(plans.Items)), nil
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
