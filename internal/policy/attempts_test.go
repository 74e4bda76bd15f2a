package policy

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

func TestUsageCountersOnlyGrow(t *testing.T) {
	m := safety.MustParseMoney
	u := Usage{}
	u.Admit("build", m("0.5"))
	u.Admit("build", m("0.5"))
	u.Admit("test", safety.Money{})
	for _, r := range []struct {
		name             string
		reserve, old, to safety.Money
		grow             safety.Money
	}{
		{"a report below the reservation adds nothing to the cost", m("0.5"), safety.Money{}, m("0.2"), safety.Money{}},
		{"raising it above the reservation adds the excess", m("0.5"), m("0.2"), m("0.8"), m("0.3")},
		{"a call without a reservation costs what is reported", safety.Money{}, safety.Money{}, m("1.25"), m("1.25")},
		{"a lower report changes nothing", m("0.5"), m("0.8"), m("0.1"), safety.Money{}},
	} {
		if got := u.Report(r.reserve, r.old, r.to); got != r.grow {
			t.Errorf("%s: grew %s, want %s", r.name, got, r.grow)
		}
	}
	var status safetyv1alpha1.PlanUsage
	u.Into(&status)
	want := safetyv1alpha1.PlanUsage{
		Calls: 3, AccumulatedCost: "2.55", ReservedCost: "1", ReportedCost: "2.05",
		StepAttempts: map[string]int32{"build": 2, "test": 1},
	}
	if diff := cmp.Diff(want, status); diff != "" {
		t.Errorf("usage (-want +got):\n%s", diff)
	}
	back, err := UsageOf(&safetyv1alpha1.AgentPlan{Status: safetyv1alpha1.AgentPlanStatus{Usage: status}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(u, back, cmp.Comparer(func(a, b safety.Money) bool { return a == b })); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestCheckStep(t *testing.T) {
	plan := func(steps ...string) *safetyv1alpha1.AgentPlan {
		return &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: safetyv1alpha1.AgentPlanSpec{Steps: steps}}
	}
	used := Usage{Steps: map[string]int32{"build": 4, "test": 1}}
	for _, tc := range []struct {
		name   string
		plan   *safetyv1alpha1.AgentPlan
		step   string
		limit  int32
		reason string
	}{
		{"a declared step", plan("build", "test"), "build", 1, ""},
		{"a declared step not used yet", plan("build", "deploy"), "deploy", 1, ""},
		{"a step the plan does not declare", plan("build", "test"), "build-2", 100, ReasonStepNotInPlan},
		{"a known step at the limit", plan(), "test", 2, ""},
		{"a new step below the limit", plan(), "lint", 3, ""},
		{"a new step at the limit", plan(), "build-2", 2, ReasonStepLimitExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, msg := CheckStep(tc.plan, used, tc.step, tc.limit); got != tc.reason {
				t.Errorf("CheckStep = %q (%s), want %q", got, msg, tc.reason)
			}
		})
	}
}

func TestCostReporterUser(t *testing.T) {
	p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: "team"}}
	for _, tc := range []struct {
		reporter *safetyv1alpha1.CostReporter
		want     string
	}{
		{nil, ""},
		{&safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "gateway"}, "system:serviceaccount:team:gateway"},
		{&safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "meter", Namespace: "billing"}, "system:serviceaccount:billing:meter"},
		{&safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterUser, Name: "llm-proxy"}, "llm-proxy"},
	} {
		p.Spec.CostReporter = tc.reporter
		if got := CostReporterUser(p); got != tc.want {
			t.Errorf("CostReporterUser(%+v) = %q, want %q", tc.reporter, got, tc.want)
		}
	}
}

// A plan counted before stepAttempts existed keeps every count: UsageOf reads the legacy list
// (the larger count where both name a step), and the next write moves it into stepAttempts.
func TestLegacyStepCountsMove(t *testing.T) {
	plan := &safetyv1alpha1.AgentPlan{Status: safetyv1alpha1.AgentPlanStatus{Usage: safetyv1alpha1.PlanUsage{
		Calls:        7,
		Steps:        []safetyv1alpha1.StepUsage{{Step: "build", Attempts: 4}, {Step: "test", Attempts: 2}},
		StepAttempts: map[string]int32{"test": 1, "lint": 1},
	}}}
	for step, want := range map[string]int32{"build": 4, "test": 2, "lint": 1, "deploy": 0} {
		if got := StepAttempts(plan, step); got != want {
			t.Errorf("StepAttempts(%s) = %d, want %d", step, got, want)
		}
	}
	u, err := UsageOf(plan)
	if err != nil {
		t.Fatal(err)
	}
	u.Admit("build", safety.Money{})
	u.Into(&plan.Status.Usage)
	if plan.Status.Usage.Steps != nil {
		t.Errorf("legacy steps = %v after a write, want none", plan.Status.Usage.Steps)
	}
	if diff := cmp.Diff(map[string]int32{"build": 5, "test": 2, "lint": 1}, plan.Status.Usage.StepAttempts); diff != "" {
		t.Errorf("stepAttempts (-want +got):\n%s", diff)
	}
}

