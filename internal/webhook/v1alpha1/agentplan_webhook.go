package v1alpha1

import (
	"context"
	"fmt"
	"net/http"

	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/metrics"
	"github.com/toolgate/toolgate/internal/policy"
)

// +kubebuilder:webhook:path=/validate-safety-toolgate-dev-v1alpha1-agentplan,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=safety.toolgate.dev,resources=agentplans,verbs=create;update;delete,versions=v1alpha1,name=vagentplan-v1alpha1.toolgate.dev,admissionReviewVersions=v1,timeoutSeconds=5

// AgentPlanPath is where the API server sends AgentPlan admission reviews.
const AgentPlanPath = "/validate-safety-toolgate-dev-v1alpha1-agentplan"

// AgentPlanHandler decides who may start a plan, and which: never the plan's own agent, never a
// profile outside the project's allowedProfiles, never a second active plan without a pod for one
// ServiceAccount (the agent would then choose between them). Every creation and re-lock request,
// and every refusal, is recorded in the ledger with the requester before the answer. It is a raw
// handler because it needs the request's identity. Status writes (the subresource) do not come
// here.
type AgentPlanHandler struct {
	// Reader reads the project's policy and plans; live, since plan creations are rare and a
	// stale read would widen the window in which two replicas admit conflicting plans.
	Reader  client.Reader
	Decoder admission.Decoder
	Clock   clock.PassiveClock
	Ledger  audit.PlanLog
	// Configs records every admitted create, update and delete as a config record; nil records none.
	Configs audit.ConfigLog
	// Operator is the username the operator acts as; only it may remove a plan's project-total
	// finalizer. Empty leaves that to RBAC.
	Operator string
}

// Handle answers one AgentPlan admission request.
func (h *AgentPlanHandler) Handle(ctx context.Context, req admission.Request) admission.Response {
	if req.Operation == admissionv1.Delete { // the plan is in oldObject
		old := &safetyv1alpha1.AgentPlan{}
		if err := h.Decoder.DecodeRaw(req.OldObject, old); err != nil {
			return denial{ReasonBadRequest, "", "cannot decode the deleted AgentPlan: " + err.Error()}.response()
		}
		return respond(recordConfig(ctx, h.Configs, h.Reader, req, audit.ConfigDelete, old, nil))
	}
	plan := &safetyv1alpha1.AgentPlan{}
	if err := h.Decoder.DecodeRaw(req.Object, plan); err != nil {
		return denial{ReasonBadRequest, "", "cannot decode the AgentPlan: " + err.Error()}.response()
	}
	var d *denial
	var err error
	var old client.Object // nil on create: an interface, so that nil means no old object
	op, configOp := audit.PlanCreate, audit.ConfigCreate
	switch req.Operation {
	case admissionv1.Create:
		d, err = h.checkCreate(ctx, req, plan)
	case admissionv1.Update:
		prev := &safetyv1alpha1.AgentPlan{}
		if err := h.Decoder.DecodeRaw(req.OldObject, prev); err != nil {
			return denial{ReasonBadRequest, "", "cannot decode the old AgentPlan: " + err.Error()}.response()
		}
		old, configOp = prev, audit.ConfigUpdate
		if d := finalizerRemoved(req, h.Operator, prev, plan); d != nil {
			return respond(d)
		}
		// Only a new relock value asks for a re-lock; removing the annotation asks for nothing.
		token := plan.Annotations[safetyv1alpha1.RelockAnnotation]
		if token == "" || token == prev.Annotations[safetyv1alpha1.RelockAnnotation] {
			return respond(recordConfig(ctx, h.Configs, h.Reader, req, configOp, plan, old))
		}
		op, d = audit.PlanRelock, selfAuthored(req, plan, fieldAnnotations, "re-lock")
		if d == nil {
			d = relockTooLong(plan)
		}
	default:
		return admission.Allowed("")
	}
	if err != nil {
		return admission.Errored(http.StatusInternalServerError, err)
	}
	if d = h.record(ctx, req, plan, op, d); d != nil {
		return respond(d)
	}
	return respond(recordConfig(ctx, h.Configs, h.Reader, req, configOp, plan, old))
}

