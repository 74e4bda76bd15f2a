package policy

import safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"

// StepAttempts counts the admitted calls of a plan's step, as the webhook counts them against
// maxRetriesPerStep: the attempts the plan settled when their calls were deleted, plus the calls of
// the step that exist and are not among the settled ones. The plan's own total for the step (as the
// plan controller last wrote it) is a floor, since it only grows. calls are the plan's calls; calls
// of other plans or steps are not counted. unseen are admitted calls that calls does not show yet
// (the webhook's admissions its cache has not caught up with).
func StepAttempts(plan *safetyv1alpha1.AgentPlan, calls []safetyv1alpha1.AgentToolCall, step string, unseen int32) int32 {
	usage := plan.Status.Usage
	var n int32
	settled := map[string]bool{}
	if s := usage.Settled; s != nil {
		for _, st := range s.Steps {
			if st.Step == step {
				n = st.Attempts
			}
		}
		for _, uid := range s.UIDs {
			settled[uid] = true
		}
	}
	for i := range calls {
		c := &calls[i]
		if c.Namespace == plan.Namespace && c.Spec.Plan == plan.Name && c.Spec.Step == step && !settled[string(c.UID)] {
			n++
		}
	}
	n += unseen
	for _, st := range usage.Steps {
		if st.Step == step && st.Attempts > n {
			n = st.Attempts
		}
	}
	return n
}

// PlanSteps counts the distinct steps a plan has used: those its usage (settled or live) names and
// those of its calls.
func PlanSteps(plan *safetyv1alpha1.AgentPlan, calls []safetyv1alpha1.AgentToolCall) int {
	steps := map[string]bool{}
	for _, st := range plan.Status.Usage.Steps {
		steps[st.Step] = true
	}
	if s := plan.Status.Usage.Settled; s != nil {
		for _, st := range s.Steps {
			steps[st.Step] = true
		}
	}
	for i := range calls {
		if calls[i].Spec.Plan == plan.Name {
			steps[calls[i].Spec.Step] = true
		}
	}
	return len(steps)
}
