package v1alpha1_test

import (
	"encoding/json"
	"math"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/safety"
)

// A server span is how a trace shows where the time of a request went: the decision span of an
// AgentToolCall should cover toolgate's work on it (the engine, the durable ledger write, the
// plan's counters), as an HTTP server span covers its handler. It once started after the
// ledger had recorded the decision (a span of a few microseconds), so a trace could never show a
// slow ledger volume or status write as toolgate's share of a tool call; now it starts when the
// review arrives (tracing.WithStart).
var _ = Describe("Decision traces: the span's time", func() {
	It("starts before the decision is recorded in the ledger", func() {
		receiver, shutdown := tracedToReceiver()

		p := newProject(nil)
		p.plan(planName, safetyv1alpha1.AgentPlanSpec{ProfileRef: p.profile(profileWith(nil))})
		denied := p.call(planName, p.tools[reader], "peek", ".env")
		denied.GenerateName, denied.Name = "", "span-time-peek"
		mustDeny(submit(p.agent, denied), safety.ReasonToolAccessDenied)
		Expect(shutdown(ctx)).To(Succeed())

		spans := receiver.Where("toolgate.call", "span-time-peek")
		Expect(spans).To(HaveLen(1))
		start := time.Unix(0, int64(min(spans[0].StartTimeUnixNano, math.MaxInt64)))

		lines, err := ledger.Tail(ledgerDir, 200)
		Expect(err).NotTo(HaveOccurred())
		var recorded time.Time
		for _, l := range lines {
			var r struct {
				Time   time.Time `json:"time"`
				Kind   string    `json:"kind"`
				Fields struct {
					Call      string `json:"call"`
					Namespace string `json:"namespace"`
				} `json:"fields"`
			}
			Expect(json.Unmarshal(l, &r)).To(Succeed())
			if r.Kind == "decision" && r.Fields.Call == "span-time-peek" && r.Fields.Namespace == p.ns {
				recorded = r.Time
			}
		}
		Expect(recorded.IsZero()).To(BeFalse(), "the decision is in the ledger")
		Expect(start.After(recorded)).To(BeFalse(),
			"the decision span starts at %s, after the ledger recorded the decision at %s: it does not cover the decision's work",
			start.UTC().Format(time.RFC3339Nano), recorded.UTC().Format(time.RFC3339Nano))
	})
})
