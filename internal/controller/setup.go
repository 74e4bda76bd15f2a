package controller

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
)

// Options configure toolgate's controllers.
type Options struct {
	// Clock is the time source of every reconciler; nil means the real clock.
	Clock clock.PassiveClock
	// Journal is this replica's decision ledger, maintained by the AuditLedger controller, which
	// also holds the completion records of finished calls. nil runs neither the ledger controller
	// nor the finished-call, unfinished-call and spent-approval controllers: what the ledger cannot hold is never
	// deleted.
	Journal *ledger.Journal
	// LedgerDir is the journal's directory, for the free-space check.
	LedgerDir string
	// Configs records plan locks and re-locks; nil means a Log on Journal (none without one).
	Configs audit.ConfigLog
	// Counters closes a deleted plan's counters in the webhook of this process and waits until
	// they are in its status, before its spend is settled from it; nil waits for nothing.
	Counters CounterStore
}

// CounterStore is the webhook's (webhookv1alpha1.CounterStore), seen from the controllers.
type CounterStore interface {
	Seal(ctx context.Context, plan *safetyv1alpha1.AgentPlan) error
	// Relocked says plan, as written, is stored with a new snapshot: the counters then decide
	// none of its calls with the one it replaced, whatever the webhook's cache still shows.
	Relocked(plan *safetyv1alpha1.AgentPlan)
}

// CallSettler is the webhook's CounterStore, seen from the finished-call controller: a call's
// counts go into the deleted part of its plan's stored counters before the call is deleted
// (webhookv1alpha1's usage_deleted.go).
type CallSettler interface {
	// SettleCall counts call into its plan's deleted part, once, and says whether the write
	// that holds it is stored.
	SettleCall(ctx context.Context, plan *safetyv1alpha1.AgentPlan, call *safetyv1alpha1.AgentToolCall) (bool, error)
	// CallDeleted notes that a settled call is deleted.
	CallDeleted(plan types.NamespacedName, call types.UID)
}

// SetupWithManager registers every toolgate controller and index with mgr, and the start-up task
// that ensures the built-in SafetyProfiles. main.go and the envtest suites both call it, so tests
// run exactly the production wiring.
func SetupWithManager(mgr ctrl.Manager, opts Options) error {
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	if err := SetupIndexes(context.Background(), mgr.GetFieldIndexer()); err != nil {
		return err
	}
	if opts.Configs == nil && opts.Journal != nil {
		opts.Configs = &audit.Log{Journal: opts.Journal}
	}
	c := mgr.GetClient()
	reconcilers := []interface{ SetupWithManager(ctrl.Manager) error }{
		&AgentPlanReconciler{Client: c, APIReader: mgr.GetAPIReader(), Clock: opts.Clock, Recorder: mgr.GetEventRecorder("toolgate-plan"),
			Configs: opts.Configs, Counters: opts.Counters},
		&SafetyProfileReconciler{Client: c, Clock: opts.Clock},
		&AutomationProfileReconciler{Client: c, Clock: opts.Clock},
		&ProjectPolicyReconciler{Client: c, Clock: opts.Clock},
	}
	if opts.Journal != nil {
		settler, _ := opts.Counters.(CallSettler)
		reconcilers = append(reconcilers, &AuditLedgerReconciler{Client: c, Clock: opts.Clock, Journal: opts.Journal, Dir: opts.LedgerDir},
			&FinishedCallReconciler{Client: c, Clock: opts.Clock, Log: &audit.Log{Journal: opts.Journal}, Counters: settler},
			&UnfinishedCallReconciler{Client: c, APIReader: mgr.GetAPIReader(), Clock: opts.Clock, Log: &audit.Log{Journal: opts.Journal}, Counters: settler},
			&SpentApprovalReconciler{Client: c, Clock: opts.Clock},
			&EndedPlanReconciler{Client: c, APIReader: mgr.GetAPIReader(), Clock: opts.Clock})
	}
	for _, r := range reconcilers {
		if err := r.SetupWithManager(mgr); err != nil {
			return err
		}
	}
	if err := mgr.Add(&LegacyFinalizerSweep{Client: c, Reader: mgr.GetAPIReader()}); err != nil {
		return err
	}
	// Built-ins are written by the leader only, once its caches are up. Writing them passes the
	// SafetyProfile webhook, which may wait for its certificate, so failures are retried.
	return mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
		log := ctrl.LoggerFrom(ctx).WithName("builtins")
		return wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
			if err := EnsureBuiltins(ctx, c); err != nil {
				log.Info("Built-in SafetyProfiles not written yet; retrying", "reason", err.Error())
				return false, nil
			}
			return true, nil
		})
	}))
}