// checkCreate returns the refusal of a new plan, or nil.
func (h *AgentPlanHandler) checkCreate(ctx context.Context, req admission.Request, plan *safetyv1alpha1.AgentPlan) (*denial, error) {
	if d := selfAuthored(req, plan, "spec.serviceAccountName", "create"); d != nil {
		return d, nil
	}
	if d := relockTooLong(plan); d != nil {
		return d, nil
	}
	pp := &safetyv1alpha1.ProjectPolicy{}
	err := h.Reader.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: controller.ProjectPolicyName}, pp)
	if err != nil && !apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("reading the ProjectPolicy of %s: %w", req.Namespace, err)
	}
	if err == nil && !policy.ProfileAllowed(pp.Spec.AllowedProfiles, plan.Spec.ProfileRef) {
		return &denial{ReasonProfileNotAllowed, "spec.profileRef", policy.ProfileNotAllowedMessage(plan.Spec.ProfileRef, pp.Spec.AllowedProfiles)}, nil
	}
	plans, err := controller.PlansOfServiceAccount(ctx, h.Reader, req.Namespace, plan.Spec.ServiceAccountName)
	if err != nil {
		return nil, fmt.Errorf("listing the plans of ServiceAccount %s/%s: %w", req.Namespace, plan.Spec.ServiceAccountName, err)
	}
	if other := policy.BindingConflict(plan, plans, h.Clock.Now(), false); other != nil {
		return &denial{ReasonPlanConflict, "spec.podName", policy.BindingConflictMessage(plan, other)}, nil
	}
	return nil, nil
}

// selfAuthored refuses a plan written by its own agent: the agent would choose its own policy.
func selfAuthored(req admission.Request, plan *safetyv1alpha1.AgentPlan, field, what string) *denial {
	if req.UserInfo.Username != serviceAccountUser(req.Namespace, plan.Spec.ServiceAccountName) {
		return nil
	}
	return &denial{ReasonPlanAuthoredByAgent, field, fmt.Sprintf(
		"%s is the agent of this plan and may not %s it; plans are written by an orchestrator or a person", req.UserInfo.Username, what)}
}

// relockTooLong refuses a relock value longer than a snapshot records: the lock that answers it
// could never be written, so the plan would stay unlocked (or on its old snapshot) with nothing
// but the operator's log saying why, while the request had been accepted.
func relockTooLong(plan *safetyv1alpha1.AgentPlan) *denial {
	token := plan.Annotations[safetyv1alpha1.RelockAnnotation]
	if len(token) <= safetyv1alpha1.MaxRelockTokenLength {
		return nil
	}
	return &denial{ReasonBadRequest, fieldAnnotations, fmt.Sprintf("annotation %s is %d bytes; a relock value may have at most %d",
		safetyv1alpha1.RelockAnnotation, len(token), safetyv1alpha1.MaxRelockTokenLength)}
}

// record writes the ledger record of a decision and returns the answer to give: under the
// AuditLedger's Fail policy an acceptance that could not be recorded is refused.
func (h *AgentPlanHandler) record(ctx context.Context, req admission.Request, plan *safetyv1alpha1.AgentPlan, op string, d *denial) *denial {
	if isDryRun(req) || h.Ledger == nil {
		return d
	}
	rec := audit.Plan{
		Decision: decisionAllow, Operation: op, Namespace: req.Namespace, Name: plan.Name, UID: string(plan.UID),
		ServiceAccount: plan.Spec.ServiceAccountName, Pod: plan.Spec.PodName, Action: plan.Spec.Action,
		ReadOnly: plan.Spec.ReadOnly, RelockToken: plan.Annotations[safetyv1alpha1.RelockAnnotation], Requester: req.UserInfo.Username,
		ActiveDeadlineSeconds: policy.ActiveDeadlineSeconds(plan),
	}
	if ref := plan.Spec.ProfileRef; ref != nil {
		rec.Profile = string(ref.Kind) + "/" + ref.Name
	}
	if d != nil {
		rec.Decision, rec.Reason = decisionDeny, d.Reason
	}
	if err := h.Ledger.RecordPlan(ctx, rec); err != nil {
		metrics.LedgerFailures.Inc()
		if d == nil && audit.FailurePolicyOf(ctx, h.Reader) != safetyv1alpha1.LedgerFailurePolicyIgnore {
			return &denial{ReasonLedgerUnavailable, "", "the plan could not be recorded durably, so it is not accepted: " + err.Error()}
		}
	}
	return d
}
