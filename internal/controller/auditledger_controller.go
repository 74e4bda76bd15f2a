package controller

import (
	"context"
	"fmt"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

// maintenanceInterval is how often the ledger is maintained between day boundaries.
const maintenanceInterval = time.Minute

// nearlyFullPercent is the free-space share below which the volume is reported nearly full.
const nearlyFullPercent = 10

// AuditLedgerReconciler seals, compresses and retains this replica's ledger segments on a
// schedule and reports the ledger's health in the AuditLedger's status.
type AuditLedgerReconciler struct {
	client.Client
	Clock   clock.PassiveClock
	Journal *ledger.Journal
	// Dir is the ledger directory, for the free-space check.
	Dir string
}

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=auditledgers,verbs=get;list;watch
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=auditledgers/status,verbs=get;update;patch

// Reconcile maintains the journal, writes the status, and comes back at the next minute or UTC
// midnight, whichever is sooner.
func (r *AuditLedgerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	al := &safetyv1alpha1.AuditLedger{}
	if err := r.Get(ctx, req.NamespacedName, al); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	now := r.Clock.Now()
	before := al.DeepCopy()
	res, err := r.Journal.Maintain(now)
	reason, msg := safetyv1alpha1.ReadyReason, fmt.Sprintf("Maintained: %d sealed, %d compressed, %d deleted", len(res.Sealed), len(res.Compressed), len(res.Deleted))
	if err != nil {
		reason, msg = "MaintenanceFailed", err.Error()
	}
	readyCondition(&al.Status.Conditions, al.Generation, r.Clock, reason, msg)
	r.setVolumeCondition(al, now)
	st := r.Journal.Stats()
	al.Status.Records, al.Status.Segments, al.Status.Bytes, al.Status.HeadHash = int64(st.Records), int32(st.Segments), st.Bytes, st.HeadHash
	if !st.LastRotation.IsZero() {
		al.Status.LastRotationTime = &metav1.Time{Time: st.LastRotation}
	}
	al.Status.ObservedGeneration = al.Generation
	if err := patchStatus(ctx, r.Client, al, before); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: nextMaintenance(now)}, nil
}

// nextMaintenance is the time until the next minute or UTC midnight, whichever comes first, so a
// daily rotation happens within moments of the day boundary.
func nextMaintenance(now time.Time) time.Duration {
	midnight := now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	return min(maintenanceInterval, midnight.Sub(now)+time.Second)
}

func (r *AuditLedgerReconciler) setVolumeCondition(al *safetyv1alpha1.AuditLedger, now time.Time) {
	var fs syscall.Statfs_t
	if r.Dir == "" || syscall.Statfs(r.Dir, &fs) != nil || fs.Blocks == 0 {
		return
	}
	free := fs.Bavail * 100 / fs.Blocks
	status, why := metav1.ConditionFalse, "SpaceAvailable"
	if free < nearlyFullPercent {
		status, why = metav1.ConditionTrue, "LowSpace"
	}
	meta.SetStatusCondition(&al.Status.Conditions, metav1.Condition{
		Type: safetyv1alpha1.AuditLedgerVolumeNearlyFullCondition, Status: status, Reason: why,
		Message: fmt.Sprintf("%d%% of the ledger volume is free", free), ObservedGeneration: al.Generation,
		LastTransitionTime: metav1.NewTime(now),
	})
}

// SetupWithManager watches the AuditLedger.
func (r *AuditLedgerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&safetyv1alpha1.AuditLedger{}).Named("auditledger").Complete(r)
}
