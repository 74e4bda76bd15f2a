package gateway

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/tracing"
	"github.com/toolgate/toolgate/pkg/agent"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// callSpans are the gateway's spans, under the OpenTelemetry conventions for MCP: one server span
// per tools/call it serves, a child of the MCP client's trace context (_meta["traceparent"]);
// under it a client span for the AgentToolCall's create, whose context the call carries (so the
// webhook's decision span is its child), and a client span per call sent upstream, whose context
// the upstream receives in its own _meta["traceparent"]. One trace then holds the agent's call,
// the gateway's work, toolgate's verdict and the tool's run. Without a configured exporter the
// global tracer's spans only carry the client's context through, as before.
type callSpans struct {
	tracer trace.Tracer
}

// newCallSpans takes the gateway's tracer once, from provider or, nil, the global one: a tracer
// taken from the global provider before an exporter is installed follows the first one installed.
func newCallSpans(provider trace.TracerProvider) callSpans {
	if provider == nil {
		provider = otel.GetTracerProvider()
	}
	return callSpans{tracer: provider.Tracer("github.com/toolgate/toolgate/internal/gateway")}
}

const methodCallTool = "tools/call"

// call starts the server span of a tools/call. Its name carries the tool's name only for a
// tool the gateway offers: any other name is the agent's text, unbounded in kind.
func (c callSpans) call(ctx context.Context, req *mcp.CallToolRequest, rt *route) (context.Context, trace.Span) {
	if traceparent, ok := req.Params.Meta[MetaTraceparent].(string); ok {
		ctx = agent.ContextWithTraceparent(ctx, traceparent)
	}
	name := methodCallTool
	attrs := []attribute.KeyValue{
		attribute.String("mcp.method.name", methodCallTool),
		attribute.String("gen_ai.operation.name", "execute_tool"),
	}
	if rt != nil {
		name += " " + req.Params.Name
		attrs = append(attrs, attribute.String("gen_ai.tool.name", req.Params.Name),
			attribute.String("toolgate.tool_server", rt.server.Name))
	}
	return c.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
}

// endCallSpan ends a tools/call's span, the gateway's or an upstream's, with how the call ended:
// an MCP error, a tool error (a denial, already marked by decided, or the upstream's), or an
// answer.
func endCallSpan(span trace.Span, res *mcp.CallToolResult, err error) {
	switch {
	case err != nil:
		span.SetAttributes(attribute.String("error.type", "mcp_error"))
		// Shortened: an error may quote what the agent sent (an undeclared argument's name), and the
		// SDK bounds no status, so a long one would fill the exporter's batch with other calls' spans.
		span.SetStatus(codes.Error, tracing.StatusText(err.Error()))
	case res != nil && res.IsError:
		span.SetAttributes(attribute.String("error.type", "tool_error"))
		if d, denial := res.Meta[MetaDenial].(Denied); denial { // the webhook's, or the gateway's own (no plan)
			span.SetAttributes(attribute.String("toolgate.decision", "deny"), attribute.String("toolgate.reason", d.Reason))
			span.SetStatus(codes.Error, d.Reason)
		} else {
			span.SetStatus(codes.Error, "the tool's answer is an error")
		}
	}
	span.End()
}

// create starts the client span of the AgentToolCall's create and puts its context on
// call, so the webhook's decision span is its child.
func (c callSpans) create(ctx context.Context, call *safetyv1alpha1.AgentToolCall) trace.Span {
	ctx, span := c.tracer.Start(ctx, "create AgentToolCall", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("k8s.namespace.name", call.Namespace),
			attribute.String("toolgate.plan", call.Spec.Plan)))
	agent.LinkContext(ctx, call)
	return span
}

// decided ends the create's span and records the verdict on it and on the call's span (whose
// status endCallSpan sets); err is the create's failure to be decided at all.
func decided(ctx context.Context, create trace.Span, call *safetyv1alpha1.AgentToolCall, r toolcall.Result, err error) {
	if err != nil {
		create.SetStatus(codes.Error, tracing.StatusText(err.Error()))
		create.End()
		return
	}
	verdict := []attribute.KeyValue{attribute.String("toolgate.decision", "allow")}
	if !r.Allowed {
		verdict = []attribute.KeyValue{attribute.String("toolgate.decision", "deny"), attribute.String("toolgate.reason", r.Reason)}
	}
	if call.Name != "" { // a denied call was never stored, so it has no name
		verdict = append(verdict, attribute.String("toolgate.call", call.Name))
	}
	create.SetAttributes(verdict...)
	create.End()
	trace.SpanFromContext(ctx).SetAttributes(verdict...)
}

// upstream starts the client span of one call sent to rt's upstream, and returns the
// _meta that carries its context to the upstream (nil when there is none to carry).
func (c callSpans) upstream(ctx context.Context, rt *route) (trace.Span, mcp.Meta) {
	ctx, span := c.tracer.Start(ctx, methodCallTool+" "+rt.upstreamName(), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("mcp.method.name", methodCallTool),
			attribute.String("gen_ai.tool.name", rt.upstreamName()),
			attribute.String("toolgate.tool_server", rt.server.Name)))
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	if tp := carrier.Get("traceparent"); tp != "" {
		return span, mcp.Meta{MetaTraceparent: tp}
	}
	return span, nil
}
