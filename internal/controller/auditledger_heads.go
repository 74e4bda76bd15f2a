package controller

import (
	"context"
	"fmt"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
)

// pruneHeads removes the published heads signed longer ago than the ledger's retention: the
// records they name are deleted by then, so they prove nothing (verify says so), and each
// replaced pod of a Deployment is a writer of its own, whose entries would otherwise fill
// status.signedHeads until no new writer could publish. A writer still alive republishes as soon
// as its head moves. With retention 0 (keep forever) nothing is pruned. The patch carries the
// resourceVersion it read: a writer publishing meanwhile makes it conflict, and the next pass
// tries again, instead of losing that writer's new head.
func (r *AuditLedgerReconciler) pruneHeads(ctx context.Context, al *safetyv1alpha1.AuditLedger, now time.Time) error {
	retention := audit.Retention(&al.Spec)
	if retention == 0 {
		return nil
	}
	horizon := now.Add(-retention)
	kept := make([]safetyv1alpha1.LedgerSignedHead, 0, len(al.Status.SignedHeads))
	for _, h := range al.Status.SignedHeads {
		if !h.SignedAt.Time.Before(horizon) {
			kept = append(kept, h)
		}
	}
	if len(kept) == len(al.Status.SignedHeads) {
		return nil
	}
	before := al.DeepCopy()
	al.Status.SignedHeads = kept
	if err := r.Status().Patch(ctx, al, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("removing %d published heads older than the retention of %s: %w",
			len(before.Status.SignedHeads)-len(kept), retention, err)
	}
	return nil
}
