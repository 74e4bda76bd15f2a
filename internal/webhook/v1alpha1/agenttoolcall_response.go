package v1alpha1

import (
	"net/http"

	admissionv1 "k8s.io/api/admission/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// denial is a refusal with a machine-readable reason the agent can act on.
type denial struct {
	Reason  string
	Field   string
	Message string
}

// response renders a denial the way agents and kubectl read it: HTTP 403, a message
// "[Reason] detail", and one cause whose Type is the reason code and whose Field is the offending
// field. The message holds the agent's text (its command, paths, step, the approval command), and
// a person reads it: every character that would not show as itself is written as an escape.
func (d denial) response() admission.Response {
	msg := policy.Visible(d.Message)
	return admission.Response{AdmissionResponse: admissionv1.AdmissionResponse{Allowed: false, Result: &metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    http.StatusForbidden,
		Reason:  metav1.StatusReasonForbidden,
		Message: "[" + d.Reason + "] " + msg,
		Details: &metav1.StatusDetails{Causes: []metav1.StatusCause{{
			Type: metav1.CauseType(d.Reason), Field: d.Field, Message: msg,
		}}},
	}}}
}

// statusError is the denial as a typed validator returns it: the API status response renders.
func (d denial) statusError() error {
	return &apierrors.StatusError{ErrStatus: *d.response().Result}
}

// warning is the admission warning a Warn-mode profile attaches to a call it would have denied;
// kubectl prints it on the person's terminal, so it is made visible as the denial is.
func (d denial) warning() string { return "[" + d.Reason + "] " + policy.Visible(d.Message) }

// causeField names the call field an engine reason is about.
func causeField(reason string) string {
	switch reason {
	case safety.ReasonToolSandboxRequired:
		return "spec.sandboxId"
	case safety.ReasonToolRetryLimitExceeded:
		return "spec.step"
	case safety.ReasonToolCostLimitExceeded:
		return fieldPlan
	case safety.ReasonToolHumanApprovalRequired, safety.ReasonToolLoopDetected:
		return "spec"
	case safety.ReasonToolArgumentRuleViolated:
		return "spec.arguments"
	}
	return fieldTool
}
