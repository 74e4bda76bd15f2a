package v1alpha1

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// relockedPlans returns the bench handler's plan as its cache shows it (epoch 1, read-file
// allowed) and an API server holding the plan re-locked (epoch 2) to a profile that denies
// read-file: what a platform team does to stop an agent, or to change a tool's price.
func relockedPlans(t *testing.T, h *AgentToolCallHandler) (stale client.Reader, live client.Client, relocked *safetyv1alpha1.AgentPlan) {
	t.Helper()
	relocked = relockedTo(t, h, func(p *safety.Profile) { p.DeniedTools = []string{"read-file"} }, 2)
	return h.Reader, apiServerWith(t, h, relocked), relocked
}

// relockedTo returns the bench handler's plan, as its cache shows it, locked again at epoch with
// its profile (benchProfile) changed by change.
func relockedTo(t *testing.T, h *AgentToolCallHandler, change func(*safety.Profile), epoch int32) *safetyv1alpha1.AgentPlan {
	t.Helper()
	plan := &safetyv1alpha1.AgentPlan{}
	if err := h.Reader.Get(context.Background(), client.ObjectKey{Namespace: "ns", Name: "p"}, plan); err != nil {
		t.Fatal(err)
	}
	profile := benchProfile()
	change(profile)
	hash, err := policy.SnapshotHash(profile, safetyv1alpha1.AutonomyLevelDefault, nil)
	if err != nil {
		t.Fatal(err)
	}
	snap := plan.Status.Snapshot
	snap.Safety, snap.Hash, snap.Epoch, snap.RelockToken = policy.SpecFromProfile(profile), hash, epoch, fmt.Sprint("relock-", epoch)
	plan.ResourceVersion = ""
	return plan
}

// apiServerWith returns an in-memory API server holding plan and the bench handler's tools.
func apiServerWith(t *testing.T, h *AgentToolCallHandler, plan *safetyv1alpha1.AgentPlan) client.Client {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	objects := make([]client.Object, 0, 3)
	objects = append(objects, plan.DeepCopy())
	for _, name := range []string{"read-file", "shell"} {
		tool := &safetyv1alpha1.AgentTool{}
		if err := h.Reader.Get(context.Background(), client.ObjectKey{Name: name}, tool); err != nil {
			t.Fatal(err)
		}
		tool.ResourceVersion = ""
		objects = append(objects, tool)
	}
	return fake.NewClientBuilder().WithScheme(scheme).WithObjects(objects...).
		WithIndex(&safetyv1alpha1.AgentToolCall{}, controller.CallPlanIndex, controller.IndexCallPlan).
		WithIndex(&safetyv1alpha1.ToolApproval{}, safetyv1alpha1.ToolApprovalPlanField, controller.IndexApprovalPlan).
		WithStatusSubresource(&safetyv1alpha1.AgentPlan{}).Build()
}

// A call the agent makes after its plan was re-locked is judged by the new snapshot, even while
// the webhook's cache still shows the old one: the counters every decision goes through know the
// plan as the API server stores it (read live when they load, and told by the plan controller of
// the same process when it re-locks), and a decision made with an older snapshot is made again
// with the plan read live. Before, the cache's snapshot decided until the informer caught up: an
// agent stopped by a re-lock to a stricter profile ran calls after it under the looser one, and
// the ledger recorded them under the replaced policy's hash.
func TestACallAfterARelockIsJudgedByTheNewSnapshotWhateverTheCacheShows(t *testing.T) {
	deniedByRelock := func(t *testing.T, srv *webhook.Admission, name string) {
		t.Helper()
		r := serve(t, srv, review(t, agentUser, benchCall(name, "read-file", ""))).Response
		if r.Allowed {
			t.Fatalf("%s: admitted under the snapshot the re-lock replaced", name)
		}
		if !strings.Contains(r.Result.Message, "ToolAccessDenied") {
			t.Fatalf("%s: refused %q, want the re-locked profile's deny-list", name, r.Result.Message)
		}
	}

	t.Run("the counters load after the re-lock", func(t *testing.T) {
		h, _ := newBenchAgentToolCallHandler(t)
		stale, live, _ := relockedPlans(t, h)
		h.Reader, h.Live, h.usage.live = stale, live, live
		deniedByRelock(t, &webhook.Admission{Handler: h}, "first")
		deniedByRelock(t, &webhook.Admission{Handler: h}, "second")
	})

	t.Run("the counters are loaded when the plan controller re-locks", func(t *testing.T) {
		h, _ := newBenchAgentToolCallHandler(t)
		srv := &webhook.Admission{Handler: h}
		if r := serve(t, srv, review(t, agentUser, benchCall("before", "read-file", ""))).Response; !r.Allowed {
			t.Fatalf("before the re-lock: %s", r.Result.Message)
		}
		stale, live, relocked := relockedPlans(t, h)
		h.Reader, h.Live, h.usage.live = stale, live, live
		store := &CounterStore{}
		store.attach(h.usage)
		store.Relocked(relocked) // what the plan controller does once its re-lock is written
		deniedByRelock(t, srv, "after")
		// What the agent was admitted before the re-lock still counts, and the refusal adds
		// nothing: the re-read plan's own counters are raised to the ones held (MergeMax).
		h.usage.mu.Lock()
		p := h.usage.plans[client.ObjectKey{Namespace: "ns", Name: "p"}]
		h.usage.mu.Unlock()
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.u.Calls != 1 {
			t.Errorf("calls counted %d, want 1", p.u.Calls)
		}
	})

	t.Run("near miss: a cache that shows the plan as stored decides without reading it live", func(t *testing.T) {
		h, _ := newBenchAgentToolCallHandler(t)
		h.Live = nil // nothing to read live: the cache alone decides
		if r := serve(t, &webhook.Admission{Handler: h}, review(t, agentUser, benchCall("current", "read-file", ""))).Response; !r.Allowed {
			t.Fatalf("a plan whose snapshot is current: %s", r.Result.Message)
		}
	})
}
