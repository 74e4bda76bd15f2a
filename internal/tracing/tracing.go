// Package tracing emits one OpenTelemetry span per admission decision, so that platforms that
// follow an agent's tool call end to end (and the OpenTelemetry GenAI conventions' execute_tool
// spans) see toolgate's verdict inside the agent's own trace.
//
// Tracing is off unless an OTLP endpoint is configured with the standard environment variables
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, and the other OTEL_* knobs
// the OTLP gRPC exporter reads); off, recording a decision costs a no-op span.
package tracing

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgate/toolgate/pkg/agent"
)

// TraceparentAnnotation is where an agent's client puts its W3C trace context on an
// AgentToolCall, so that the decision span joins the agent's trace. It is the agent's claim and
// only links spans; it decides nothing.
const TraceparentAnnotation = agent.TraceparentAnnotation

const instrumentation = "github.com/toolgate/toolgate/internal/tracing"

// Configured says whether the environment names an OTLP endpoint and does not turn the SDK off
// (OTEL_SDK_DISABLED=true, the specification's switch for every signal).
func Configured() bool {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// FromEnvironment starts exporting spans when the environment names an OTLP endpoint
// (Configured), and returns whether it did and what flushes the spans at exit (a no-op when off).
func FromEnvironment(ctx context.Context, service, version string) (stop func(), on bool, err error) {
	if !Configured() {
		return func() {}, false, nil
	}
	shutdown, err := Start(ctx, service, version)
	if err != nil {
		return nil, false, err
	}
	return func() { _ = shutdown(context.WithoutCancel(ctx)) }, true, nil
}

// Start installs a global tracer provider that exports over OTLP/gRPC with opts, or, when opts
// is empty, as the environment says (newExporter), and returns its shutdown, which flushes what
// is buffered.
func Start(ctx context.Context, service, version string, opts ...otlptracegrpc.Option) (func(context.Context) error, error) {
	exporter, err := newExporter(ctx, opts)
	if err != nil {
		return nil, err
	}
	res, err := sdkresource.Merge(sdkresource.Default(), sdkresource.NewSchemaless(
		semconv.ServiceName(service), semconv.ServiceVersion(version)))
	if err != nil {
		return nil, err
	}
	// The environment's resource (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) is the platform's
	// word and comes last, so a platform can name the service as it names its other workloads.
	fromEnv, err := sdkresource.New(ctx, sdkresource.WithFromEnv())
	if err != nil {
		return nil, err
	}
	if res, err = sdkresource.Merge(res, fromEnv); err != nil {
		return nil, err
	}
	// Every decision is sampled: the agent's trace context only links the span, and a "not sampled"
	// flag on it must not let an agent keep its decisions out of the platform's traces.
	sampler := sdktrace.ParentBased(sdktrace.AlwaysSample(), sdktrace.WithRemoteParentNotSampled(sdktrace.AlwaysSample()))
	provider := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res), sdktrace.WithSampler(sampler))
	otel.SetTracerProvider(provider)
	return provider.Shutdown, nil
}

// newExporter is the OTLP exporter: gRPC with opts when given; otherwise the protocol the
// environment names (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL):
// grpc (the default when unset, as before) or http/protobuf, each configured by the exporter's own
// OTEL_EXPORTER_OTLP_* variables. http/json, which the Go exporters do not speak, is an error
// rather than spans silently lost.
func newExporter(ctx context.Context, opts []otlptracegrpc.Option) (sdktrace.SpanExporter, error) {
	if len(opts) == 0 {
		protocol := strings.TrimSpace(os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"))
		if protocol == "" {
			protocol = strings.TrimSpace(os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL"))
		}
		switch protocol {
		case "", "grpc":
		case "http/protobuf":
			return otlptracehttp.New(ctx)
		default:
			return nil, fmt.Errorf("OTLP protocol %q: toolgate exports traces over grpc or http/protobuf", protocol)
		}
	}
	return otlptracegrpc.New(ctx, opts...)
}

// Decision is what one span records.
type Decision struct {
	Namespace, Plan, Call, CallUID, Tool, Step string
	Decision, Reason, Mode, Snapshot           string
	// Rule is the check or rule that decided, when known.
	Rule string
	// Traceparent is the call's TraceparentAnnotation ("" for none).
	Traceparent string
}

type startKey struct{}

// WithStart notes in ctx when the decision's work began (the request's arrival), which Record
// takes as its span's start, so the span covers the decoding, the engine, the ledger's durable
// write and the plan's counters. A start already noted is kept: the earliest caller wins.
func WithStart(ctx context.Context, at time.Time) context.Context {
	if _, ok := ctx.Value(startKey{}).(time.Time); ok {
		return ctx
	}
	return context.WithValue(ctx, startKey{}, at)
}

// Record emits the decision's span: named and attributed as a GenAI execute_tool span, with
// toolgate's verdict as toolgate.* attributes, a child of the agent's trace when the call carries
// one. A denial sets the span's status to Error with the reason.
func Record(ctx context.Context, d Decision) {
	if d.Traceparent != "" {
		ctx = propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": d.Traceparent})
	}
	attrs := []attribute.KeyValue{
		attribute.String("gen_ai.operation.name", "execute_tool"),
		attribute.String("gen_ai.tool.name", d.Tool),
		attribute.String("gen_ai.tool.call.id", firstOf(d.CallUID, d.Call)),
		attribute.String("k8s.namespace.name", d.Namespace),
		attribute.String("toolgate.plan", d.Plan),
		attribute.String("toolgate.call", d.Call),
		attribute.String("toolgate.step", d.Step),
		attribute.String("toolgate.decision", d.Decision),
		attribute.String("toolgate.reason", d.Reason),
		attribute.String("toolgate.mode", d.Mode),
		attribute.String("toolgate.snapshot", d.Snapshot),
	}
	if d.Rule != "" {
		attrs = append(attrs, attribute.String("toolgate.rule", d.Rule))
	}
	opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...)}
	if at, ok := ctx.Value(startKey{}).(time.Time); ok {
		opts = append(opts, trace.WithTimestamp(at))
	}
	_, span := otel.Tracer(instrumentation).Start(ctx, "execute_tool "+d.Tool, opts...)
	if d.Decision == "deny" {
		span.SetStatus(codes.Error, d.Reason)
	}
	span.End()
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
