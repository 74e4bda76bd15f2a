package v1alpha1

import (
	"testing"
	"time"

	"github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// AUDIT19 (issue 15, "exact under several replicas" / "counters that only grow"): a plan whose
// status stores 5 attempts of step a (their calls since deleted by the finished-call TTL) and whose
// deciding replica was killed (SIGKILL, OOM, node loss) less than a flush interval after admitting
// 3 more attempts of step a (stored as calls, not yet in the status). The replica that takes over
// loads max(stored, recount) per counter: 5, not 8. Three attempts and 1.5 of spend are lost, so
// the step's retry limit and the plan's budget are exceeded by what the dead replica had admitted.
func TestAudit19TakeoverAfterACrashLosesUnstoredCountsOfAPlanWithDeletedCalls(t *testing.T) {
	c, plan := recountWorld(t, v1alpha1.PlanUsage{Calls: 5, StepAttempts: map[string]int32{"a": 5}, AccumulatedCost: "2.5", ReservedCost: "2.5"},
		callOf("n1", "paid", "a", ""), callOf("n2", "paid", "a", ""), callOf("n3", "paid", "a", ""))
	u := countersOf(t, newUsageCommitter(c, c, newProjectTotals(c), time.Now), plan)
	want := policy.Usage{Calls: 8, Steps: map[string]int32{"a": 8}, Reserved: safety.MustParseMoney("4"), Accumulated: safety.MustParseMoney("4")}
	if !u.Equal(want) {
		t.Fatalf("counters after takeover: %+v, want %+v (every admitted attempt counted)", u, want)
	}
}
