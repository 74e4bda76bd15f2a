package v1alpha1

import (
	"context"
	"fmt"
	"net/http"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/metrics"
	"github.com/toolgate/toolgate/internal/safety"
)

// +kubebuilder:webhook:path=/validate-safety-toolgate-dev-v1alpha1-agenttoolcall,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=safety.toolgate.dev,resources=agenttoolcalls;agenttoolcalls/status,verbs=create;update,versions=v1alpha1,name=vagenttoolcall-v1alpha1.toolgate.dev,admissionReviewVersions=v1,timeoutSeconds=5

// AgentToolCallHandler is the gate: it admits or denies every AgentToolCall with a typed reason.
// It is a raw handler because it needs the request's identity and dry-run flag. Every fact that
// decides a check comes from the cluster, never from the call.
type AgentToolCallHandler struct {
	Reader  client.Reader
	Decoder admission.Decoder
	Clock   clock.PassiveClock

	policies *policyCache
	pending  *pendingCalls
	loops    *safety.LoopDetector
}

// NewAgentToolCallHandler returns a handler reading facts through reader.
func NewAgentToolCallHandler(reader client.Reader, decoder admission.Decoder, clk clock.PassiveClock) *AgentToolCallHandler {
	return &AgentToolCallHandler{
		Reader: reader, Decoder: decoder, Clock: clk,
		policies: newPolicyCache(), pending: newPendingCalls(), loops: safety.NewLoopDetector(clk, 0),
	}
}

// Handle answers one admission request.
func (h *AgentToolCallHandler) Handle(ctx context.Context, req admission.Request) admission.Response {
	start := h.Clock.Now()
	defer func() { metrics.HandlingSeconds.Observe(h.Clock.Since(start).Seconds()) }()
	call := &safetyv1alpha1.AgentToolCall{}
	if err := h.Decoder.DecodeRaw(req.Object, call); err != nil {
		return h.record(denial{ReasonBadRequest, "", "cannot decode the AgentToolCall: " + err.Error()}.response(), "deny", ReasonBadRequest, "")
	}
	if req.Operation == admissionv1.Update {
		return h.update(ctx, req, call)
	}
	if req.Operation != admissionv1.Create {
		return admission.Allowed("")
	}
	return h.admit(ctx, req, call)
}

// admit decides a new call: request integrity, then the engine against the plan's locked snapshot.
func (h *AgentToolCallHandler) admit(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall) admission.Response {
	plan, tool, d, err := h.integrity(ctx, req, call)
	if err != nil {
		return admission.Errored(http.StatusInternalServerError, err)
	}
	if d != nil {
		return h.record(d.response(), "deny", d.Reason, "")
	}
	compiled, err := h.policies.get(plan.Status.Snapshot)
	if err != nil {
		return h.record(denial{ReasonPlanNotLocked, fieldPlan, fmt.Sprintf("the locked snapshot of plan %s does not compile: %v", plan.Name, err)}.response(), "deny", ReasonPlanNotLocked, "")
	}
	dryRun := req.DryRun != nil && *req.DryRun

	h.pending.Lock()
	defer h.pending.Unlock()
	facts, err := h.facts(ctx, call, plan, tool, compiled, dryRun)
	if err != nil {
		return admission.Errored(http.StatusInternalServerError, err)
	}
	evalStart := time.Now()
	decision := safety.Evaluate(compiled, facts)
	metrics.EvaluationSeconds.Observe(time.Since(evalStart).Seconds())

	mode := string(decision.Mode)
	if !decision.Allowed() {
		return h.record(denial{decision.Reason, causeField(decision.Reason), decision.Message}.response(), "deny", decision.Reason, mode)
	}
	if !dryRun {
		h.pending.add(stepKey(call), call.Name, h.Clock.Now())
	}
	if !decision.WouldDeny {
		return h.record(admission.Allowed(""), "allow", "", mode)
	}
	resp := admission.Allowed("")
	if decision.Mode == safety.ModeWarn {
		resp.Warnings = []string{denial{decision.Reason, "", decision.Message}.warning()}
	}
	return h.record(resp, "would_deny", decision.Reason, mode)
}

// integrity checks what must hold before the engine runs: the plan exists and is locked, the
// requester is the plan's ServiceAccount, the tool is registered.
func (h *AgentToolCallHandler) integrity(ctx context.Context, req admission.Request, call *safetyv1alpha1.AgentToolCall) (
	*safetyv1alpha1.AgentPlan, *safetyv1alpha1.AgentTool, *denial, error) {
	plan := &safetyv1alpha1.AgentPlan{}
	if err := h.Reader.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: call.Spec.Plan}, plan); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil, &denial{ReasonPlanNotFound, fieldPlan, fmt.Sprintf("AgentPlan %q does not exist in namespace %s", call.Spec.Plan, req.Namespace)}, nil
		}
		return nil, nil, nil, fmt.Errorf("reading plan %s: %w", call.Spec.Plan, err)
	}
	if want := serviceAccountUser(plan.Namespace, plan.Spec.ServiceAccountName); req.UserInfo.Username != want {
		return nil, nil, &denial{ReasonAgentIdentityMismatch, fieldPlan, fmt.Sprintf(
			"plan %s accepts calls only from %s, not from %s", plan.Name, want, req.UserInfo.Username)}, nil
	}
	if plan.Status.Snapshot == nil {
		return nil, nil, &denial{ReasonPlanNotLocked, fieldPlan, fmt.Sprintf(
			"plan %s is not locked yet; retry shortly (%s)", plan.Name, lockMessage(plan))}, nil
	}
	tool := &safetyv1alpha1.AgentTool{}
	if err := h.Reader.Get(ctx, client.ObjectKey{Name: call.Spec.Tool}, tool); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil, &denial{ReasonToolNotRegistered, "spec.tool", fmt.Sprintf("tool %q is not a registered AgentTool", call.Spec.Tool)}, nil
		}
		return nil, nil, nil, fmt.Errorf("reading tool %s: %w", call.Spec.Tool, err)
	}
	return plan, tool, nil, nil
}

// record counts a decision and returns the response unchanged.
func (h *AgentToolCallHandler) record(resp admission.Response, decision, reason, mode string) admission.Response {
	metrics.Decisions.WithLabelValues(decision, reason, mode).Inc()
	return resp
}

func serviceAccountUser(namespace, name string) string {
	return "system:serviceaccount:" + namespace + ":" + name
}

func stepKey(call *safetyv1alpha1.AgentToolCall) string {
	return call.Namespace + "/" + call.Spec.Plan + "/" + call.Spec.Step
}

func lockMessage(plan *safetyv1alpha1.AgentPlan) string {
	for _, c := range plan.Status.Conditions {
		if c.Type == safetyv1alpha1.AgentPlanLockedCondition {
			return c.Message
		}
	}
	return "the operator has not resolved its profile yet"
}
