package v1alpha1

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// A report counted at admission whose store then failed is sent again from the same stored call,
// or asked about again by the API server with the call changed otherwise meanwhile (a phase the
// agent reported): the plan is charged once for it, and only what a larger resend adds. A report
// from the call's next stored cost, or another call's, counts on its own.
func TestAReportSentAgainFromTheSameStoredCostIsCountedOnce(t *testing.T) {
	h, _ := newBenchAgentToolCallHandler(t)
	accumulated := func() string {
		t.Helper()
		p := h.usage.plans[types.NamespacedName{Namespace: "ns", Name: "p"}]
		if p == nil {
			t.Fatal("the plan has no counters")
		}
		return p.u.Accumulated.String()
	}
	report := func(old *safetyv1alpha1.AgentToolCall, cost string) {
		t.Helper()
		call := old.DeepCopy()
		call.Status.Phase = safetyv1alpha1.CallPhaseSucceeded
		call.Status.Cost = new(resource.MustParse(cost))
		if err := h.settleReport(t.Context(), "", old, call); err != nil {
			t.Fatal(err)
		}
	}
	stored := benchCall("c", "read-file", "") // costs nothing at admission: what is counted is the reports
	stored.UID, stored.ResourceVersion, stored.CreationTimestamp = "uid-c", "7", metav1.Now()
	running := stored.DeepCopy() // the agent's phase stored meanwhile: the cost is as it was
	running.ResourceVersion, running.Status.Phase = "8", safetyv1alpha1.CallPhaseRunning
	reported := stored.DeepCopy() // the report of 0.5 stored at last
	reported.ResourceVersion, reported.Status.Cost = "9", new(resource.MustParse("0.5"))
	other := benchCall("d", "read-file", "")
	other.UID, other.ResourceVersion, other.CreationTimestamp = "uid-d", "7", metav1.Now()
	for _, step := range []struct {
		name, cost, want string
		from             *safetyv1alpha1.AgentToolCall
	}{
		{"the first report", "0.4", "0.4", stored},
		{"the same report again, its store having failed", "0.4", "0.4", stored},
		{"the same report asked about again, the call's phase changed meanwhile", "0.4", "0.4", running},
		{"a smaller one from the same cost", "0.1", "0.4", stored},
		{"a larger one from the same cost: only what it adds", "0.5", "0.5", stored},
		{"one from the next stored cost", "0.9", "0.9", reported},
		{"another call's, from the same resourceVersion", "0.3", "1.2", other},
	} {
		report(step.from, step.cost)
		if got := accumulated(); got != mustMoney(t, step.want).String() {
			t.Fatalf("%s: accumulatedCost %s, want %s", step.name, got, step.want)
		}
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

// A replica that decides a plan again in a new term merges its counters with what another
// replica decided and stored meanwhile, by maximum: a report it counted before may be lost in the
// merge, so the reports it remembers go, and one sent again is counted again.
func TestAReportSentAgainAfterAnotherReplicaDecidedIsCountedAgain(t *testing.T) {
	h, _ := newBenchAgentToolCallHandler(t)
	term := uint64(1)
	h.usage.term = func() uint64 { return term }
	stored := benchCall("c", "read-file", "")
	stored.UID, stored.ResourceVersion, stored.CreationTimestamp = "uid-c", "7", metav1.Now()
	call := stored.DeepCopy()
	call.Status.Phase, call.Status.Cost = safetyv1alpha1.CallPhaseSucceeded, new(resource.MustParse("0.4"))
	if err := h.settleReport(t.Context(), "", stored, call); err != nil { // counted; its store fails
		t.Fatal(err)
	}

	// Another replica decided the plan meanwhile, and stored 1 spent without this report.
	key := types.NamespacedName{Namespace: "ns", Name: "p"}
	api := h.usage.live.(client.Client)
	plan := &safetyv1alpha1.AgentPlan{}
	if err := api.Get(t.Context(), key, plan); err != nil {
		t.Fatal(err)
	}
	plan.Status.Usage.AccumulatedCost = "1"
	if err := api.Status().Update(t.Context(), plan); err != nil {
		t.Fatal(err)
	}
	term = 2 // this replica decides again

	if err := h.settleReport(t.Context(), "", stored, call); err != nil { // the reporter's retry
		t.Fatal(err)
	}
	if got, want := h.usage.plans[key].u.Accumulated.String(), mustMoney(t, "1.4").String(); got != want {
		t.Fatalf("accumulatedCost %s, want %s: the report lost in the merge must be counted again", got, want)
	}
}
