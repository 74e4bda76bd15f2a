package controller

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// Index keys. SetupIndexes registers every one the manager uses, in one place.
const (
	// CallPlanIndex indexes AgentToolCalls by spec.plan in in-memory clients (controller-runtime's
	// fake, as the offline plugin and unit tests use), which select by index where the API server
	// selects by the CRD's selectable field of the same name; the manager, which caches finished
	// calls only and selects a plan's calls on the API server, registers no such index.
	CallPlanIndex = CallPlanField
	// PlanSourceIndex indexes AgentPlans by the "Kind/name" of every object their snapshot was
	// resolved from, so profiles can count the plans locked to them.
	PlanSourceIndex = "status.snapshot.sources"
	// PlanLockedIndex indexes AgentPlans by whether their snapshot is set ("true"/"false").
	PlanLockedIndex = "status.snapshot.locked"
	// PlanPodIndex indexes AgentPlans by spec.podName (plans naming no pod are not indexed), so
	// the webhook finds the plan bound to a caller's pod by key.
	PlanPodIndex = "spec.podName"
)

// SourceKey is the PlanSourceIndex value for an object.
func SourceKey(kind, name string) string { return kind + "/" + name }

// SetupIndexes registers every field index toolgate's controllers and webhooks use.
func SetupIndexes(ctx context.Context, indexer client.FieldIndexer) error {
	if err := indexer.IndexField(ctx, &safetyv1alpha1.AgentPlan{}, PlanSourceIndex, func(o client.Object) []string {
		snap := o.(*safetyv1alpha1.AgentPlan).Status.Snapshot
		if snap == nil {
			return nil
		}
		keys := make([]string, 0, len(snap.Sources))
		for _, s := range snap.Sources {
			keys = append(keys, SourceKey(s.Kind, s.Name))
		}
		return keys
	}); err != nil {
		return err
	}
	if err := indexer.IndexField(ctx, &safetyv1alpha1.AgentPlan{}, PlanPodIndex, func(o client.Object) []string {
		if pod := o.(*safetyv1alpha1.AgentPlan).Spec.PodName; pod != "" {
			return []string{pod}
		}
		return nil
	}); err != nil {
		return err
	}
	return indexer.IndexField(ctx, &safetyv1alpha1.AgentPlan{}, PlanLockedIndex, func(o client.Object) []string {
		if o.(*safetyv1alpha1.AgentPlan).Status.Snapshot == nil {
			return []string{"false"}
		}
		return []string{"true"}
	})
}

// IndexCallPlan is the CallPlanIndex function.
func IndexCallPlan(o client.Object) []string {
	return []string{o.(*safetyv1alpha1.AgentToolCall).Spec.Plan}
}

// IndexApprovalPlan and IndexPlanServiceAccount index ToolApprovals by plan and AgentPlans by
// ServiceAccount in in-memory clients (controller-runtime's fake, as the offline plugin and unit
// tests use), which select by index where the API server selects by the selectable field of the
// same name (safetyv1alpha1.ToolApprovalPlanField, AgentPlanServiceAccountField).
func IndexApprovalPlan(o client.Object) []string {
	return []string{o.(*safetyv1alpha1.ToolApproval).Spec.Plan}
}

func IndexPlanServiceAccount(o client.Object) []string {
	return []string{o.(*safetyv1alpha1.AgentPlan).Spec.ServiceAccountName}
}
