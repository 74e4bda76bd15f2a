package v1alpha1

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// frozenPlan is a cache that never shows the plan change: Get returns plan as it was; every other
// object comes from the Reader.
type frozenPlan struct {
	client.Reader
	plan *safetyv1alpha1.AgentPlan
}

func (f frozenPlan) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if p, ok := obj.(*safetyv1alpha1.AgentPlan); ok && key == client.ObjectKeyFromObject(f.plan) {
		f.plan.DeepCopyInto(p)
		return nil
	}
	return f.Reader.Get(ctx, key, obj, opts...)
}

// The reporter's final report (a cost, and the end of the call's hold) is one decision of the
// plan's counters, so a re-lock that becomes known while it is decided makes it refused before it
// counted anything, and decided again with the plan read live: counted once. Before, the cost was
// counted in one decision and the hold released in a second; a re-lock known between them refused
// the second, and the report made again counted the cost again wherever the counters' memo of it
// was gone (it holds maxReportMemo calls, and goes with a change of the replica that decides).
func TestAReportDecidedAgainAfterARelockIsCountedOnce(t *testing.T) {
	committer := heldWorld(t)
	ctx := context.Background()
	api := committer.live.(client.Client)
	cached := planP(t, api)
	// The plan controller's re-lock reaches the counters once the report's cost is in them, and
	// the memo of it is lost then (what makeRoom does to it under other calls' reports). Set
	// before the counters' flusher starts, which reads the clock too.
	var (
		counters atomic.Pointer[planCounters]
		relocked atomic.Pointer[safetyv1alpha1.AgentPlan]
		told     atomic.Bool
	)
	now := committer.nowFunc
	committer.nowFunc = func() time.Time { // called with p.mu held, or by the request alone
		p, r := counters.Load(), relocked.Load()
		if p == nil || r == nil {
			return now()
		}
		if _, counted := p.reports["call"]; counted && told.CompareAndSwap(false, true) {
			p.seeSnapshot(r)
			delete(p.reports, "call")
		}
		return now()
	}
	admitHeld(t, committer, cached, "call")
	counters.Store(committer.held(client.ObjectKeyFromObject(cached)))
	// The re-lock, written over the counters' own writes of the admission (their flusher may be
	// writing the plan's status meanwhile).
	stored := &safetyv1alpha1.AgentPlan{}
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := api.Get(ctx, client.ObjectKeyFromObject(cached), stored); err != nil {
			return err
		}
		stored.Status.Snapshot.Epoch = cached.Status.Snapshot.Epoch + 1
		return api.Status().Update(ctx, stored)
	}); err != nil {
		t.Fatal(err)
	}
	relocked.Store(stored)
	call := callOf("call", "capped", "a", "")
	call.Namespace, call.Spec.Plan, call.UID = "ns", "p", "call"
	call.CreationTimestamp = metav1.NewTime(cached.CreationTimestamp.Add(time.Minute))
	reported := call.DeepCopy()
	reported.Status.Phase, reported.Status.Cost = safetyv1alpha1.CallPhaseSucceeded, quantity("0.8")
	h := &AgentToolCallHandler{usage: committer, totals: committer.totals, Reader: frozenPlan{api, cached}, Live: api}

	if _, err := againIfRelocked(func() (struct{}, error) {
		return struct{}{}, h.settleReport(ctx, policy.CostReporterUser(cached), &call, reported)
	}); err != nil {
		t.Fatal(err)
	}
	if !told.Load() {
		t.Fatal("the report was never counted")
	}
	reserve, cost := safety.MustParseMoney("0.1"), safety.MustParseMoney("0.8")
	assertStored(t, api, cached, policy.Usage{Calls: 1, Steps: map[string]int32{"a": 1}, Reserved: reserve, Reported: cost, Accumulated: cost})
	p := counters.Load()
	p.mu.Lock()
	defer p.mu.Unlock()
	if held := p.held.held(); !held.IsZero() {
		t.Errorf("the call still holds %s after its final report", held)
	}
}
