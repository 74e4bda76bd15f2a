package controller

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// +kubebuilder:rbac:groups="",resources=pods,verbs=get

// podRetry is how soon a plan waiting for its Pod is tried again. Pods are not watched (a
// cluster-wide Pod informer would cost the operator far more than this poll).
const podRetry = 2 * time.Second

// binding decides what a plan is bound to before it locks. A plan naming a Pod binds to that
// Pod's UID, read live, and waits (PodNotFound) until the Pod exists; a Pod running as another
// ServiceAccount is refused (PodMismatch). Both are retried every podRetry. A first lock is refused (PlanConflict)
// while a locked active plan of the same ServiceAccount may not stand beside it
// (policy.BindingConflict: a pod-less plan beside any other, two plans of one pod): the admission
// webhook refuses such a plan, and this is the backstop for creations that raced past it on
// different replicas. The leader's reconciles of plans are serial and read the
// API server, so of such racing plans exactly the first to be reconciled locks. It returns the
// Pod's UID, or a *lockError.
func (r *AgentPlanReconciler) binding(ctx context.Context, plan *safetyv1alpha1.AgentPlan, first bool) (string, error) {
	if first {
		plans, err := PlansOfServiceAccount(ctx, r.APIReader, plan.Namespace, plan.Spec.ServiceAccountName)
		if err != nil {
			return "", fmt.Errorf("listing the plans of ServiceAccount %s/%s: %w", plan.Namespace, plan.Spec.ServiceAccountName, err)
		}
		if other := policy.BindingConflict(plan, plans, r.Clock.Now(), true); other != nil {
			return "", lockErrorf(safetyv1alpha1.AgentPlanConflictReason, "%s", policy.BindingConflictMessage(plan, other))
		}
	}
	if plan.Spec.PodName == "" {
		return "", nil
	}
	pod := &corev1.Pod{}
	if err := r.APIReader.Get(ctx, client.ObjectKey{Namespace: plan.Namespace, Name: plan.Spec.PodName}, pod); err != nil {
		if apierrors.IsNotFound(err) {
			return "", lockErrorf(safetyv1alpha1.AgentPlanPodNotFoundReason, "waiting for Pod %s named by spec.podName", plan.Spec.PodName)
		}
		return "", fmt.Errorf("reading Pod %s/%s: %w", plan.Namespace, plan.Spec.PodName, err)
	}
	if sa := pod.Spec.ServiceAccountName; sa != plan.Spec.ServiceAccountName {
		return "", lockErrorf(safetyv1alpha1.AgentPlanPodMismatchReason,
			"Pod %s runs as ServiceAccount %q, not the plan's %q", pod.Name, sa, plan.Spec.ServiceAccountName)
	}
	return string(pod.UID), nil
}

// ceiling refuses a lock whose plan, action or project names a profile outside the project's
// allowedProfiles: the list may have been tightened after the plan was created.
func ceiling(project *safetyv1alpha1.ProjectPolicy, plan *safetyv1alpha1.AgentPlan) error {
	if project == nil || len(project.Spec.AllowedProfiles) == 0 {
		return nil
	}
	allowed := project.Spec.AllowedProfiles
	refs := []struct {
		ref   *safetyv1alpha1.ProfileRef
		where string
	}{{plan.Spec.ProfileRef, "spec.profileRef"}, {project.Spec.ProfileRef, "the ProjectPolicy's profileRef"}}
	for _, a := range project.Spec.Actions {
		if a.Name == plan.Spec.Action {
			refs = append(refs, struct {
				ref   *safetyv1alpha1.ProfileRef
				where string
			}{a.ProfileRef, fmt.Sprintf("action %q", a.Name)})
		}
	}
	for _, r := range refs {
		if !policy.ProfileAllowed(allowed, r.ref) {
			return lockErrorf(safetyv1alpha1.AgentPlanProfileNotAllowedReason, "%s: %s", r.where, policy.ProfileNotAllowedMessage(r.ref, allowed))
		}
	}
	return nil
}

// setActive sets the Active condition as of now: True until the plan's deadline, then False.
func (r *AgentPlanReconciler) setActive(plan *safetyv1alpha1.AgentPlan, now time.Time) {
	deadline := policy.PlanDeadline(plan)
	c := metav1.Condition{Type: safetyv1alpha1.AgentPlanActiveCondition, ObservedGeneration: plan.Generation,
		Status: metav1.ConditionTrue, Reason: safetyv1alpha1.AgentPlanActiveReason,
		Message: "Active until " + deadline.UTC().Format(time.RFC3339), LastTransitionTime: metav1.NewTime(now)}
	if !policy.PlanActive(plan, now) {
		c.Status, c.Reason = metav1.ConditionFalse, safetyv1alpha1.AgentPlanDeadlineExceededReason
		c.Message = "activeDeadlineSeconds passed at " + deadline.UTC().Format(time.RFC3339) + "; calls are denied PlanExpired"
	}
	meta.SetStatusCondition(&plan.Status.Conditions, c)
}

// requeue adds to res the time-based work a plan still has as of now: its deadline, and its Pod if
// it is waiting for one (missing, or running as another ServiceAccount).
func (r *AgentPlanReconciler) requeue(plan *safetyv1alpha1.AgentPlan, now time.Time, res ctrl.Result) ctrl.Result {
	after := func(d time.Duration) {
		if d > 0 && (res.RequeueAfter == 0 || d < res.RequeueAfter) {
			res.RequeueAfter = d
		}
	}
	if policy.PlanActive(plan, now) {
		after(policy.PlanDeadline(plan).Sub(now) + time.Second/10)
		c := meta.FindStatusCondition(plan.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition)
		if plan.Status.Snapshot == nil && c != nil &&
			(c.Reason == safetyv1alpha1.AgentPlanPodNotFoundReason || c.Reason == safetyv1alpha1.AgentPlanPodMismatchReason) {
			after(podRetry)
		}
	}
	return res
}
