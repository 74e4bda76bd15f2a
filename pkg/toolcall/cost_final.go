package toolcall

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// CostFinal is the condition by which a plan's cost reporter says a call's status.cost is final
// (safetyv1alpha1.CallCostFinalCondition): it ends what the call holds in its plan's budget, and a
// webhook replica taking the plan over tells by it that no report of the call is to come. by
// names the reporter for people reading the call; the webhook admits the condition only from the
// plan's spec.costReporter, whatever it says.
func CostFinal(by string, at metav1.Time) metav1.Condition {
	return metav1.Condition{Type: safetyv1alpha1.CallCostFinalCondition, Status: metav1.ConditionTrue,
		Reason: safetyv1alpha1.CallCostFinalReason, Message: "reported by " + by, LastTransitionTime: at}
}
