package v1alpha1

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// denialFlushInterval is how often counted denials are added to the plans' status.
const denialFlushInterval = time.Second

// denialCounter counts denied calls per plan (a denied call is never stored, so nothing else can
// count it) and adds them to each plan's status.usage.denials. Every replica counts its own and
// adds with an optimistic lock, as the plan controller writes, so no increment is lost to a race;
// counts not yet flushed when a replica dies are lost, and the ledger still holds each denial.
type denialCounter struct {
	reader client.Reader
	writer client.Client
	mu     sync.Mutex
	counts map[types.NamespacedName]int64
}

func newDenialCounter(reader client.Reader, writer client.Client) *denialCounter {
	return &denialCounter{reader: reader, writer: writer, counts: map[types.NamespacedName]int64{}}
}

func (d *denialCounter) add(plan types.NamespacedName) {
	d.mu.Lock()
	d.counts[plan]++
	d.mu.Unlock()
}

// NeedLeaderElection is false: every webhook replica flushes the denials it counted.
func (d *denialCounter) NeedLeaderElection() bool { return false }

// Start flushes on a ticker until ctx ends, then once more.
func (d *denialCounter) Start(ctx context.Context) error {
	t := time.NewTicker(denialFlushInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			d.flush(context.Background())
			return nil
		case <-t.C:
			d.flush(ctx)
		}
	}
}

func (d *denialCounter) flush(ctx context.Context) {
	d.mu.Lock()
	pending := d.counts
	d.counts = map[types.NamespacedName]int64{}
	d.mu.Unlock()
	for key, n := range pending {
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			plan := &safetyv1alpha1.AgentPlan{}
			if err := d.reader.Get(ctx, key, plan); err != nil {
				return client.IgnoreNotFound(err)
			}
			before := plan.DeepCopy()
			plan.Status.Usage.Denials += n
			return d.writer.Status().Patch(ctx, plan, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
		})
		if err != nil { // keep the count for the next flush
			d.mu.Lock()
			d.counts[key] += n
			d.mu.Unlock()
		}
	}
}
