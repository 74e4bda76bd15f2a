package policy

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// ReportWindow is how long after a call's creation its cost reporter may still report it: it
// outlasts a gateway's call, its upstream timeout (10 minutes by default), and its report's
// retries. A call's hold lasts that long (the webhook's holdTTL), and a finished call is not
// deleted before it ends (the finished-call TTL), or the reporter's report would find it gone.
const ReportWindow = 15 * time.Minute

// HoldFor is what a call of tool (as the plan pins it, ToolAsPinned) holds beyond its costPerCall
// from its admission until the plan's cost reporter reports its final cost: the tool's
// maxCostPerCall less its costPerCall. A reported cost can be up to maxCostPerCall, so calls in
// flight together, admitted against the same spent figure before any of them is reported, must
// each count as costing that much, or a budget each of them fits alone is spent several times over
// (by calls through several gateway replicas, or by a reporter other than the gateway). Nothing
// is held for a plan whose locked profile sets no budget (maxCostPerPlan or maxTotalCost), a plan
// that names no reporter (its calls cost exactly their costPerCall), or a tool that declares no
// maxCostPerCall above its costPerCall (its cost is not bounded, so holding cannot bound it).
func HoldFor(plan *safetyv1alpha1.AgentPlan, tool *safetyv1alpha1.AgentTool) (safety.Money, error) {
	snap := plan.Status.Snapshot
	if snap == nil || (snap.Safety.MaxCostPerPlan == nil && snap.Safety.MaxTotalCost == nil) ||
		CostReporterUser(plan) == "" || tool.Spec.MaxCostPerCall == nil {
		return safety.Money{}, nil
	}
	most, err := MoneyFromQuantity(*tool.Spec.MaxCostPerCall)
	if err != nil {
		return safety.Money{}, fmt.Errorf("spec.maxCostPerCall of AgentTool %s: %w", tool.Name, err)
	}
	reserve, err := CostPerCall(tool)
	if err != nil {
		return safety.Money{}, err
	}
	return safety.MoneyFromNanos(max(0, most.Nanos()-reserve.Nanos())), nil
}

// CostFinal says call carries a cost its plan's reporter said is final
// (CallCostFinalCondition). Unlike a final phase, which the agent may write too, only the reporter
// writes it (the webhook refuses anyone else): by it a stored call tells that no report of it is to
// come, and that its hold ended.
func CostFinal(call *safetyv1alpha1.AgentToolCall) bool {
	return call.Status.Cost != nil && meta.IsStatusConditionTrue(call.Status.Conditions, safetyv1alpha1.CallCostFinalCondition)
}

// CountStored adds a stored call to u as its admission and its reports counted it: one call and
// one attempt of step reserving reserve, and its reported cost.
func (u *Usage) CountStored(step string, reserve safety.Money, cost *resource.Quantity) error {
	u.Admit(step, reserve)
	reported, err := ReportedCost(cost)
	if err != nil {
		return err
	}
	u.Report(reserve, safety.Money{}, reported)
	return nil
}
