package v1alpha1_test

import (
	"encoding/hex"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.opentelemetry.io/otel/trace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/internal/tracing"
	"github.com/toolgate/toolgate/pkg/agent"
)

var _ = Describe("Decision traces (OpenTelemetry)", func() {
	It("emits one execute_tool span per decision, in the agent's trace, with the verdict as attributes", func() {
		receiver, shutdown := tracedToReceiver()

		p := newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: p.profile(profileWith(nil))})
		const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
		denied := p.call(planName, p.tools[reader], "peek", ".env")
		denied.GenerateName, denied.Name = "", "peek-at-env"
		tid, err := trace.TraceIDFromHex(traceID)
		Expect(err).NotTo(HaveOccurred())
		sid, err := trace.SpanIDFromHex(parentID)
		Expect(err).NotTo(HaveOccurred())
		agentCtx := trace.ContextWithRemoteSpanContext(ctx, trace.NewSpanContext(trace.SpanContextConfig{
			TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, Remote: true}))
		By("the agent's client (pkg/agent) carries its span context on the call")
		Expect(agent.ReasonOf(agent.Submit(agentCtx, p.agent, denied))).To(Equal(safety.ReasonToolAccessDenied))
		By("an agent that marks its context not sampled still gets its decision traced")
		unsampled := p.call(planName, p.tools[reader], "peek-again", ".env")
		unsampled.GenerateName, unsampled.Name = "", "peek-unsampled"
		unsampledCtx := trace.ContextWithRemoteSpanContext(ctx, trace.NewSpanContext(trace.SpanContextConfig{
			TraceID: tid, SpanID: sid, Remote: true}))
		Expect(agent.ReasonOf(agent.Submit(unsampledCtx, p.agent, unsampled))).To(Equal(safety.ReasonToolAccessDenied))
		allowed := p.call(planName, p.tools[reader], "read", "src/main.go")
		allowed.GenerateName, allowed.Name = "", "read-main"
		mustAdmit(submit(p.agent, allowed))
		By("a traceparent the agent mangles, inflates or flags changes no decision and fails nothing")
		mangled := map[string]string{
			"tp-garbage":   "not a traceparent",
			"tp-zero-id":   "00-00000000000000000000000000000000-" + parentID + "-01",
			"tp-flags":     "00-" + traceID + "-" + parentID + "-ff", // reserved bits: invalid in version 00
			"tp-oversized": "00-" + traceID + "-" + parentID + "-01-" + strings.Repeat("x", 100_000),
		}
		for name, tp := range mangled {
			c := p.call(planName, p.tools[reader], name, ".env")
			c.GenerateName, c.Name = "", name
			c.Annotations = map[string]string{tracing.TraceparentAnnotation: tp}
			mustDeny(submit(p.agent, c), safety.ReasonToolAccessDenied)
		}

		Expect(shutdown(ctx)).To(Succeed(), "flushing the batch to the receiver")
		spans := receiver.Where("toolgate.call", "peek-at-env")
		Expect(spans).To(HaveLen(1), "one span per decision")
		s := spans[0]
		Expect(s.Name).To(Equal("execute_tool " + p.tools[reader]))
		Expect(hex.EncodeToString(s.TraceId)).To(Equal(traceID), "the decision joins the agent's trace")
		Expect(hex.EncodeToString(s.ParentSpanId)).To(Equal(parentID))
		Expect(s.Status.GetCode()).To(Equal(tracepb.Status_STATUS_CODE_ERROR))
		a := testenv.SpanAttrs(s)
		Expect(a).To(HaveKeyWithValue("gen_ai.operation.name", "execute_tool"))
		Expect(a).To(HaveKeyWithValue("gen_ai.tool.name", p.tools[reader]))
		Expect(a).To(HaveKeyWithValue("toolgate.decision", "deny"))
		Expect(a).To(HaveKeyWithValue("toolgate.reason", safety.ReasonToolAccessDenied))
		Expect(a).To(HaveKeyWithValue("toolgate.plan", planName))
		Expect(a).To(HaveKeyWithValue("toolgate.mode", "Enforce"))
		Expect(a).To(HaveKeyWithValue("toolgate.snapshot", HavePrefix("sha256:")))
		Expect(a).To(HaveKeyWithValue("k8s.namespace.name", p.ns))
		Expect(a).To(HaveKeyWithValue("toolgate.rule", "path-policy:zeroAccess"), "the deciding rule")
		for name := range mangled {
			spans := receiver.Where("toolgate.call", name)
			Expect(spans).To(HaveLen(1), name)
			Expect(spans[0].ParentSpanId).To(BeEmpty(), name+": an invalid parent links nothing")
			Expect(testenv.SpanAttrs(spans[0])).To(HaveKeyWithValue("toolgate.reason", safety.ReasonToolAccessDenied), name)
		}

		Expect(receiver.Where("toolgate.call", "peek-unsampled")).To(HaveLen(1), "a not-sampled parent does not hide the decision")

		By("a call without trace context gets a root span of its own")
		spans = receiver.Where("toolgate.call", "read-main")
		Expect(spans).To(HaveLen(1))
		Expect(spans[0].ParentSpanId).To(BeEmpty())
		Expect(testenv.SpanAttrs(spans[0])).To(HaveKeyWithValue("toolgate.decision", "allow"))
	})
})
