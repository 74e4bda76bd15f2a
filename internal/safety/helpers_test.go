package safety

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// The Background of spec/safety-profile-enforcement.feature.
var (
	toolWriter = Tool{Name: "test/writer", Writes: true}
	toolUnsafe = Tool{Name: "test/unsafe-tool", Unsafe: true}
	toolReader = Tool{Name: "test/reader"}
)

func money(s string) *Money { return new(MustParseMoney(s)) }

func mustCompile(t testing.TB, p *Profile, r ProjectRules) *Policy {
	t.Helper()
	pol, err := Compile(p, r)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return pol
}

// outcome is the comparable part of a Decision.
type outcome struct {
	Verdict   Verdict
	Reason    string
	RuleID    string
	WouldDeny bool
}

func outcomeOf(d Decision) outcome {
	return outcome{Verdict: d.Verdict, Reason: d.Reason, RuleID: d.RuleID, WouldDeny: d.WouldDeny}
}

// expectOutcome fails t unless d is want: admitted however it was when want is an allow, else
// the same verdict, reason and rule.
func expectOutcome(t *testing.T, d Decision, want outcome) {
	t.Helper()
	if want.Verdict == VerdictAllow {
		if !d.Allowed() {
			t.Fatalf("want admitted, got %s %s: %s", d.Reason, d.RuleID, d.Message)
		}
		return
	}
	if got := outcomeOf(d); got != want {
		t.Fatalf("want %+v, got %+v: %s", want, got, d.Message)
	}
}

// callRow is one row of a table of calls and the outcome each must have.
type callRow struct {
	name string
	call Call
	want outcome
}

// expectRows evaluates each row's call under rules, compiled once, as a subtest of its name.
func expectRows(t *testing.T, rules ProjectRules, rows []callRow) {
	t.Helper()
	p := mustCompile(t, &Profile{}, rules)
	for _, c := range rows {
		t.Run(c.name, func(t *testing.T) { expectOutcome(t, Evaluate(p, c.call), c.want) })
	}
}

// typedAs reports whether err is, per errors.As, the typed error that carries reason, and
// whether its Reason() agrees.
func typedAs(err error, reason string) bool {
	var r ReasonedError
	switch reason {
	case ReasonToolAccessDenied:
		var e *ToolAccessDeniedError
		if !errors.As(err, &e) {
			return false
		}
		r = e
	case ReasonToolCheckpointRequired:
		var e *ToolCheckpointRequiredError
		if !errors.As(err, &e) {
			return false
		}
		r = e
	case ReasonToolSafetyViolation:
		var e *ToolSafetyViolationError
		if !errors.As(err, &e) {
			return false
		}
		r = e
	case ReasonToolSandboxRequired:
		var e *ToolSandboxRequiredError
		if !errors.As(err, &e) {
			return false
		}
		r = e
	case ReasonToolHumanApprovalRequired:
		var e *ToolHumanApprovalRequiredError
		if !errors.As(err, &e) {
			return false
		}
		r = e
	case ReasonToolCostLimitExceeded:
		var e *ToolCostLimitExceededError
		if !errors.As(err, &e) {
			return false
		}
		r = e
	case ReasonToolRetryLimitExceeded:
		var e *ToolRetryLimitExceededError
		if !errors.As(err, &e) {
			return false
		}
		r = e
	case ReasonToolLoopDetected:
		var e *ToolLoopDetectedError
		if !errors.As(err, &e) {
			return false
		}
		r = e
	default:
		return false
	}
	return r.Reason() == reason && errors.Is(err, ErrToolRuntime)
}

// checkDecision asserts the typed error, its reason and the phrases the message must contain.
func checkDecision(t *testing.T, d Decision, wantReason string, phrases ...string) {
	t.Helper()
	if wantReason == "" {
		if d.Verdict != VerdictAllow || d.Err != nil || d.WouldDeny {
			t.Fatalf("want the call admitted, got %+v", d)
		}
		return
	}
	if !typedAs(d.Err, wantReason) {
		t.Fatalf("want a typed %s error, got %T %v (decision %+v)", wantReason, d.Err, d.Err, d)
	}
	if d.Reason != wantReason || ReasonOf(d.Err) != wantReason {
		t.Fatalf("reason: decision %q, error %q, want %q", d.Reason, ReasonOf(d.Err), wantReason)
	}
	if d.Err.Error() != d.Message {
		t.Fatalf("error string %q differs from message %q", d.Err.Error(), d.Message)
	}
	for _, p := range phrases {
		if !strings.Contains(d.Message, p) {
			t.Errorf("message %q does not mention %q", d.Message, p)
		}
	}
}

// expectRefusedAtEveryAutonomy checks that each attack is not admitted, and each near miss (an
// ordinary command beside it) is, at Default and at Yolo autonomy.
func expectRefusedAtEveryAutonomy(t *testing.T, attacks, nearMisses []string) {
	t.Helper()
	yolo := classRules
	yolo.Autonomy = AutonomyYolo
	for _, rules := range []ProjectRules{classRules, yolo} {
		p := mustCompile(t, &Profile{}, rules)
		for _, c := range attacks {
			if d := Evaluate(p, shCall(c)); d.Allowed() {
				t.Errorf("autonomy %q: %s admitted", rules.Autonomy, c)
			}
		}
		for _, c := range nearMisses {
			if d := Evaluate(p, shCall(c)); !d.Allowed() {
				t.Errorf("autonomy %q: %s refused: %s", rules.Autonomy, c, d.Message)
			}
		}
	}
}

// evidenceOnly skips t unless the environment variable env is 1: a review's evidence rows, which
// fail until what they show is fixed, run only when asked for.
func evidenceOnly(t *testing.T, env string) {
	t.Helper()
	if os.Getenv(env) != "1" {
		t.Skip("evidence rows: set " + env + "=1")
	}
}
