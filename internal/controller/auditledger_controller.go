package controller

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
)

// maintenanceInterval is how often the ledger is maintained between day boundaries.
const maintenanceInterval = time.Minute

// nearlyFullPercent is the free-space share below which the volume is reported nearly full.
const nearlyFullPercent = 10

// Ready reasons and event reasons of the AuditLedger controller.
const (
	// ledgerConfigRejectedReason: the journal refused the spec's settings and keeps its previous
	// ones. Ready is False until the spec is fixed; decisions are still recorded.
	ledgerConfigRejectedReason = "ConfigRejected"
	// ledgerReconfiguredReason: the spec's new settings were applied to the running journal.
	ledgerReconfiguredReason = "Reconfigured"
	ledgerMaintenanceFailed  = "MaintenanceFailed"
)

// AuditLedgerReconciler applies the AuditLedger's rotation, compression, retention and redaction
// settings to this replica's running journal, seals, compresses and retains its segments on a
// schedule, and reports the ledger's health in the AuditLedger's status.
type AuditLedgerReconciler struct {
	client.Client
	Clock   clock.PassiveClock
	Journal *ledger.Journal
	// Dir is the ledger directory, for the free-space check.
	Dir string
	// Recorder emits Reconfigured and ConfigRejected events; nil emits none. SetupWithManager
	// sets one.
	Recorder recorder.EventRecorder

	// idleAt is when the chains of writers that no longer run were last maintained.
	idleAt time.Time
}

// idleInterval is how often the chains of writers that no longer run (replaced pods) are
// maintained: each is opened, which reads its newest segment, so not every minute.
const idleInterval = 10 * time.Minute

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=auditledgers,verbs=get;list;watch
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=auditledgers/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// The ledger's signing key (audit.LoadSigningKey): read, and filled once when the shipped Secret
// is empty. Only that Secret, and only in the operator's namespace.
// +kubebuilder:rbac:groups="",namespace=toolgate-system,resources=secrets,resourceNames=toolgate-ledger-signing-key,verbs=get;update

