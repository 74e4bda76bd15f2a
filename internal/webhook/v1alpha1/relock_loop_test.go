package v1alpha1

import (
	"context"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// A call decided again because its plan was re-locked while it was decided is one call to the
// loop detector, not two. The re-lock becomes known between the call's first load of the plan's
// counters and its decision (here: while it waits for its namespace's total, which a plan with
// maxTotalCost decides under); the decision is then made again with the plan read live. Before,
// the first attempt had already counted the call as an occurrence, so its second counted it
// again: the fifth identical call of a window was refused as a sixth.
func TestACallDecidedAgainAfterARelockIsOneRepeat(t *testing.T) {
	h, _ := newBenchAgentToolCallHandler(t)
	withTotal := func(p *safety.Profile) { p.MaxTotalCost = new(safety.MustParseMoney("1000")) }
	stale := relockedTo(t, h, withTotal, 1)
	relocked := relockedTo(t, h, withTotal, 2)
	live := apiServerWith(t, h, stale)
	h.Reader, h.Live, h.usage.live = apiServerWith(t, h, stale), live, live
	srv := &webhook.Admission{Handler: h}
	same := func(name string) *safetyv1alpha1.AgentToolCall {
		c := benchCall(name, "read-file", "")
		c.Spec.Step, c.Spec.Arguments.Paths = "read", []string{"src/main.go"}
		return c
	}

	// Four identical calls earlier in the window: the loop detector's memory, as they left it.
	tool := &safetyv1alpha1.AgentTool{}
	if err := h.Reader.Get(context.Background(), client.ObjectKey{Name: "read-file"}, tool); err != nil {
		t.Fatal(err)
	}
	key := safety.NewCallKey("ns/p", policy.EngineCall(same("earlier"), stale, tool, policy.CallFacts{}))
	for range safety.DefaultLoopMaxRepeats - 1 {
		h.loops.Observe(key, safety.DefaultLoopWindow)
	}

	// The fifth waits for the namespace's total after its first load of the counters; the plan
	// is re-locked then, as the plan controller does it: stored, then told to the counters.
	unlock := h.totals.lockNamespace("ns")
	answered := make(chan *admissionv1.AdmissionResponse, 1)
	go func() { answered <- serve(t, srv, review(t, agentUser, same("fifth"))).Response }()
	waitForCountersLoaded(t, h, client.ObjectKey{Namespace: "ns", Name: "p"})
	stored := &safetyv1alpha1.AgentPlan{}
	if err := live.Get(context.Background(), client.ObjectKeyFromObject(relocked), stored); err != nil {
		t.Fatal(err)
	}
	stored.Status.Snapshot = relocked.Status.Snapshot
	if err := live.Status().Update(context.Background(), stored); err != nil {
		t.Fatal(err)
	}
	store := &CounterStore{}
	store.attach(h.usage)
	store.Relocked(stored)
	unlock()

	if r := <-answered; !r.Allowed {
		t.Fatalf("the fifth identical call, decided again after the re-lock, was refused: %s", r.Result.Message)
	}
	// Near miss: the loop detector still counts; the sixth is one too many.
	r := serve(t, srv, review(t, agentUser, same("sixth"))).Response
	if r.Allowed || !strings.Contains(r.Result.Message, safety.ReasonToolLoopDetected) {
		t.Fatalf("the sixth identical call: allowed %v, %q; want it refused as a loop", r.Allowed, r.Result.Message)
	}
}

// waitForCountersLoaded waits until the plan's counters are loaded: a decision of the plan has
// read them and let go of them.
func waitForCountersLoaded(t *testing.T, h *AgentToolCallHandler, key client.ObjectKey) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		h.usage.mu.Lock()
		p := h.usage.plans[key]
		h.usage.mu.Unlock()
		if p != nil {
			p.mu.Lock()
			loaded := p.loaded
			p.mu.Unlock()
			if loaded {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the plan's counters were not loaded within 30s")
		}
		time.Sleep(time.Millisecond)
	}
}
