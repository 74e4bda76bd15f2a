package v1alpha1

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// phaseOrder ranks phases so they only move forward.
var phaseOrder = map[safetyv1alpha1.CallPhase]int{
	"": 0, safetyv1alpha1.CallPhaseAdmitted: 1, safetyv1alpha1.CallPhaseRunning: 2,
	safetyv1alpha1.CallPhaseSucceeded: 3, safetyv1alpha1.CallPhaseFailed: 3,
}

// update allows what an agent may report after the run: the spec never changes, a ServiceAccount
// other than the plan's may not change the status, phases only move forward and cost never
// decreases.
func (h *AgentToolCallHandler) update(ctx context.Context, req admission.Request, old, call *safetyv1alpha1.AgentToolCall) admission.Response {
	if old == nil {
		return h.finish(ctx, req, call, deny(denial{ReasonBadRequest, "", "the update carries no old AgentToolCall"}))
	}
	d, err := h.checkUpdate(ctx, req, old, call)
	if err != nil {
		// Not a refusal: a reporter tries again on a 500, and must, or the cost it reports is lost.
		return admission.Errored(http.StatusInternalServerError, err)
	}
	if d != nil {
		return h.finish(ctx, req, call, deny(*d))
	}
	if !isDryRun(req) {
		_, err := againIfRelocked(func() (struct{}, error) {
			return struct{}{}, h.settleReport(ctx, req.UserInfo.Username, old, call)
		})
		if err != nil {
			return admission.Errored(http.StatusInternalServerError, err)
		}
	}
	return admission.Allowed("")
}

// checkUpdate is the refusal of an update, if any; an error when what it needs to decide cannot be
// read now (the plan, through a failing API server).
func (h *AgentToolCallHandler) checkUpdate(ctx context.Context, req admission.Request, old, call *safetyv1alpha1.AgentToolCall) (*denial, error) {
	user := req.UserInfo.Username
	if !equality.Semantic.DeepEqual(old.Spec, call.Spec) {
		return &denial{ReasonInvalidUpdate, "spec", "the spec of an AgentToolCall is immutable"}, nil
	}
	if d := h.checkBookkeeping(user, old, call); d != nil {
		return d, nil
	}
	if d, err := h.checkGrowth(ctx, user, old, call); d != nil || err != nil {
		return d, err
	}
	// Only a report (a status change) is the agent's, or its plan's cost reporter's, to make; only
	// the cost reporter may write the cost. Metadata alone (the operator's completion annotation)
	// is left to RBAC, which agents' roles do not grant.
	if !equality.Semantic.DeepEqual(old.Status, call.Status) || readsThroughStatus(req, h.Operator) {
		if d, err := h.checkReporter(ctx, req, old, call); d != nil || err != nil {
			return d, err
		}
	}
	return checkReportValues(old, call), nil
}

// readsThroughStatus says whether req is a status write by a ServiceAccount other than the
// operator, which is judged as a report even when it changes nothing: its answer is the stored
// call, arguments and all, and every agent's role may write statuses (it may read no call), so an
// empty patch of another agent's call would otherwise read it.
func readsThroughStatus(req admission.Request, operator string) bool {
	user := req.UserInfo.Username
	return req.SubResource == "status" && strings.HasPrefix(user, serviceAccountPrefix) && user != operator
}

// checkReportValues refuses a phase that moves back and a cost that decreases or is not money.
func checkReportValues(old, call *safetyv1alpha1.AgentToolCall) *denial {
	if phaseOrder[call.Status.Phase] < phaseOrder[old.Status.Phase] ||
		(finalPhase(old) && call.Status.Phase != old.Status.Phase) {
		return &denial{ReasonInvalidUpdate, "status.phase", fmt.Sprintf("phase cannot move from %s to %s", old.Status.Phase, call.Status.Phase)}
	}
	if old.Status.Cost != nil {
		if call.Status.Cost == nil || call.Status.Cost.Cmp(*old.Status.Cost) < 0 {
			return &denial{ReasonInvalidUpdate, "status.cost", fmt.Sprintf("cost cannot decrease from %s", old.Status.Cost)}
		}
	}
	if call.Status.Cost != nil {
		if _, err := policy.MoneyFromQuantity(*call.Status.Cost); err != nil {
			return &denial{ReasonInvalidUpdate, "status.cost", fmt.Sprintf("cost %s is not an exact amount of money: %v", call.Status.Cost, err)}
		}
	}
	return nil
}

// checkBookkeeping keeps the operator's mark on a call its own: the completion annotation, which
// says the ledger holds the call's completion record. Anyone else writing it could make a call
// leave no completion record, even where RBAC was granted too widely.
func (h *AgentToolCallHandler) checkBookkeeping(user string, old, call *safetyv1alpha1.AgentToolCall) *denial {
	if h.Operator == "" || user == h.Operator {
		return nil
	}
	// A call's lifetime is toolgate's after its create too: an owner reference would let the
	// garbage collector delete it, a foreign finalizer would keep it past its TTL.
	if slices.ContainsFunc(call.OwnerReferences, func(r metav1.OwnerReference) bool {
		return !slices.ContainsFunc(old.OwnerReferences, func(o metav1.OwnerReference) bool { return o.UID == r.UID })
	}) {
		return &denial{ReasonInvalidUpdate, "metadata.ownerReferences", "an AgentToolCall may not be given owner references; its lifetime is toolgate's"}
	}
	// Any new finalizer, toolgate's own name too: toolgate puts none on calls any more (usage is
	// counted at admission), so one added now is someone holding the call past its TTL, and
	// toolgate's own is released only by the leader's hourly sweep (LegacyFinalizerSweep).
	for _, f := range call.Finalizers {
		if !controllerutil.ContainsFinalizer(old, f) {
			return &denial{ReasonInvalidUpdate, fieldFinalizers, fmt.Sprintf(
				"finalizer %q: only the toolgate operator (%s) puts finalizers on an AgentToolCall", f, h.Operator)}
		}
	}
	for _, f := range old.Finalizers {
		if policy.IsOwnCallFinalizer(f) && !controllerutil.ContainsFinalizer(call, f) {
			return &denial{ReasonInvalidUpdate, fieldFinalizers, fmt.Sprintf(
				"only the toolgate operator (%s) may remove %s, once the call's usage is settled", h.Operator, f)}
		}
	}
	for _, m := range []map[string]string{old.Annotations, call.Annotations} {
		for k := range m {
			if policy.IsOwnAnnotation(k) && old.Annotations[k] != call.Annotations[k] {
				return &denial{ReasonInvalidUpdate, fieldAnnotations, fmt.Sprintf(
					"only the toolgate operator (%s) may write %s", h.Operator, k)}
			}
		}
	}
	return nil
}

// checkGrowth refuses an update that grows a call past maxGrowableValues, unless it is the
// operator's or the plan's cost reporter's, for whom the rest is kept.
func (h *AgentToolCallHandler) checkGrowth(ctx context.Context, user string, old, call *safetyv1alpha1.AgentToolCall) (*denial, error) {
	n := growableValues(call)
	if n <= maxGrowableValues || n <= growableValues(old) || user == h.Operator {
		return nil, nil
	}
	plan := &safetyv1alpha1.AgentPlan{}
	if err := h.get(ctx, client.ObjectKey{Namespace: call.Namespace, Name: call.Spec.Plan}, plan, nil); err != nil && !apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("reading plan %s of call %s: %w", call.Spec.Plan, call.Name, err)
	}
	if r := policy.CostReporterUser(plan); r != "" && user == r {
		return nil, nil
	}
	return tooManyValues(n), nil
}
