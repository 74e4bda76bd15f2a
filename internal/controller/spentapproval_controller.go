package controller

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
)

// SpentApprovalReconciler writes a ToolApproval's status.expiresAt, for people reading it (the
// gate computes the time from the object), and deletes the approval once it can admit nothing
// more (expired or used up) and the AuditLedger's finishedCallTTLSeconds has passed since, so
// approvals do not pile up in etcd. The ledger keeps the approval's record and, in the decision
// records, every use.
type SpentApprovalReconciler struct {
	client.Client
	Clock clock.PassiveClock
}

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=toolapprovals,verbs=get;list;watch;delete
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=toolapprovals/status,verbs=get;patch

// Reconcile deletes a spent approval after the TTL, or waits until it can be.
func (r *SpentApprovalReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	a := &safetyv1alpha1.ToolApproval{}
	if err := r.Get(ctx, req.NamespacedName, a); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.writeExpiry(ctx, a); err != nil {
		return ctrl.Result{}, err
	}
	ttl, err := finishedTTL(ctx, r.Client)
	if err != nil {
		return ctrl.Result{}, err
	}
	if wait := spentAt(a).Add(ttl).Sub(r.Clock.Now()); wait > 0 {
		return ctrl.Result{RequeueAfter: wait}, nil
	}
	err = r.Delete(ctx, a, client.Preconditions{UID: &a.UID, ResourceVersion: &a.ResourceVersion})
	if apierrors.IsConflict(err) {
		return ctrl.Result{RequeueAfter: time.Second}, nil // changed since it was read: look again
	}
	if client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, fmt.Errorf("deleting spent ToolApproval %s/%s: %w", a.Namespace, a.Name, err)
	}
	ctrl.LoggerFrom(ctx).V(1).Info("Deleted spent ToolApproval after its TTL", "ttl", ttl, "used", a.Status.Used)
	return ctrl.Result{}, nil
}

// writeExpiry sets a's status.expiresAt to its expiry when it says anything else (a value written
// by hand is put right). The patch names only that field, so it never undoes a use the webhook
// counted meanwhile.
func (r *SpentApprovalReconciler) writeExpiry(ctx context.Context, a *safetyv1alpha1.ToolApproval) error {
	expiry := metav1.NewTime(policy.ApprovalExpiry(a).UTC())
	if a.Status.ExpiresAt != nil && a.Status.ExpiresAt.Equal(&expiry) {
		return nil
	}
	base := a.DeepCopy()
	a.Status.ExpiresAt = &expiry
	err := r.Status().Patch(ctx, a, client.MergeFrom(base))
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("writing status.expiresAt of ToolApproval %s/%s: %w", a.Namespace, a.Name, err)
	}
	return nil
}

// spentAt is when an approval stopped admitting calls: its last use when it is used up, otherwise
// its expiry (in the future for one that can still be used).
func spentAt(a *safetyv1alpha1.ToolApproval) time.Time {
	expiry := policy.ApprovalExpiry(a)
	if a.Status.Used < policy.ApprovalUses(a) {
		return expiry
	}
	last := a.CreationTimestamp.Time
	if n := len(a.Status.UsedBy); n > 0 {
		last = a.Status.UsedBy[n-1].Time.Time
	}
	if last.After(expiry) {
		return expiry
	}
	return last
}

// SetupWithManager watches ToolApprovals; each is looked at again when it is used or its time comes.
func (r *SpentApprovalReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&safetyv1alpha1.ToolApproval{}).
		Named("spentapproval").
		Complete(r)
}
