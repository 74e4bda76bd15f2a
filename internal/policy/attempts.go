package policy

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// Usage is a plan's counters (its status.usage) in a form to decide against and add to. They only
// grow: Admit and Report add, nothing subtracts, and deleting calls changes nothing here.
type Usage struct {
	Calls       int64
	Accumulated safety.Money // sum over calls of max(reserved, reported): what maxCostPerPlan sees
	Reserved    safety.Money
	Reported    safety.Money
	Steps       map[string]int32
}

// UsageOf reads a plan's counters.
func UsageOf(plan *safetyv1alpha1.AgentPlan) (Usage, error) {
	u := plan.Status.Usage
	out := Usage{Calls: u.Calls, Steps: make(map[string]int32, len(u.Steps))}
	for _, f := range []struct {
		name string
		in   string
		out  *safety.Money
	}{{"accumulatedCost", u.AccumulatedCost, &out.Accumulated}, {"reservedCost", u.ReservedCost, &out.Reserved}, {"reportedCost", u.ReportedCost, &out.Reported}} {
		if f.in == "" {
			continue
		}
		m, err := safety.ParseMoney(f.in)
		if err != nil {
			return Usage{}, fmt.Errorf("status.usage.%s of plan %s/%s: %w", f.name, plan.Namespace, plan.Name, err)
		}
		*f.out = m
	}
	for _, s := range u.Steps { // counted before stepAttempts existed; Into moves them there
		out.Steps[s.Step] = max(out.Steps[s.Step], s.Attempts)
	}
	for step, n := range u.StepAttempts {
		out.Steps[step] = max(out.Steps[step], n)
	}
	return out, nil
}

// Clone returns an independent copy, for deciding a batch that may be thrown away.
func (u Usage) Clone() Usage {
	c := u
	c.Steps = make(map[string]int32, len(u.Steps))
	maps.Copy(c.Steps, u.Steps)
	return c
}

// Admit counts one admitted call of step that reserves reserve.
func (u *Usage) Admit(step string, reserve safety.Money) {
	u.Calls++
	if u.Steps == nil {
		u.Steps = map[string]int32{}
	}
	u.Steps[step]++
	u.Reserved = u.Reserved.SaturatingAdd(reserve)
	u.Accumulated = u.Accumulated.SaturatingAdd(reserve)
}

// Report counts a trusted report moving a call's cost from old to new (old is zero for the first
// report) for a call that reserved reserve: reportedCost grows by new-old and accumulatedCost by
// what max(reserve, cost) grew. It returns that growth.
func (u *Usage) Report(reserve, old, new safety.Money) safety.Money {
	if new.Cmp(old) <= 0 {
		return safety.Money{}
	}
	u.Reported = u.Reported.SaturatingAdd(safety.MoneyFromNanos(new.Nanos() - old.Nanos()))
	grow := safety.MoneyFromNanos(max(new.Nanos(), reserve.Nanos()) - max(old.Nanos(), reserve.Nanos()))
	u.Accumulated = u.Accumulated.SaturatingAdd(grow)
	return grow
}

// Into writes the counters into a plan's status.usage, leaving denials as they are.
func (u Usage) Into(status *safetyv1alpha1.PlanUsage) {
	status.Calls = u.Calls
	status.AccumulatedCost, status.ReservedCost, status.ReportedCost = MoneyString(u.Accumulated), MoneyString(u.Reserved), MoneyString(u.Reported)
	status.StepAttempts = nil
	if len(u.Steps) > 0 {
		status.StepAttempts = maps.Clone(u.Steps)
	}
	status.Steps = nil // the legacy list's counts are in u (UsageOf) and so in stepAttempts now
}

// MoneyString is m as a status field writes it: empty for zero (the field is omitted).
func MoneyString(m safety.Money) string {
	if m.IsZero() {
		return ""
	}
	return m.String()
}

