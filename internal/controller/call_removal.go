package controller

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/policy"
)

// What the finished-call and the unfinished-call controllers share: how a call's completion
// record is made, and how a recorded call is deleted without losing what it counted.

// completionOf is the completion record of call, ended in phase, whose TTL counts from start.
func completionOf(call *safetyv1alpha1.AgentToolCall, phase string, start time.Time) audit.Completion {
	c := audit.Completion{
		Namespace: call.Namespace, Plan: call.Spec.Plan, Call: call.Name, UID: string(call.UID), Tool: call.Spec.Tool,
		Step: call.Spec.Step, Phase: phase, Cost: completionCost(call), FinishedAt: start,
	}
	if call.Status.FinishedAt != nil {
		c.ReportedFinishedAt = call.Status.FinishedAt.Time
	}
	if phase == audit.PhaseUnfinished {
		c.LastPhase = string(call.Status.Phase)
	}
	return c
}

// completionCost is the cost a completion record holds: the call's status.cost as exact money,
// as written when it is not money, empty when none was reported.
func completionCost(call *safetyv1alpha1.AgentToolCall) string {
	if call.Status.Cost == nil {
		return ""
	}
	if money, err := policy.MoneyFromQuantity(*call.Status.Cost); err == nil {
		return money.String()
	}
	return call.Status.Cost.String()
}

// settleRetry is how soon a call whose settlement is not stored yet is looked at again: about
// when its plan's next write is (the webhook's flush interval and a write).
const settleRetry = 250 * time.Millisecond

// removeCall deletes call, whose completion record is durable, once what it counted is stored in
// the deleted part of its plan's counters (settled), and notes the deletion with counters. It
// returns how soon to try again when the call could not go yet (its settlement is not stored, or
// it changed since it was read), zero once it is gone. Nothing about the call's usage is lost:
// its attempt, its reservation and every trusted cost report were counted into its plan's
// counters when the webhook admitted them, and the deleted part is stored before the call goes,
// so that a replica taking over after a crash, which recounts the calls that still exist, counts
// it too. The UID precondition makes sure a newer call of the same name is never deleted; the
// resourceVersion one, that the call is deleted as it was settled and recorded (a report since
// then is settled, or recorded, first).
func removeCall(ctx context.Context, c client.Client, counters CallSettler, call *safetyv1alpha1.AgentToolCall) (time.Duration, error) {
	settled, err := settledCall(ctx, c, counters, call)
	if err != nil {
		return 0, err
	}
	if !settled {
		return settleRetry, nil
	}
	rv := call.ResourceVersion
	err = c.Delete(ctx, call, client.Preconditions{UID: &call.UID, ResourceVersion: &rv})
	if apierrors.IsConflict(err) {
		return finalizerRetry, nil
	}
	if client.IgnoreNotFound(err) != nil {
		return 0, fmt.Errorf("deleting AgentToolCall %s/%s: %w", call.Namespace, call.Name, err)
	}
	if counters != nil {
		counters.CallDeleted(types.NamespacedName{Namespace: call.Namespace, Name: call.Spec.Plan}, call.UID)
	}
	return 0, nil
}

// settledCall counts call into the deleted part of its plan's counters, and says whether that is
// stored: the call may be deleted then. A call whose plan is gone (settled into its project
// already) has nothing to count into.
func settledCall(ctx context.Context, c client.Reader, counters CallSettler, call *safetyv1alpha1.AgentToolCall) (bool, error) {
	if counters == nil {
		return true, nil
	}
	plan := &safetyv1alpha1.AgentPlan{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: call.Namespace, Name: call.Spec.Plan}, plan); err != nil {
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, fmt.Errorf("reading plan %s of AgentToolCall %s/%s: %w", call.Spec.Plan, call.Namespace, call.Name, err)
	}
	stored, err := counters.SettleCall(ctx, plan, call)
	if err != nil {
		return false, fmt.Errorf("counting AgentToolCall %s/%s into its plan's deleted calls: %w", call.Namespace, call.Name, err)
	}
	return stored, nil
}