func TestHoldFor(t *testing.T) {
	reporter := &safetyv1alpha1.CostReporter{Kind: safetyv1alpha1.CostReporterServiceAccount, Name: "meter"}
	tool := func(cost, most string) *safetyv1alpha1.AgentTool {
		tl := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: "t"}}
		if cost != "" {
			tl.Spec.CostPerCall = new(resource.MustParse(cost))
		}
		if most != "" {
			tl.Spec.MaxCostPerCall = new(resource.MustParse(most))
		}
		return tl
	}
	for _, tc := range []struct {
		name     string
		reporter *safetyv1alpha1.CostReporter
		tool     *safetyv1alpha1.AgentTool
		want     string
	}{
		{"the ceiling less the price", reporter, tool("0.1", "1"), "0.9"},
		{"the whole ceiling of a tool without a price", reporter, tool("", "2.5"), "2.5"},
		{"nothing for a plan without a reporter: its calls cost their price", nil, tool("0.1", "1"), "0"},
		{"nothing for a tool without a ceiling", reporter, tool("0.1", ""), "0"},
		{"nothing for a ceiling under the price", reporter, tool("1", "0.5"), "0"},
	} {
		plan := &safetyv1alpha1.AgentPlan{Spec: safetyv1alpha1.AgentPlanSpec{CostReporter: tc.reporter},
			Status: safetyv1alpha1.AgentPlanStatus{Snapshot: &safetyv1alpha1.PlanSnapshot{
				Safety: safetyv1alpha1.SafetyProfileSpec{MaxTotalCost: new(resource.MustParse("100"))}}}}
		got, err := HoldFor(plan, tc.tool)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != safety.MustParseMoney(tc.want) {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	unbudgeted := &safetyv1alpha1.AgentPlan{Spec: safetyv1alpha1.AgentPlanSpec{CostReporter: reporter},
		Status: safetyv1alpha1.AgentPlanStatus{Snapshot: &safetyv1alpha1.PlanSnapshot{}}}
	if got, err := HoldFor(unbudgeted, tool("0.1", "1")); err != nil || !got.IsZero() {
		t.Errorf("a plan without a budget holds %s (%v), want nothing", got, err)
	}
}

// A re-lock clears the pins; the next call of the tool pins it anew, in its own admission: that
// call, created before its pin was stamped (in whole seconds, usually the same one), reserved the
// new price as every later call did. Only calls from before the re-lock reserved a price the plan
// no longer holds.
func TestReservedByIsThePricePinnedWhenTheCallWasAdmitted(t *testing.T) {
	relocked := metav1.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	tool := &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: "t"},
		Spec: safetyv1alpha1.AgentToolSpec{CostPerCall: new(resource.MustParse("5"))}}
	plan := func(epoch int32, pinnedAfter time.Duration) *safetyv1alpha1.AgentPlan {
		p := &safetyv1alpha1.AgentPlan{Status: safetyv1alpha1.AgentPlanStatus{
			Snapshot: &safetyv1alpha1.PlanSnapshot{Epoch: epoch, LockedAt: relocked}}}
		if pinnedAfter >= 0 {
			p.Status.Tools = []safetyv1alpha1.PinnedTool{{Name: "t", CostPerCall: new(resource.MustParse("5")),
				PinnedAt: metav1.NewTime(relocked.Add(pinnedAfter)), Epoch: epoch}}
		}
		return p
	}
	call := func(at time.Duration) *safetyv1alpha1.AgentToolCall {
		return &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(relocked.Add(at))}}
	}
	for _, tt := range []struct {
		name string
		plan *safetyv1alpha1.AgentPlan
		call *safetyv1alpha1.AgentToolCall
		want string
	}{
		{"a plan never re-locked: the one pin", plan(1, 0), call(-time.Hour), "5"},
		{"after a re-lock, the call that made the new pin, in the pin's second", plan(2, time.Minute), call(time.Minute), "5"},
		{"after a re-lock, a call a second after the new pin", plan(2, time.Minute), call(time.Minute + time.Second), "5"},
		{"after a re-lock, a call in the re-lock's second: not provably after it", plan(2, time.Minute), call(0), "0"},
		{"after a re-lock, a call before it", plan(2, time.Minute), call(-time.Minute), "0"},
		{"after a re-lock, a call after it whose pin is not stored yet: the tool's price", plan(3, -1), call(time.Hour), "5"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReservedBy(tt.plan, ToolAsPinned(tt.plan, tool), tt.call)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got.String()); diff != "" {
				t.Errorf("ReservedBy (-want +got):\n%s", diff)
			}
		})
	}
}