// StepAttempts is how many calls of the plan's step were admitted, as the webhook counts them
// against maxRetriesPerStep: the plan's counter, which deleting calls never lowers.
func StepAttempts(plan *safetyv1alpha1.AgentPlan, step string) int32 {
	n := plan.Status.Usage.StepAttempts[step]
	for _, s := range plan.Status.Usage.Steps {
		if s.Step == step {
			n = max(n, s.Attempts)
		}
	}
	return n
}

// Reasons of the step rule.
const (
	ReasonStepNotInPlan     = "StepNotInPlan"
	ReasonStepLimitExceeded = "StepLimitExceeded"
)

// CheckStep is the one step rule: a plan that declares spec.steps admits only those; one that does
// not may use at most limit distinct steps (its profile's maxStepsPerPlan), counted by its usage.
// It returns the reason and message of a refusal, or "" to go on.
func CheckStep(plan *safetyv1alpha1.AgentPlan, u Usage, step string, limit int32) (reason, message string) {
	if len(plan.Spec.Steps) > 0 {
		if slices.Contains(plan.Spec.Steps, step) {
			return "", ""
		}
		return ReasonStepNotInPlan, fmt.Sprintf("plan %s declares the steps %s, and %q is not one of them",
			plan.Name, strings.Join(plan.Spec.Steps, ", "), step)
	}
	if _, seen := u.Steps[step]; seen || int32(len(u.Steps)) < limit {
		return "", ""
	}
	return ReasonStepLimitExceeded, fmt.Sprintf(
		"plan %s already has %d steps, the most its profile allows (maxStepsPerPlan %d); finish it and start a new plan, or declare its steps",
		plan.Name, len(u.Steps), limit)
}

// CostPerCall is what a call of tool reserves when it is admitted (spec.costPerCall; unset is zero).
func CostPerCall(tool *safetyv1alpha1.AgentTool) (safety.Money, error) {
	if tool.Spec.CostPerCall == nil {
		return safety.Money{}, nil
	}
	m, err := MoneyFromQuantity(*tool.Spec.CostPerCall)
	if err != nil {
		return safety.Money{}, fmt.Errorf("spec.costPerCall of AgentTool %s: %w", tool.Name, err)
	}
	return m, nil
}

// ReservedBy is what call reserved when it was admitted, as far as plan can still tell, for
// counting a report of it: its tool's costPerCall as the plan pins it now (tool as ToolAsPinned
// gives it). A re-lock clears the pins, and the next call pins the tool anew, perhaps at another
// price: a call admitted before the re-lock (created no later than the snapshot's lockedAt, in
// whole seconds) reserved at a price the plan no longer holds, so it counts as having reserved
// nothing and its report is counted in full, more and never less; counted against the new price,
// what it reported up to that price was counted nowhere. Every call after the re-lock, the one
// that makes the new pin included, reserved the new price. A plan never re-locked has one pin per
// tool, made by its first call before that call was admitted.
func ReservedBy(plan *safetyv1alpha1.AgentPlan, tool *safetyv1alpha1.AgentTool, call *safetyv1alpha1.AgentToolCall) (safety.Money, error) {
	if snap := plan.Status.Snapshot; snap != nil && snap.Epoch > 1 && !call.CreationTimestamp.After(snap.LockedAt.Time) {
		return safety.Money{}, nil
	}
	return CostPerCall(tool)
}

// ReportedCost is a call's status.cost as money; unset is zero.
func ReportedCost(q *resource.Quantity) (safety.Money, error) {
	if q == nil {
		return safety.Money{}, nil
	}
	return MoneyFromQuantity(*q)
}

// CostReporterUser is the username the API server authenticates a plan's cost reporter as, or ""
// when the plan names none.
func CostReporterUser(plan *safetyv1alpha1.AgentPlan) string {
	r := plan.Spec.CostReporter
	switch {
	case r == nil:
		return ""
	case r.Kind == safetyv1alpha1.CostReporterUser:
		return r.Name
	}
	ns := r.Namespace
	if ns == "" {
		ns = plan.Namespace
	}
	return "system:serviceaccount:" + ns + ":" + r.Name
}

