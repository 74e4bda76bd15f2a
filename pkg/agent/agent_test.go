package agent_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/toolgate/toolgate/pkg/agent"
)

// denied builds the error the API server returns when toolgate's webhook denies a call.
func denied(reason, field, msg string) error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusForbidden, Reason: metav1.StatusReasonForbidden,
		Message: `admission webhook "vagenttoolcall-v1alpha1.toolgate.dev" denied the request: [` + reason + "] " + msg,
		Details: &metav1.StatusDetails{Causes: []metav1.StatusCause{
			{Type: metav1.CauseType(reason), Field: field, Message: msg},
		}},
	}}
}

func TestFromErrorMapsEveryEngineReasonToItsType(t *testing.T) {
	cases := []struct {
		reason string
		target any
	}{
		{"ToolAccessDenied", new(*agent.ToolAccessDeniedError)},
		{"ToolCheckpointRequired", new(*agent.ToolCheckpointRequiredError)},
		{"ToolSafetyViolation", new(*agent.ToolSafetyViolationError)},
		{"ToolSandboxRequired", new(*agent.ToolSandboxRequiredError)},
		{"ToolHumanApprovalRequired", new(*agent.ToolHumanApprovalRequiredError)},
		{"ToolCostLimitExceeded", new(*agent.ToolCostLimitExceededError)},
		{"ToolRetryLimitExceeded", new(*agent.ToolRetryLimitExceededError)},
		{"ToolLoopDetected", new(*agent.ToolLoopDetectedError)},
		{"ToolArgumentRuleViolated", new(*agent.ToolArgumentRuleViolatedError)},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			err := agent.FromError(denied(c.reason, "spec.tool", "detail for "+c.reason), "shell")
			if !errors.As(err, c.target) {
				t.Fatalf("FromError(%s) = %T, not the typed error", c.reason, err)
			}
			if !errors.Is(err, agent.ErrToolRuntime) {
				t.Errorf("%s does not match ErrToolRuntime", c.reason)
			}
			if got := agent.ReasonOf(err); got != c.reason {
				t.Errorf("ReasonOf = %q, want %q", got, c.reason)
			}
			if err.Error() != "detail for "+c.reason {
				t.Errorf("message = %q", err.Error())
			}
		})
	}
}

func TestFromErrorKeepsRequestReasonsAndOtherErrors(t *testing.T) {
	err := agent.FromError(denied("PlanNotLocked", "spec.plan", "plan p is not locked yet"), "shell")
	var re *agent.RequestError
	if !errors.As(err, &re) || re.Reason != "PlanNotLocked" || re.Field != "spec.plan" {
		t.Fatalf("got %#v", err)
	}
	if !agent.IsRetryable(err) {
		t.Error("PlanNotLocked should be retryable")
	}
	if agent.IsRetryable(agent.FromError(denied("AgentIdentityMismatch", "spec.plan", "x"), "shell")) {
		t.Error("AgentIdentityMismatch must not be retryable")
	}
	schemaErr := apierrors.NewInvalid(schema.GroupKind{Group: "safety.toolgate.dev", Kind: "AgentToolCall"}, "c", nil)
	if got := agent.FromError(schemaErr, "shell"); !errors.Is(got, schemaErr) || agent.ReasonOf(got) != "" {
		t.Errorf("a schema error must pass through unchanged, got %v", got)
	}
	if agent.FromError(nil, "shell") != nil {
		t.Error("nil must stay nil")
	}
}

// An agent maps toolgate's denial back to the engine's typed error and decides what to do.
func ExampleFromError() {
	// The error client.Create returns when toolgate denies a writing tool outside a sandbox.
	err := agent.FromError(denied("ToolSandboxRequired", "spec.sandboxId",
		`require_sandbox: write-file needs a sandbox id`), "write-file")

	if sandbox, ok := errors.AsType[*agent.ToolSandboxRequiredError](err); ok {
		fmt.Println("retry inside a sandbox:", sandbox.Tool)
	}
	fmt.Println(agent.Describe(err))
	// Output:
	// retry inside a sandbox: write-file
	// denied ToolSandboxRequired: require_sandbox: write-file needs a sandbox id
}
