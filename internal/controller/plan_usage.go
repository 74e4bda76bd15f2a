package controller

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=projectpolicies,verbs=create
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=projectpolicies/status,verbs=get;update;patch

// finalizerRetry is how soon a write that lost a race (a conflict) is tried again.
const finalizerRetry = 200 * time.Millisecond

// deleting lets a plan's deletion through the plan controller's predicates.
var deleting = predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetDeletionTimestamp() != nil })

// holdSpend puts the PlanFinalizer on a plan, once, so its deletion waits for its settlement.
func (r *AgentPlanReconciler) holdSpend(ctx context.Context, plan *safetyv1alpha1.AgentPlan) error {
	if controllerutil.ContainsFinalizer(plan, safetyv1alpha1.PlanFinalizer) {
		return nil
	}
	before := plan.DeepCopy()
	controllerutil.AddFinalizer(plan, safetyv1alpha1.PlanFinalizer)
	if err := r.Patch(ctx, plan, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("adding the finalizer of plan %s/%s: %w", plan.Namespace, plan.Name, err)
	}
	return nil
}

// sealTimeout bounds the wait for a deleted plan's counters to be stored, so a plan whose writes
// fail does not hold the plan controller's worker.
const sealTimeout = 10 * time.Second

// settle moves a deleted plan's spend into its project's total, revokes its approvals
// (revokeApprovals), then releases the plan. Exactly
// once: the plan's UID goes into the ProjectPolicy's status.settled.uids in the same write that
// adds its cost, so a crash (or a conflict) before the finalizer is released finds it settled and
// only releases it. The plan is read live once the webhook of this process (the leader, which
// decides every plan's counters) has stored the plan's: its counters are final once it is being
// deleted (the webhook admits nothing for a plan being deleted), and the cache may not show the
// last of them yet.
func (r *AgentPlanReconciler) settle(ctx context.Context, cached *safetyv1alpha1.AgentPlan) error {
	if !controllerutil.ContainsFinalizer(cached, safetyv1alpha1.PlanFinalizer) {
		return nil
	}
	if r.Counters != nil {
		sealCtx, cancel := context.WithTimeout(ctx, sealTimeout)
		err := r.Counters.Seal(sealCtx, cached)
		cancel()
		if err != nil {
			return err // requeued: the plan keeps its finalizer until its counters are stored
		}
	}
	plan := &safetyv1alpha1.AgentPlan{}
	if err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(cached), plan); err != nil {
		return client.IgnoreNotFound(err)
	}
	if plan.UID != cached.UID || !controllerutil.ContainsFinalizer(plan, safetyv1alpha1.PlanFinalizer) {
		return nil
	}
	if err := settleIntoProject(ctx, r.Client, r.APIReader, plan); errors.Is(err, errNamespaceTerminating) {
		// The namespace goes, and its project's total with it: there is nowhere to settle into, and
		// holding the plan would block the namespace's deletion. Its counters are sealed and stored
		// (nothing more is counted), so releasing it unsettled counts nothing twice.
		ctrl.LoggerFrom(ctx).Info("Releasing the plan unsettled: its namespace is being deleted")
	} else if err != nil {
		return err
	}
	if err := revokeApprovals(ctx, r.Client, r.APIReader, plan); err != nil {
		return err
	}
	before := plan.DeepCopy()
	controllerutil.RemoveFinalizer(plan, safetyv1alpha1.PlanFinalizer)
	if err := r.Patch(ctx, plan, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("releasing settled plan %s/%s: %w", plan.Namespace, plan.Name, err)
	}
	return nil
}

// errNamespaceTerminating says a plan's spend cannot be settled: its namespace, which would hold the
// ProjectPolicy, is being deleted.
var errNamespaceTerminating = errors.New("the namespace is being deleted")

// settleIntoProject adds a plan's spend to its namespace's ProjectPolicy status.settled, unless
// its UID shows it there already. A namespace without a ProjectPolicy gets an empty one to hold
// it: an empty policy changes no decision, and the spend must outlive the plan somewhere.
func settleIntoProject(ctx context.Context, c client.Client, live client.Reader, plan *safetyv1alpha1.AgentPlan) error {
	key := client.ObjectKey{Namespace: plan.Namespace, Name: ProjectPolicyName}
	pp := &safetyv1alpha1.ProjectPolicy{}
	err := live.Get(ctx, key, pp)
	if apierrors.IsNotFound(err) {
		pp = &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
		err = c.Create(ctx, pp)
		if apierrors.IsAlreadyExists(err) {
			err = live.Get(ctx, key, pp)
		}
		if apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
			return errNamespaceTerminating
		}
	}
	if err != nil {
		return fmt.Errorf("reading the ProjectPolicy of %s: %w", plan.Namespace, err)
	}
	settled := pp.Status.Settled.DeepCopy()
	if settled == nil {
		settled = &safetyv1alpha1.SettledPlans{}
	}
	if slices.Contains(settled.UIDs, string(plan.UID)) {
		return nil
	}
	if len(settled.UIDs) >= safetyv1alpha1.MaxSettlingPlans {
		return fmt.Errorf("ProjectPolicy %s holds %d plans still being released; waiting for them to go", key, len(settled.UIDs))
	}
	usage, err := policy.UsageOf(plan)
	if err != nil {
		return err
	}
	cost := safety.Money{}
	if settled.Cost != "" {
		if cost, err = safety.ParseMoney(settled.Cost); err != nil {
			return fmt.Errorf("status.settled.cost of ProjectPolicy %s: %w", key, err)
		}
	}
	settled.Cost = cost.SaturatingAdd(usage.Accumulated).String()
	settled.Plans++
	settled.Calls += usage.Calls
	settled.UIDs = append(settled.UIDs, string(plan.UID))
	pp.Status.Settled = settled
	// The resourceVersion of the live read makes this exactly-once against a concurrent settlement.
	if err := c.Status().Update(ctx, pp); err != nil {
		return fmt.Errorf("settling plan %s/%s into ProjectPolicy %s: %w", plan.Namespace, plan.Name, key, err)
	}
	return nil
}
