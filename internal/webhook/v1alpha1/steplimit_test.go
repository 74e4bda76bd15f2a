package v1alpha1

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/toolgate/toolgate/internal/safety"
)

// An agent inventing a step per call must not escape maxRetriesPerStep: a plan without declared
// steps may use maxStepsPerPlan of them (the default 100 here), and a new step beyond them is
// refused while known steps go on.
func TestNewStepBeyondTheLimitIsRefused(t *testing.T) {
	h, _ := newBenchAgentToolCallHandler(t)
	c := h.Reader.(client.Client)
	plan := planP(t, c)
	plan.Status.Snapshot.Safety.MaxStepsPerPlan = new(safety.DefaultMaxStepsPerPlan)
	plan.Status.Usage.StepAttempts = map[string]int32{}
	for i := range safety.DefaultMaxStepsPerPlan - 1 {
		plan.Status.Usage.StepAttempts[fmt.Sprintf("s-%d", i)] = 1
	}
	if err := c.Status().Update(context.Background(), plan); err != nil {
		t.Fatal(err)
	}
	srv := &webhook.Admission{Handler: h}
	submit := func(name, step string) (bool, string) {
		call := benchCall(name, "read-file", "")
		call.Spec.Step = step
		r := serve(t, srv, review(t, agentUser, call)).Response
		if r.Allowed {
			if err := c.Create(context.Background(), call); err != nil { // as the API server would store it
				t.Fatal(err)
			}
			return true, ""
		}
		return false, r.Result.Message
	}
	if ok, msg := submit("last-new", "s-new"); !ok {
		t.Fatalf("the %dth step was refused: %s", safety.DefaultMaxStepsPerPlan, msg)
	}
	ok, msg := submit("one-too-many", "s-newer")
	if ok || !strings.Contains(msg, "[StepLimitExceeded] plan p already has 100 steps") {
		t.Fatalf("a step beyond the limit: admitted %v, %q", ok, msg)
	}
	for _, step := range []string{"s-0", "s-new"} {
		if ok, msg := submit("again-"+step, step); !ok {
			t.Fatalf("a known step %s was refused: %s", step, msg)
		}
	}
}
