// Package agent is the small public API agent code uses to ask toolgate for permission: Submit
// creates an AgentToolCall as the agent's ServiceAccount and turns a denial back into the engine's
// typed error, so an agent can react with errors.As:
//
//	err := agent.Submit(ctx, c, call)
//	var sandbox *agent.ToolSandboxRequiredError
//	switch {
//	case err == nil: // admitted: run the tool, then Report its cost
//	case errors.As(err, &sandbox): // retry inside a sandbox
//	case agent.IsRetryable(err): // the plan is not locked yet
//	}
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// The engine's typed errors, re-exported so agent code outside this module can name them.
type (
	ToolAccessDeniedError          = safety.ToolAccessDeniedError
	ToolCheckpointRequiredError    = safety.ToolCheckpointRequiredError
	ToolSafetyViolationError       = safety.ToolSafetyViolationError
	ToolSandboxRequiredError       = safety.ToolSandboxRequiredError
	ToolHumanApprovalRequiredError = safety.ToolHumanApprovalRequiredError
	ToolCostLimitExceededError     = safety.ToolCostLimitExceededError
	ToolRetryLimitExceededError    = safety.ToolRetryLimitExceededError
	ToolLoopDetectedError          = safety.ToolLoopDetectedError
	ToolArgumentRuleViolatedError  = safety.ToolArgumentRuleViolatedError
	// Violation is the payload of every typed enforcement error.
	Violation = safety.Violation
)

// ErrToolRuntime matches every typed enforcement error with errors.Is.
var ErrToolRuntime = safety.ErrToolRuntime

// RequestError is a denial that happened before the engine ran: the request itself was not in
// order (PlanNotFound, PlanNotLocked, AgentIdentityMismatch, ToolNotRegistered, InvalidUpdate,
// LedgerUnavailable, BadRequest).
type RequestError struct {
	Reason  string
	Field   string
	Message string
}

func (e *RequestError) Error() string { return "[" + e.Reason + "] " + e.Message }

// IsRetryable reports whether resubmitting the same call later may succeed without a change:
// the plan is not locked yet, or the ledger is briefly unavailable. Submit resubmits only the
// first by itself: a call refused LedgerUnavailable was counted (an attempt of its step, its
// reserved cost) before its record failed, so each resubmission spends the plan's limits, and
// whether to spend them is the caller's choice.
func IsRetryable(err error) bool {
	return reasonIs(err, "PlanNotLocked") || reasonIs(err, "LedgerUnavailable")
}

func reasonIs(err error, reason string) bool {
	var re *RequestError
	return errors.As(err, &re) && re.Reason == reason
}

// RetryFor bounds how long Submit keeps resubmitting a call denied for a passing reason (a plan
// the operator is still locking, or that the webhook's cache has not seen locked yet). It outlasts
// a controller failover: when the leading manager dies without releasing its lease, no replica
// locks plans until the lease (15 s) has expired and another has taken it (docs/webhook.md).
var RetryFor = 45 * time.Second

