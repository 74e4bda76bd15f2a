package controller

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
)

// pruneHeads removes the published heads signed longer ago than the ledger's retention: the
// records they name are deleted by then, so they prove nothing (verify says so), and each
// replaced pod of a Deployment is a writer of its own, whose entries would otherwise fill
// status.signedHeads until no new writer could publish. A writer still alive republishes as soon
// as its head moves. With retention 0 (keep forever) nothing is pruned. The patch carries the
// resourceVersion it read: a writer publishing meanwhile makes it conflict, and the next pass
// tries again, instead of losing that writer's new head. A head marked notOnChainSince is kept
// whatever its age: it is the evidence that a writer's volume was rolled back, not a head. So is
// a head whose segment is still on the volume (Dir): it still anchors records there.
func (r *AuditLedgerReconciler) pruneHeads(ctx context.Context, al *safetyv1alpha1.AuditLedger, now time.Time) error {
	retention := audit.Retention(&al.Spec)
	if retention == 0 {
		return nil
	}
	horizon := now.Add(-retention)
	kept := make([]safetyv1alpha1.LedgerSignedHead, 0, len(al.Status.SignedHeads))
	for _, h := range al.Status.SignedHeads {
		keep := h.NotOnChainSince != nil || !h.SignedAt.Time.Before(horizon)
		if !keep && r.Dir != "" {
			// The records it names are still on the volume (retention has not reached them, or
			// was changed since): the head still anchors them, and removing it would let a
			// rewrite of them pass verify.
			on, err := ledger.HasSegment(r.Dir, h.Writer, h.Segment)
			if err != nil {
				return fmt.Errorf("checking whether the segment of the published head of writer %s is on the volume: %w", h.Writer, err)
			}
			keep = on
		}
		if keep {
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

// setHeadsCondition sets HeadsOnChain: False, naming the writers, while any published head is
// marked notOnChainSince (its writer found its volume no longer holds it, and publishes nothing
// newer), with a Warning event when it turns False, so the rollback is seen where people look
// and not only in one writer's log.
func (r *AuditLedgerReconciler) setHeadsCondition(al *safetyv1alpha1.AuditLedger, now time.Time) {
	var marked []string
	for _, h := range al.Status.SignedHeads {
		if h.NotOnChainSince != nil {
			marked = append(marked, fmt.Sprintf("%s (seq %d, marked %s)", h.Writer, h.Seq,
				h.NotOnChainSince.UTC().Format(time.RFC3339)))
		}
	}
	c := metav1.Condition{
		Type: safetyv1alpha1.AuditLedgerHeadsOnChainCondition, Status: metav1.ConditionTrue,
		Reason: safetyv1alpha1.AuditLedgerHeadsOnChainReason, ObservedGeneration: al.Generation,
		LastTransitionTime: metav1.NewTime(now), Message: "no writer found its published head missing from its volume",
	}
	if len(marked) > 0 {
		c.Status, c.Reason = metav1.ConditionFalse, safetyv1alpha1.AuditLedgerHeadNotOnChainReason
		c.Message = "the ledger volume of " + strings.Join(marked, ", ") + " no longer holds the head it published: " +
			"rolled back or rewritten; the writer publishes no newer head; after looking, remove its " +
			"status.signedHeads entry to accept the volume as it is (docs/ledger.md)"
		if prev := meta.FindStatusCondition(al.Status.Conditions, c.Type); prev == nil || prev.Status != c.Status ||
			prev.Message != c.Message {
			r.event(al, corev1.EventTypeWarning, c.Reason, "CheckHeads", "%s", c.Message)
		}
	}
	meta.SetStatusCondition(&al.Status.Conditions, c)
}