// Reconcile applies the spec's settings to the journal, maintains it, writes the status, and
// comes back at the next minute or UTC midnight, whichever is sooner.
func (r *AuditLedgerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	al := &safetyv1alpha1.AuditLedger{}
	if err := r.Get(ctx, req.NamespacedName, al); err != nil {
		if apierrors.IsNotFound(err) && req.Name == audit.LedgerName {
			// Without an AuditLedger the journal runs with the defaults, as after a restart.
			if changed, err := audit.Reconfigure(r.Journal, nil); err == nil && len(changed) > 0 {
				ctrl.LoggerFrom(ctx).Info("AuditLedger deleted: the journal is back to the default settings", "changed", changed)
			}
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	now := r.Clock.Now()
	if err := r.pruneHeads(ctx, al, now); err != nil {
		return ctrl.Result{}, err
	}
	before := al.DeepCopy()
	cfgErr := r.reconfigure(ctx, al, before)
	res, err := r.Journal.Maintain(now)
	reason, msg := safetyv1alpha1.ReadyReason, fmt.Sprintf("Maintained: %d sealed, %d compressed, %d deleted", len(res.Sealed), len(res.Compressed), len(res.Deleted))
	if err != nil {
		reason, msg = ledgerMaintenanceFailed, err.Error()
	} else if idleErr := r.maintainIdle(ctx, now); idleErr != nil {
		reason, msg = ledgerMaintenanceFailed, idleErr.Error()
	}
	if cfgErr != nil {
		reason, msg = ledgerConfigRejectedReason, fmt.Sprintf("%v; the journal keeps its previous settings until the spec is fixed (%s)", cfgErr, msg)
	}
	readyCondition(&al.Status.Conditions, al.Generation, r.Clock, reason, msg)
	r.setVolumeCondition(al, now)
	r.setHeadsCondition(al, now)
	meta.SetStatusCondition(&al.Status.Conditions, argumentsWholeCondition(&al.Spec, al.Generation, now))
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

// maintainIdle applies rotation, compression and retention to the chains of writers that no
// longer run (each replaced pod of the Deployment leaves one), at most every idleInterval and at
// each UTC day boundary. The journal takes each chain's lock on the volume before touching it, so
// a live writer's chain is skipped and no chain has two maintainers at once, whichever replicas
// run this. A chain that cannot be maintained is reported; the others are maintained all the same.
func (r *AuditLedgerReconciler) maintainIdle(ctx context.Context, now time.Time) error {
	if !r.idleAt.IsZero() && now.Sub(r.idleAt) < idleInterval && dayOf(now) == dayOf(r.idleAt) {
		return nil
	}
	results, err := r.Journal.MaintainIdle(now)
	if err != nil {
		return fmt.Errorf("maintaining the chains of writers that no longer run: %w", err)
	}
	r.idleAt = now
	var failed []error
	for _, res := range results {
		if res.Err != nil {
			failed = append(failed, fmt.Errorf("writer %s: %w", res.Writer, res.Err))
			continue
		}
		if len(res.Sealed)+len(res.Compressed)+len(res.Deleted) > 0 {
			ctrl.LoggerFrom(ctx).Info("Maintained the chain of a writer that no longer runs", "writer", res.Writer,
				"sealed", res.Sealed, "compressed", res.Compressed, "deleted", res.Deleted)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("maintaining the chains of writers that no longer run: %w", errors.Join(failed...))
	}
	return nil
}

func dayOf(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// reconfigure applies the spec's settings to the running journal. It is called on every pass,
// since applying unchanged settings changes nothing, and emits an event when settings change or
// a new generation of the spec is refused. A refused spec leaves the journal as it was.
func (r *AuditLedgerReconciler) reconfigure(ctx context.Context, al, before *safetyv1alpha1.AuditLedger) error {
	changed, err := audit.Reconfigure(r.Journal, &al.Spec)
	var refused *audit.SettingError
	switch {
	case errors.As(err, &refused):
		prev := meta.FindStatusCondition(before.Status.Conditions, safetyv1alpha1.ReadyCondition)
		if prev == nil || prev.Reason != ledgerConfigRejectedReason || prev.ObservedGeneration != al.Generation {
			r.event(al, corev1.EventTypeWarning, ledgerConfigRejectedReason, "Reconfigure",
				"The ledger refuses %v; the journal keeps its previous settings", err)
		}
		return err
	case err != nil:
		// Not the spec's fault (the journal is closed): maintenance reports it.
		ctrl.LoggerFrom(ctx).Error(err, "Cannot apply the AuditLedger settings to the journal")
		return nil
	case len(changed) > 0:
		ctrl.LoggerFrom(ctx).Info("Applied the AuditLedger settings to the running journal", "changed", changed)
		r.event(al, corev1.EventTypeNormal, ledgerReconfiguredReason, "Reconfigure",
			"Applied %s to the running journal of writer %s", strings.Join(changed, ", "), r.Journal.Stats().Writer)
	}
	return nil
}

func (r *AuditLedgerReconciler) event(al *safetyv1alpha1.AuditLedger, eventType, reason, action, note string, args ...any) {
	if r.Recorder != nil {
		r.Recorder.Eventf(al, nil, eventType, reason, action, note, args...)
	}
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
	vol := volumeOf(uint64(fs.Bsize), fs.Blocks, fs.Bavail)
	al.Status.Volume = &vol
	status, why := metav1.ConditionFalse, "SpaceAvailable"
	if vol.AvailablePercent < nearlyFullPercent {
		status, why = metav1.ConditionTrue, "LowSpace"
	}
	meta.SetStatusCondition(&al.Status.Conditions, metav1.Condition{
		Type: safetyv1alpha1.AuditLedgerVolumeNearlyFullCondition, Status: status, Reason: why,
		Message: fmt.Sprintf("%d%% of the ledger volume is free", vol.AvailablePercent), ObservedGeneration: al.Generation,
		LastTransitionTime: metav1.NewTime(now),
	})
	meta.SetStatusCondition(&al.Status.Conditions, headroomCondition(vol, minFreePercent(&al.Spec), al.Generation, now))
}

// defaultMinFreePercent is the headroom threshold when the spec leaves it unset.
const defaultMinFreePercent = 20

func minFreePercent(spec *safetyv1alpha1.AuditLedgerSpec) int32 {
	if spec.FloodControl.MinFreePercent > 0 {
		return spec.FloodControl.MinFreePercent
	}
	return defaultMinFreePercent
}

// volumeOf is the volume's headroom from statfs numbers (block size, blocks, blocks available
// to unprivileged writers).
func volumeOf(bsize, blocks, avail uint64) safetyv1alpha1.LedgerVolume {
	return safetyv1alpha1.LedgerVolume{
		CapacityBytes: int64(blocks * bsize), AvailableBytes: int64(avail * bsize),
		AvailablePercent: int32(avail * 100 / blocks),
	}
}

// headroomCondition is False once less than minFree percent of the volume is free, so an
// operator is told while there is still room, not when decisions start failing.
func headroomCondition(vol safetyv1alpha1.LedgerVolume, minFree int32, gen int64, now time.Time) metav1.Condition {
	c := metav1.Condition{
		Type: safetyv1alpha1.AuditLedgerVolumeHeadroomCondition, Status: metav1.ConditionTrue,
		Reason: safetyv1alpha1.AuditLedgerHeadroomOKReason, ObservedGeneration: gen, LastTransitionTime: metav1.NewTime(now),
		Message: fmt.Sprintf("%d%% of the ledger volume is free (%d of %d bytes); the threshold is %d%%",
			vol.AvailablePercent, vol.AvailableBytes, vol.CapacityBytes, minFree),
	}
	if vol.AvailablePercent < minFree {
		c.Status, c.Reason = metav1.ConditionFalse, safetyv1alpha1.AuditLedgerHeadroomLowReason
		c.Message += ": grow the volume or shorten retention before records cannot be written"
	}
	return c
}

// SetupWithManager watches the AuditLedger.
func (r *AuditLedgerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	if r.Recorder == nil {
		r.Recorder = mgr.GetEventRecorder("toolgate-ledger")
	}
	return ctrl.NewControllerManagedBy(mgr).For(&safetyv1alpha1.AuditLedger{}).Named("auditledger").Complete(r)
}