// Submit creates the call with c (which must authenticate as the plan's ServiceAccount) and
// returns nil when toolgate admitted it, the typed error of a denial, or the transport error.
// A plan not locked yet is waited for, resubmitting with backoff for up to RetryFor: that refusal
// comes before anything is counted, so resubmitting is free. Other refusals are returned.
func Submit(ctx context.Context, c client.Client, call *safetyv1alpha1.AgentToolCall) error {
	LinkContext(ctx, call)
	deadline := time.Now().Add(RetryFor)
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		attempt := call.DeepCopy() // a failed create must not leave server fields on call
		err := FromError(c.Create(ctx, attempt), call.Spec.Tool)
		if err == nil {
			attempt.DeepCopyInto(call)
			return nil
		}
		if !reasonIs(err, "PlanNotLocked") || time.Now().Add(wait).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// TraceparentAnnotation carries the agent's W3C trace context on a call, so that toolgate's
// decision span joins the agent's trace (internal/tracing reads it).
const TraceparentAnnotation = "toolgate.dev/traceparent"

// ContextWithTraceparent returns ctx in the trace a W3C traceparent received from the agent
// names (an MCP request's _meta["traceparent"]); one that names none (it does not parse, or is
// all zeros) leaves ctx as it is: it only links spans and must not fail or change the call.
func ContextWithTraceparent(ctx context.Context, traceparent string) context.Context {
	return propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": traceparent})
}

// LinkContext puts ctx's span context, if it has one, on call, re-encoded, so the annotation is
// at most the canonical 55 characters.
func LinkContext(ctx context.Context, call *safetyv1alpha1.AgentToolCall) {
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	if tp := carrier.Get("traceparent"); tp != "" {
		if call.Annotations == nil {
			call.Annotations = map[string]string{}
		}
		call.Annotations[TraceparentAnnotation] = tp
	}
}

// Report records what an admitted call's run cost and how it ended. Cost is an exact decimal
// string such as "0.25"; toolgate refuses a cost that decreases or a phase that moves backward.
// On success call holds the call as stored.
func Report(ctx context.Context, c client.Client, call *safetyv1alpha1.AgentToolCall) error {
	patch, err := StatusPatch(call)
	if err != nil {
		return err
	}
	return FromError(c.Status().Patch(ctx, call, patch), call.Spec.Tool)
}

// StatusPatch is the report Report sends: call's status as a JSON merge patch of the status
// subresource. It carries no resourceVersion: an agent may not read AgentToolCalls (its role grants
// create and status writes only, so that no agent reads another's arguments), so it could not
// re-read a call the operator wrote meanwhile (metadata: its completion annotation), and a status
// patch does not conflict with such writes. The status fields call leaves empty stay as stored
// (a cost or CostFinal its reporter wrote); its conditions, when it has any, replace the stored ones.
func StatusPatch(call *safetyv1alpha1.AgentToolCall) (client.Patch, error) {
	data, err := json.Marshal(map[string]any{"status": call.Status})
	if err != nil {
		return nil, err
	}
	return client.RawPatch(types.MergePatchType, data), nil
}

// MarkCostFinal puts on call, for Report to send with its cost, its cost reporter's word that the
// cost is final (toolcall.CostFinal): a reporter that sets it ends the call's hold on its plan's
// budget at once, also where the agent marked the call finished first; without it the call holds
// its tool's maxCostPerCall until the reporter's window (15 minutes) has passed, and a webhook
// replica that takes the plan over within it holds the call again. Only the plan's
// spec.costReporter may write it. by names the reporter for people reading the call.
func MarkCostFinal(call *safetyv1alpha1.AgentToolCall, by string) {
	meta.SetStatusCondition(&call.Status.Conditions, toolcall.CostFinal(by, metav1.Now()))
}

// FromError maps an API error carrying a toolgate denial to the typed error; any other error
// (and nil) is returned unchanged. tool names the tool the call asked for.
func FromError(err error, tool string) error {
	d, ok := toolcall.Denial(err)
	if !ok {
		return err // nil, a transport error, or not a toolgate denial (a schema error, say)
	}
	v := safety.Violation{Tool: tool, Message: d.Message}
	switch d.Reason {
	case safety.ReasonToolAccessDenied:
		return &ToolAccessDeniedError{Violation: v}
	case safety.ReasonToolCheckpointRequired:
		return &ToolCheckpointRequiredError{Violation: v}
	case safety.ReasonToolSafetyViolation:
		return &ToolSafetyViolationError{Violation: v}
	case safety.ReasonToolSandboxRequired:
		return &ToolSandboxRequiredError{Violation: v}
	case safety.ReasonToolHumanApprovalRequired:
		return &ToolHumanApprovalRequiredError{Violation: v}
	case safety.ReasonToolCostLimitExceeded:
		return &ToolCostLimitExceededError{Violation: v}
	case safety.ReasonToolRetryLimitExceeded:
		return &ToolRetryLimitExceededError{Violation: v}
	case safety.ReasonToolLoopDetected:
		return &ToolLoopDetectedError{Violation: v}
	case safety.ReasonToolArgumentRuleViolated:
		return &ToolArgumentRuleViolatedError{Violation: v}
	}
	return &RequestError{Reason: d.Reason, Field: d.Field, Message: d.Message}
}

// ReasonOf returns the reason code of a toolgate denial in err's chain, or "".
func ReasonOf(err error) string {
	if re, ok := errors.AsType[*RequestError](err); ok {
		return re.Reason
	}
	return safety.ReasonOf(err)
}

// Describe is a one-line account of a Submit result, for logs.
func Describe(err error) string {
	if err == nil {
		return "admitted"
	}
	if re, ok := errors.AsType[*RequestError](err); ok {
		return fmt.Sprintf("denied %s: %s", re.Reason, re.Message)
	}
	if r := ReasonOf(err); r != "" {
		return fmt.Sprintf("denied %s: %v", r, err)
	}
	return "error: " + err.Error()
}
