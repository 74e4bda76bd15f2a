package v1alpha1

import (
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// finalizerRemoved refuses an update that takes the plan's project-total finalizer off, unless
// the operator's own identity makes it: the finalizer holds a deleted plan until its spend is
// settled into the ProjectPolicy, and anyone else removing it (an agent with update on plans)
// would make the project forget that spend, and maxTotalCost with it. operator "" (unknown)
// leaves it to RBAC.
func finalizerRemoved(req admission.Request, operator string, old, plan *safetyv1alpha1.AgentPlan) *denial {
	if operator == "" || req.UserInfo.Username == operator ||
		!controllerutil.ContainsFinalizer(old, safetyv1alpha1.PlanFinalizer) || controllerutil.ContainsFinalizer(plan, safetyv1alpha1.PlanFinalizer) {
		return nil
	}
	return &denial{ReasonInvalidUpdate, fieldFinalizers, fmt.Sprintf(
		"only the toolgate operator (%s) may remove %s, once the plan's spend is settled into its project", operator, safetyv1alpha1.PlanFinalizer)}
}
