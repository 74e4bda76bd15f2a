package v1alpha1

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// A report counted at admission whose store then failed is sent again from the same stored call
// (the same resourceVersion): the plan is charged once for it, and only what a larger resend adds.
// A report from the call's next stored state, or another call's, counts on its own.
func TestAReportSentAgainFromTheSameStoredCallIsCountedOnce(t *testing.T) {
	h, _ := newBenchAgentToolCallHandler(t)
	accumulated := func() string {
		t.Helper()
		p := h.usage.plans[types.NamespacedName{Namespace: "ns", Name: "p"}]
		if p == nil {
			t.Fatal("the plan has no counters")
		}
		return p.u.Accumulated.String()
	}
	report := func(old *safetyv1alpha1.AgentToolCall, cost string) *safetyv1alpha1.AgentToolCall {
		t.Helper()
		call := old.DeepCopy()
		call.Status.Phase = safetyv1alpha1.CallPhaseSucceeded
		call.Status.Cost = new(resource.MustParse(cost))
		if err := h.countReport(t.Context(), old, call); err != nil {
			t.Fatal(err)
		}
		return call
	}
	stored := benchCall("c", "read-file", "") // costs nothing at admission: what is counted is the reports
	stored.UID, stored.ResourceVersion = "uid-c", "7"
	for _, step := range []struct {
		name, cost, want string
		from             *safetyv1alpha1.AgentToolCall
	}{
		{"the first report", "0.4", "0.4", stored},
		{"the same report again, its store having failed", "0.4", "0.4", stored},
		{"a smaller one from the same state", "0.1", "0.4", stored},
		{"a larger one from the same state: only what it adds", "0.5", "0.5", stored},
	} {
		report(step.from, step.cost)
		if got := accumulated(); got != mustMoney(t, step.want).String() {
			t.Fatalf("%s: accumulatedCost %s, want %s", step.name, got, step.want)
		}
	}
	next := stored.DeepCopy() // the report of 0.5 stored
	next.ResourceVersion, next.Status.Cost = "8", new(resource.MustParse("0.5"))
	report(next, "0.9")
	if got, want := accumulated(), mustMoney(t, "0.9").String(); got != want {
		t.Fatalf("a report from the next stored state: accumulatedCost %s, want %s", got, want)
	}
	other := benchCall("d", "read-file", "")
	other.UID, other.ResourceVersion = "uid-d", "7" // the same resourceVersion, another call
	report(other, "0.3")
	if got, want := accumulated(), mustMoney(t, "1.2").String(); got != want {
		t.Fatalf("another call's report: accumulatedCost %s, want %s", got, want)
	}
}

// The memory of counted reports is bounded: once a plan holds maxReportMemo, a new call's report
// makes room, the oldest entries first.
func TestTheReportsCountedAreRememberedWithinABound(t *testing.T) {
	p := &planCounters{}
	start := benchStart
	for i := range maxReportMemo {
		p.rememberReport(types.UID(fmt.Sprintf("old-%d", i)), countedReport{at: start})
	}
	if len(p.reports) != maxReportMemo {
		t.Fatalf("%d reports remembered, want %d", len(p.reports), maxReportMemo)
	}
	later := start.Add(reportMemoTTL + 1)
	p.rememberReport("new", countedReport{at: later})
	if len(p.reports) != 1 {
		t.Errorf("after the TTL, %d reports remembered, want only the new one", len(p.reports))
	}
	for i := range maxReportMemo + 10 {
		p.rememberReport(types.UID(fmt.Sprintf("new-%d", i)), countedReport{at: later})
	}
	if len(p.reports) > maxReportMemo {
		t.Errorf("%d reports remembered, more than %d", len(p.reports), maxReportMemo)
	}
}

func mustMoney(t *testing.T, s string) safety.Money {
	t.Helper()
	m, err := safety.ParseMoney(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