// StepLimit is the plan's locked maxStepsPerPlan (the default for a snapshot locked before the
// field existed).
func StepLimit(plan *safetyv1alpha1.AgentPlan) int32 {
	if s := plan.Status.Snapshot; s != nil && s.Safety.MaxStepsPerPlan != nil && *s.Safety.MaxStepsPerPlan > 0 {
		return *s.Safety.MaxStepsPerPlan
	}
	return safety.DefaultMaxStepsPerPlan
}

// MergeMax raises every counter of u to at least o's. Counters only grow, so of two readings of
// the same plan's counters the larger of each is the later: merging a stored status that another
// writer raised into the counters in memory loses neither.
func (u *Usage) MergeMax(o Usage) {
	u.Calls = max(u.Calls, o.Calls)
	for _, f := range []struct{ dst, src *safety.Money }{{&u.Accumulated, &o.Accumulated}, {&u.Reserved, &o.Reserved}, {&u.Reported, &o.Reported}} {
		if f.src.Cmp(*f.dst) > 0 {
			*f.dst = *f.src
		}
	}
	if len(o.Steps) > 0 && u.Steps == nil {
		u.Steps = make(map[string]int32, len(o.Steps))
	}
	for step, n := range o.Steps {
		u.Steps[step] = max(u.Steps[step], n)
	}
}

// Equal says whether u and o hold the same counts.
func (u Usage) Equal(o Usage) bool {
	return u.Calls == o.Calls && u.Accumulated == o.Accumulated && u.Reserved == o.Reserved && u.Reported == o.Reported &&
		maps.Equal(u.Steps, o.Steps)
}

// Add adds o's counts to u: the deleted part of a plan's counters and the recount of its calls
// that still exist make one lower bound of its counters.
func (u *Usage) Add(o Usage) {
	u.Calls += o.Calls
	u.Accumulated = u.Accumulated.SaturatingAdd(o.Accumulated)
	u.Reserved = u.Reserved.SaturatingAdd(o.Reserved)
	u.Reported = u.Reported.SaturatingAdd(o.Reported)
	if len(o.Steps) > 0 && u.Steps == nil {
		u.Steps = make(map[string]int32, len(o.Steps))
	}
	for step, n := range o.Steps {
		u.Steps[step] += n
	}
}

// IsZero says u counts nothing.
func (u Usage) IsZero() bool {
	return u.Calls == 0 && u.Accumulated.IsZero() && u.Reserved.IsZero() && u.Reported.IsZero() && len(u.Steps) == 0
}

// DeletedOf reads the deleted part of a plan's counters (status.usage.deleted): what its calls
// deleted after their TTL counted, zero when the status has none.
func DeletedOf(plan *safetyv1alpha1.AgentPlan) (Usage, error) {
	d := plan.Status.Usage.Deleted
	if d == nil {
		return Usage{}, nil
	}
	out := Usage{Calls: d.Calls}
	for _, f := range []struct {
		name string
		in   string
		out  *safety.Money
	}{{"accumulatedCost", d.AccumulatedCost, &out.Accumulated}, {"reservedCost", d.ReservedCost, &out.Reserved}, {"reportedCost", d.ReportedCost, &out.Reported}} {
		if f.in == "" {
			continue
		}
		m, err := safety.ParseMoney(f.in)
		if err != nil {
			return Usage{}, fmt.Errorf("status.usage.deleted.%s of plan %s/%s: %w", f.name, plan.Namespace, plan.Name, err)
		}
		*f.out = m
	}
	if len(d.StepAttempts) > 0 {
		out.Steps = maps.Clone(d.StepAttempts)
	}
	return out, nil
}

// IntoDeleted writes u as the deleted part of a plan's counters, leaving its pending calls as they
// are.
func (u Usage) IntoDeleted(d *safetyv1alpha1.DeletedCalls) {
	d.Calls = u.Calls
	d.AccumulatedCost, d.ReservedCost, d.ReportedCost = MoneyString(u.Accumulated), MoneyString(u.Reserved), MoneyString(u.Reported)
	d.StepAttempts = nil
	if len(u.Steps) > 0 {
		d.StepAttempts = maps.Clone(u.Steps)
	}
}
