package v1alpha1

import (
	"context"
	"fmt"
	"strings"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
)

// tokenBinding refuses a token of the plan's ServiceAccount that the plan does not take, so the
// caller may not choose its plan. A plan that names a pod takes only a token bound to that pod,
// with the pod UID the plan recorded when it locked (a pod recreated under the same name is
// another pod). A plan that names no pod takes a pod-bound token only while no plan holds that pod
// (policy.BindsPod, ended ones too, until deleted): the pod's own plan is the only one it may use.
func (h *AgentToolCallHandler) tokenBinding(ctx context.Context, req admission.Request, plan *safetyv1alpha1.AgentPlan) (*denial, error) {
	pod, _ := tokenPod(req)
	if plan.Spec.PodName != "" {
		return podMismatch(req, plan), nil
	}
	if pod == "" {
		return nil, nil
	}
	o, err := h.podsPlan(ctx, plan.Namespace, plan.Spec.ServiceAccountName, pod)
	if o == nil || err != nil {
		return nil, err
	}
	return &denial{ReasonAgentIdentityMismatch, fieldPlan, fmt.Sprintf(
		"pod %s has its own plan %s; its calls must name that plan, not %s", pod, o.Name, plan.Name)}, nil
}

// podsPlan is the plan that holds pod's calls of serviceAccount in namespace (policy.BindsPod),
// found by key (an index on spec.podName), or nil when there is none.
func (h *AgentToolCallHandler) podsPlan(ctx context.Context, namespace, serviceAccount, pod string) (*safetyv1alpha1.AgentPlan, error) {
	var bound safetyv1alpha1.AgentPlanList
	if err := h.Reader.List(ctx, &bound, client.InNamespace(namespace), client.MatchingFields{controller.PlanPodIndex: pod}); err != nil {
		return nil, fmt.Errorf("finding the plans of pod %s: %w", pod, err)
	}
	for i := range bound.Items {
		if o := &bound.Items[i]; policy.BindsPod(o, serviceAccount, pod) {
			return o, nil
		}
	}
	return nil, nil
}

// floodPod is the pod a denial's flood window is kept for (audit.DeniedCall.Pod): the pod the
// request's token is bound to when a plan of the requester holds that pod, so agents sharing a
// ServiceAccount, each in its pod and plan, are limited one by one; else none, the
// ServiceAccount's one window. Pods are not the platform's to count: an agent that may create pods
// of its ServiceAccount and tokens bound to them (the common edit role grants both) would
// otherwise mint a window, with its own records and byte budget on the ledger's volume, per pod
// it creates. Plans are written by others (PlanAuthoredByAgent). A failed read shares the window.
func (h *AgentToolCallHandler) floodPod(ctx context.Context, req admission.Request) string {
	pod := tokenPodName(req)
	if pod == "" {
		return ""
	}
	sa, ok := strings.CutPrefix(req.UserInfo.Username, serviceAccountUser(req.Namespace, ""))
	if !ok {
		return ""
	}
	if o, err := h.podsPlan(ctx, req.Namespace, sa, pod); o == nil || err != nil {
		return ""
	}
	return pod
}

// planOpen refuses a call of a plan being deleted or past its deadline.
func planOpen(plan *safetyv1alpha1.AgentPlan, now time.Time) *denial {
	if plan.DeletionTimestamp != nil {
		return &denial{ReasonPlanNotFound, fieldPlan, fmt.Sprintf("AgentPlan %s is being deleted", plan.Name)}
	}
	if !policy.PlanActive(plan, now) {
		return &denial{ReasonPlanExpired, fieldPlan, fmt.Sprintf(
			"plan %s ended at %s (activeDeadlineSeconds); start a new plan", plan.Name, policy.PlanDeadline(plan).UTC().Format(time.RFC3339))}
	}
	return nil
}

// podMismatch refuses a request whose token is not bound to the pod plan is bound to (its name,
// and its UID once the plan is locked), or nil; a plan bound to no pod refuses none.
func podMismatch(req admission.Request, plan *safetyv1alpha1.AgentPlan) *denial {
	want := plan.Spec.PodName
	if want == "" {
		return nil
	}
	pod, uid := tokenPod(req)
	if pod != want {
		return &denial{ReasonAgentIdentityMismatch, fieldPlan, fmt.Sprintf(
			"plan %s accepts calls only from a token bound to pod %s, not %s", plan.Name, want, tokenOf(pod))}
	}
	if snap := plan.Status.Snapshot; snap != nil && snap.PodUID != uid {
		return &denial{ReasonAgentIdentityMismatch, fieldPlan, fmt.Sprintf(
			"plan %s is bound to pod %s with UID %s; this token's pod has UID %s (the pod was recreated)", plan.Name, want, snap.PodUID, uid)}
	}
	return nil
}

// tokenPod is the pod (name and UID) the request's token is bound to; empty when none.
func tokenPod(req admission.Request) (string, string) {
	first := func(k string) string {
		if v := req.UserInfo.Extra[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	return first(policy.PodNameExtra), first(policy.PodUIDExtra)
}

// tokenPodName is the name of the pod the request's token is bound to; empty when none.
func tokenPodName(req admission.Request) string {
	name, _ := tokenPod(req)
	return name
}

func tokenOf(pod string) string {
	if pod == "" {
		return "a token bound to no pod"
	}
	return "pod " + pod
}
