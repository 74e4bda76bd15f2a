package policy

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// Claims a pod-bound ServiceAccount token carries in the API server's userInfo.extra: a projected
// token (or a TokenRequest with a boundObjectRef to a Pod) names its Pod, and the API server
// checks that Pod exists with that UID whenever the token is used.
const (
	PodNameExtra = "authentication.kubernetes.io/pod-name"
	PodUIDExtra  = "authentication.kubernetes.io/pod-uid"
)

// PlanDeadline is when a plan stops being active: its creation (stamped by the API server) plus
// spec.activeDeadlineSeconds. A re-lock never extends it.
func PlanDeadline(plan *safetyv1alpha1.AgentPlan) time.Time {
	return plan.CreationTimestamp.Add(time.Duration(ActiveDeadlineSeconds(plan)) * time.Second)
}

// CallOfPlan says call belongs to plan, not to an earlier plan of the same name: calls name their
// plan by name, and a plan's calls are created after it.
func CallOfPlan(plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall) bool {
	return !call.CreationTimestamp.Before(&plan.CreationTimestamp)
}

// ActiveDeadlineSeconds is a plan's spec.activeDeadlineSeconds, defaulted.
func ActiveDeadlineSeconds(plan *safetyv1alpha1.AgentPlan) int64 {
	if s := plan.Spec.ActiveDeadlineSeconds; s != nil {
		return *s
	}
	return safetyv1alpha1.DefaultActiveDeadlineSeconds
}

// PlanActive says whether a plan accepts calls at now: within its deadline and not being deleted.
func PlanActive(plan *safetyv1alpha1.AgentPlan, now time.Time) bool {
	return plan.DeletionTimestamp == nil && now.Before(PlanDeadline(plan))
}

// BindingConflict returns another active plan of plan's ServiceAccount that plan may
// not stand beside: any, when either of the two names no pod (a plan bound to no pod is the only
// active plan its ServiceAccount may have, so that a token bound to no pod, or to a pod without a
// plan, never finds a plan to choose), else one bound to the same pod. Only locked ones count when
// lockedOnly is set. plan itself (by UID, or by name before it has one) is skipped. nil when there
// is none.
func BindingConflict(plan *safetyv1alpha1.AgentPlan, plans []safetyv1alpha1.AgentPlan, now time.Time, lockedOnly bool) *safetyv1alpha1.AgentPlan {
	for i := range plans {
		o := &plans[i]
		same := o.Name == plan.Name || (plan.UID != "" && o.UID == plan.UID)
		if same || o.Spec.ServiceAccountName != plan.Spec.ServiceAccountName || !PlanActive(o, now) {
			continue
		}
		if o.Spec.PodName != plan.Spec.PodName && o.Spec.PodName != "" && plan.Spec.PodName != "" {
			continue // two pods' own plans
		}
		if lockedOnly && o.Status.Snapshot == nil {
			continue
		}
		return o
	}
	return nil
}

// BindingConflictMessage explains why plan may not stand beside other, the plan BindingConflict
// named, for the admission webhook and the lock alike.
func BindingConflictMessage(plan, other *safetyv1alpha1.AgentPlan) string {
	sa := plan.Spec.ServiceAccountName
	switch {
	case other.Spec.PodName == "":
		return fmt.Sprintf("plan %s is already the active plan of ServiceAccount %s, bound to no pod, and a plan bound to no pod "+
			"must be its ServiceAccount's only active plan (an agent never chooses between plans): wait until %s ends, or delete it", other.Name, sa, other.Name)
	case plan.Spec.PodName == "":
		return fmt.Sprintf("plan %s is an active plan of ServiceAccount %s, bound to pod %s, and a plan bound to no pod must be "+
			"its ServiceAccount's only active plan (an agent never chooses between plans): name the agent's pod in spec.podName, "+
			"or wait until the ServiceAccount's pod-bound plans end", other.Name, sa, other.Spec.PodName)
	default:
		return fmt.Sprintf("plan %s is already the active plan of ServiceAccount %s of pod %s, and an agent never chooses between plans: "+
			"name another pod in spec.podName, or wait until %s ends (or delete it)", other.Name, sa, other.Spec.PodName, other.Name)
	}
}

// profileKind is a reference's kind with the API default applied.
func profileKind(r safetyv1alpha1.ProfileRef) safetyv1alpha1.ProfileKind {
	if r.Kind == "" {
		return safetyv1alpha1.ProfileKindAutomationProfile
	}
	return r.Kind
}

// ProfileAllowed says whether ref is within a project's allowedProfiles. A nil ref names nothing
// and an empty list caps nothing.
func ProfileAllowed(allowed []safetyv1alpha1.ProfileRef, ref *safetyv1alpha1.ProfileRef) bool {
	if ref == nil || len(allowed) == 0 {
		return true
	}
	return slices.ContainsFunc(allowed, func(a safetyv1alpha1.ProfileRef) bool {
		return a.Name == ref.Name && profileKind(a) == profileKind(*ref)
	})
}

