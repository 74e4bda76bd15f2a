package gateway_test

import (
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/pkg/agent"
)

// The gateway's own spans: a server span per tools/call in the MCP client's trace, and under it
// the AgentToolCall's create (whose context the call carries, so the webhook's decision span is
// its child) and the call sent upstream (whose context the upstream receives). Before, the
// gateway emitted none: a trace showed the agent's call and toolgate's verdict, and nothing of
// the time between them or of the tool's run.
var _ = Describe("the gateway's spans", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
		recorder *tracetest.SpanRecorder
		session  *mcp.ClientSession
	)
	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	const traceparent = "00-" + traceID + "-" + parentID + "-01"

	BeforeAll(func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o600)).To(Succeed())
		var stop func()
		upstream, stop = startUpstream(dir)
		DeferCleanup(stop)
		w = newWorld("gwspans-", upstream.URL, "read_file")
		recorder = tracetest.NewSpanRecorder()
		provider := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))
		session = connectedTo(startGateway(func(o *gateway.Options) { o.TracerProvider = provider }), w.token)
	})

	call := func(step string, meta mcp.Meta, args map[string]any) *mcp.CallToolResult {
		GinkgoHelper()
		meta["safety.toolgate.dev/step"] = step
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: args, Meta: meta})
		Expect(err).NotTo(HaveOccurred())
		return res
	}
	// named are the ended spans of trace named name.
	named := func(trace trace.TraceID, name string) []sdktrace.ReadOnlySpan {
		var out []sdktrace.ReadOnlySpan
		for _, s := range recorder.Ended() {
			if s.SpanContext().TraceID() == trace && s.Name() == name {
				out = append(out, s)
			}
		}
		return out
	}
	one := func(trace trace.TraceID, name string) sdktrace.ReadOnlySpan {
		GinkgoHelper()
		spans := named(trace, name)
		Expect(spans).To(HaveLen(1), "spans named %q in trace %s", name, trace)
		return spans[0]
	}
	attr := func(s sdktrace.ReadOnlySpan, key string) string {
		for _, kv := range s.Attributes() {
			if kv.Key == attribute.Key(key) {
				return kv.Value.AsString()
			}
		}
		return ""
	}
	annotationOf := func(step string) string {
		GinkgoHelper()
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		for _, c := range calls.Items {
			if c.Spec.Step == step {
				return c.Annotations[agent.TraceparentAnnotation]
			}
		}
		Fail("no call of step " + step)
		return ""
	}

	It("puts an admitted call, its create and its upstream call in the client's trace, and the upstream in it too", func() {
		Expect(call("read", mcp.Meta{"traceparent": traceparent}, map[string]any{"path": "notes.txt"}).IsError).To(BeFalse())
		tid, _ := trace.TraceIDFromHex(traceID)
		server := one(tid, "tools/call "+w.readTool)
		Expect(server.SpanKind()).To(Equal(trace.SpanKindServer))
		Expect(server.Parent().SpanID().String()).To(Equal(parentID), "a child of the client's span")
		Expect(attr(server, "mcp.method.name")).To(Equal("tools/call"))
		Expect(attr(server, "gen_ai.tool.name")).To(Equal(w.readTool))
		Expect(attr(server, "toolgate.decision")).To(Equal("allow"))
		Expect(server.Status().Code).To(Equal(codes.Unset))

		create := one(tid, "create AgentToolCall")
		Expect(create.Parent().SpanID()).To(Equal(server.SpanContext().SpanID()))
		Expect(attr(create, "toolgate.call")).NotTo(BeEmpty())
		Expect(annotationOf("read")).To(Equal("00-"+traceID+"-"+create.SpanContext().SpanID().String()+"-01"),
			"the call carries the create's context: the webhook's decision span is the create's child")

		sent := one(tid, "tools/call read_file")
		Expect(sent.SpanKind()).To(Equal(trace.SpanKindClient))
		Expect(sent.Parent().SpanID()).To(Equal(server.SpanContext().SpanID()))
		upstream.mu.Lock()
		got := upstream.traceparents[len(upstream.traceparents)-1]
		upstream.mu.Unlock()
		Expect(got).To(Equal("00-"+traceID+"-"+sent.SpanContext().SpanID().String()+"-01"),
			"the upstream receives the context of the call sent to it")
	})

	It("marks a denial on the call's span and sends nothing upstream", func() {
		const deniedTrace = "5bf92f3577b34da6a3ce929d0e0e4736"
		res := call("peek", mcp.Meta{"traceparent": "00-" + deniedTrace + "-" + parentID + "-01"}, map[string]any{"path": ".env"})
		Expect(res.IsError).To(BeTrue())
		tid, _ := trace.TraceIDFromHex(deniedTrace)
		server := one(tid, "tools/call "+w.readTool)
		Expect(server.Status().Code).To(Equal(codes.Error))
		Expect(server.Status().Description).To(Equal("ToolAccessDenied"))
		Expect(attr(server, "toolgate.decision")).To(Equal("deny"))
		Expect(attr(server, "toolgate.reason")).To(Equal("ToolAccessDenied"))
		Expect(attr(one(tid, "create AgentToolCall"), "toolgate.reason")).To(Equal("ToolAccessDenied"))
		Expect(named(tid, "tools/call read_file")).To(BeEmpty())
	})

	It("starts a trace of its own for a call without trace context, or with one that does not parse", func() {
		for _, meta := range []mcp.Meta{{}, {"traceparent": "not a traceparent"}, {"traceparent": 42}} {
			before := len(recorder.Ended())
			call("untraced", meta, map[string]any{"path": "notes.txt"})
			var server sdktrace.ReadOnlySpan
			for _, s := range recorder.Ended()[before:] {
				if s.Name() == "tools/call "+w.readTool {
					server = s
				}
			}
			Expect(server).NotTo(BeNil(), "%v", meta)
			Expect(server.Parent().IsValid()).To(BeFalse(), "%v: a root span", meta)
			Expect(one(server.SpanContext().TraceID(), "create AgentToolCall")).NotTo(BeNil())
		}
	})

	It("names no span after a tool the gateway does not offer: the name is the agent's text", func() {
		before := len(recorder.Ended())
		_, _ = session.CallTool(ctx, &mcp.CallToolParams{Name: "no-such-tool-" + w.ns, Arguments: map[string]any{}})
		ended := recorder.Ended()[before:]
		names := make([]string, 0, len(ended))
		for _, s := range ended {
			names = append(names, s.Name())
		}
		Expect(names).To(ContainElement("tools/call"))
		Expect(names).NotTo(ContainElement(ContainSubstring("no-such-tool")))
	})
})
