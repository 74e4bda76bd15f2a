package controller

import (
	"context"
	"fmt"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// defaultRetentionDays is the CRD's default of spec.retention.maxAgeDays.
const defaultRetentionDays = 90

// pruneHeads removes the published heads signed longer ago than the ledger's retention: the
// records they name are deleted by then, so they prove nothing (verify says so), and each
// replaced pod of a Deployment is a writer of its own, whose entries would otherwise fill
// status.signedHeads until no new writer could publish. A writer still alive republishes as soon
// as its head moves. With retention 0 (keep forever) nothing is pruned. The patch carries the
// resourceVersion it read: a writer publishing meanwhile makes it conflict, and the next pass
// tries again, instead of losing that writer's new head.
func (r *AuditLedgerReconciler) pruneHeads(ctx context.Context, al *safetyv1alpha1.AuditLedger, now time.Time) error {
	days := int32(defaultRetentionDays)
	if d := al.Spec.Retention.MaxAgeDays; d != nil {
		days = *d
	}
	if days == 0 {
		return nil
	}
	horizon := now.Add(-time.Duration(days) * 24 * time.Hour)
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
		return fmt.Errorf("removing %d published heads older than the retention of %d days: %w",
			len(before.Status.SignedHeads)-len(kept), days, err)
	}
	return nil
}