// ProfileNotAllowedMessage explains a refused reference, for admission and lock alike.
func ProfileNotAllowedMessage(ref *safetyv1alpha1.ProfileRef, allowed []safetyv1alpha1.ProfileRef) string {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(profileKind(a)) + "/" + a.Name
	}
	return fmt.Sprintf("%s/%s is not among the project's allowedProfiles (%s)", profileKind(*ref), ref.Name, strings.Join(names, ", "))
}

// ValidateAllowedProfiles returns a field error for the project's own profileRef and every action
// profile outside its allowedProfiles. The detail starts with "[ProfileNotAllowed]".
func ValidateAllowedProfiles(spec *safetyv1alpha1.ProjectPolicySpec, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	check := func(ref *safetyv1alpha1.ProfileRef, p *field.Path) {
		if !ProfileAllowed(spec.AllowedProfiles, ref) {
			errs = append(errs, field.Forbidden(p, "["+safetyv1alpha1.AgentPlanProfileNotAllowedReason+"] "+
				ProfileNotAllowedMessage(ref, spec.AllowedProfiles)))
		}
	}
	check(spec.ProfileRef, path.Child("profileRef"))
	for i := range spec.Actions {
		check(spec.Actions[i].ProfileRef, path.Child("actions").Index(i).Child("profileRef"))
	}
	return errs
}

// PinnedTool is a plan's pin of the named tool, nil when the plan has not used it yet.
func PinnedTool(plan *safetyv1alpha1.AgentPlan, name string) *safetyv1alpha1.PinnedTool {
	for i := range plan.Status.Tools {
		if plan.Status.Tools[i].Name == name {
			return &plan.Status.Tools[i]
		}
	}
	return nil
}

// ToolAsPinned is the registered tool as the plan sees it: with the capabilities the plan pinned,
// when it has used the tool before. The engine's input is built from the result's spec.
func ToolAsPinned(plan *safetyv1alpha1.AgentPlan, tool *safetyv1alpha1.AgentTool) *safetyv1alpha1.AgentTool {
	pin := PinnedTool(plan, tool.Name)
	if pin == nil {
		return tool
	}
	t := tool.DeepCopy()
	t.Spec.Writes, t.Spec.Unsafe, t.Spec.Checkpointable = pin.Writes, pin.Unsafe, pin.Checkpointable
	t.Spec.ActionClass, t.Spec.SkillCategory = pin.ActionClass, pin.SkillCategory
	t.Spec.CostPerCall, t.Spec.MaxCostPerCall = nil, nil
	if pin.CostPerCall != nil {
		t.Spec.CostPerCall = new(pin.CostPerCall.DeepCopy())
	}
	if pin.MaxCostPerCall != nil {
		t.Spec.MaxCostPerCall = new(pin.MaxCostPerCall.DeepCopy())
	}
	return t
}

// BindsPod says plan holds pod's calls of ServiceAccount serviceAccount: it names that pod, and it
// has not been deleted. It holds the pod after it ends (its deadline) too, until it is deleted: a
// pod whose plan ended must not hop to another active plan of its ServiceAccount.
func BindsPod(plan *safetyv1alpha1.AgentPlan, serviceAccount, pod string) bool {
	return pod != "" && plan.Spec.PodName == pod && plan.Spec.ServiceAccountName == serviceAccount && plan.DeletionTimestamp == nil
}

// CallerPlan is the plan a caller's calls belong to, by the binding rule: the active plan bound to
// the caller's pod, else the one active pod-less plan of its ServiceAccount. plans are the
// namespace's plans. It returns "" and why when no plan, or more than one, fits: an agent never
// chooses between plans.
func CallerPlan(plans []safetyv1alpha1.AgentPlan, serviceAccount, pod string, now time.Time) (string, string) {
	var bound, podless, ended []string
	for i := range plans {
		p := &plans[i]
		switch {
		case BindsPod(p, serviceAccount, pod) && PlanActive(p, now):
			bound = append(bound, p.Name)
		case BindsPod(p, serviceAccount, pod):
			ended = append(ended, p.Name)
		case p.Spec.ServiceAccountName == serviceAccount && p.Spec.PodName == "" && PlanActive(p, now):
			podless = append(podless, p.Name)
		}
	}
	if len(bound) == 0 && len(ended) > 0 {
		return "", fmt.Sprintf("the plan of pod %s (%s) has ended; the pod takes no other plan until it is deleted", pod, strings.Join(ended, ", "))
	}
	for _, names := range [][]string{bound, podless} {
		switch len(names) {
		case 0:
			continue
		case 1:
			return names[0], ""
		default:
			return "", fmt.Sprintf("%d active plans (%s) fit ServiceAccount %s; an agent never chooses between plans",
				len(names), strings.Join(names, ", "), serviceAccount)
		}
	}
	return "", fmt.Sprintf("no active AgentPlan is bound to ServiceAccount %s%s", serviceAccount, map[bool]string{true: " or pod " + pod}[pod != ""])
}
