package gateway

import (
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolgate/toolgate/pkg/toolcall"
)

// A call's span ends marked as the call ended: a denial (the webhook's, or the gateway's own
// before anything is created, such as no plan) with its reason, an upstream's tool error, an MCP
// error, or not at all for an answer.
func TestEndCallSpanMarksHowTheCallEnded(t *testing.T) {
	recorder := tracetest.NewSpanRecorder()
	spans := newCallSpans(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder)))
	for _, tc := range []struct {
		name            string
		res             *mcp.CallToolResult
		err             error
		code            codes.Code
		status, errType string
	}{
		{"no plan", denied(toolcall.Result{Reason: ReasonPlanNotFound, Message: "no plan"}), nil,
			codes.Error, ReasonPlanNotFound, "tool_error"},
		{"upstream tool error", &mcp.CallToolResult{IsError: true}, nil, codes.Error, "the tool's answer is an error", "tool_error"},
		{"mcp error", nil, errors.New("boom"), codes.Error, "boom", "mcp_error"},
		{"an mcp error quoting 60 KB the agent sent", nil, errors.New(strings.Repeat("\u0080", 30_000)), codes.Error,
			strings.Repeat("\u0080", 40) + "...", "mcp_error"},
		{"answered", &mcp.CallToolResult{}, nil, codes.Unset, "", ""},
	} {
		_, span := spans.call(t.Context(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "x"}}, nil)
		endCallSpan(span, tc.res, tc.err)
		ended := recorder.Ended()
		got := ended[len(ended)-1]
		errType := ""
		for _, kv := range got.Attributes() {
			if kv.Key == attribute.Key("error.type") {
				errType = kv.Value.AsString()
			}
		}
		if got.Status().Code != tc.code || got.Status().Description != tc.status || errType != tc.errType {
			t.Errorf("%s: status %v %q, error.type %q; want %v %q, %q", tc.name, got.Status().Code,
				got.Status().Description, errType, tc.code, tc.status, tc.errType)
		}
	}
}
