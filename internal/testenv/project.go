package testenv

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// Project is a namespace set up by LockedProject.
type Project struct {
	Namespace string
	// Agent is a client with the token of the plan's ServiceAccount.
	Agent client.Client
	// Tool is the read tool the plan may use.
	Tool string
}

// LockedProject makes, as admin, a namespace (named prefix plus a suffix), an agent with
// ServiceAccount sa in it, a read AgentTool (costPerCall cost, "" for none) and a SafetyProfile
// with spec, both named after the namespace, and plan under that profile; it returns once the plan
// is locked, or fails when ctx ends first (callers give it their own wait).
func LockedProject(ctx context.Context, admin client.Client, cfg *rest.Config, scheme *runtime.Scheme,
	prefix, sa, plan, cost string, spec safetyv1alpha1.SafetyProfileSpec) (*Project, error) {
	n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix}}
	if err := admin.Create(ctx, n); err != nil {
		return nil, err
	}
	agent, err := Agent(ctx, cfg, scheme, n.Name, sa)
	if err != nil {
		return nil, err
	}
	tool := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: n.Name + "-reader"},
		Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}}
	if cost != "" {
		q, err := resource.ParseQuantity(cost)
		if err != nil {
			return nil, fmt.Errorf("costPerCall %q: %w", cost, err)
		}
		tool.Spec.CostPerCall = &q
	}
	profile := &safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: n.Name}, Spec: spec}
	p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: n.Name, Name: plan},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: sa,
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: n.Name}}}
	for _, obj := range []client.Object{tool, profile, p} {
		if err := admin.Create(ctx, obj); err != nil {
			return nil, err
		}
	}
	for {
		if err := admin.Get(ctx, client.ObjectKeyFromObject(p), p); err == nil && p.Status.Snapshot != nil {
			return &Project{Namespace: n.Name, Agent: agent, Tool: tool.Name}, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("plan %s/%s not locked: %w", n.Name, plan, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
