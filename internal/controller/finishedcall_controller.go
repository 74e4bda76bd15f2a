package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/policy"
)

// CompletionRecordAnnotation marked, in earlier versions, a finished AgentToolCall whose completion
// record is in the ledger; its value is a JSON completionMark. The operator no longer writes it (a
// write per call), but honours a mark for the call's own UID, so calls recorded before an upgrade
// are not recorded again. The mark names the call's UID, which the API server assigns after the
// agent has written the object, so an agent cannot pre-mark its own call to keep it out of the
// ledger: a mark for another UID is ignored.
const CompletionRecordAnnotation = "safety.toolgate.dev/completion-record"

// DefaultFinishedCallTTL applies when there is no AuditLedger or it sets no finishedCallTTLSeconds.
const DefaultFinishedCallTTL = time.Hour

// CompletionLog makes a finished call's completion record durable; audit.Log implements it.
type CompletionLog interface {
	RecordCompletion(ctx context.Context, c audit.Completion) (audit.CompletionReceipt, error)
}

// completionMark is the value of CompletionRecordAnnotation: where the record is, and the time the
// TTL counts from (audit.TTLStart).
type completionMark struct {
	UID        string    `json:"uid"`
	FinishedAt time.Time `json:"finishedAt"`
	Writer     string    `json:"writer"`
	Seq        uint64    `json:"seq"`
	Hash       string    `json:"hash"`
	// Cost is the cost the record holds (completionCost), and records how many completions of the
	// call this process appended; both kept in memory only (settleCost).
	Cost    string `json:"-"`
	records int
}

// FinishedCallReconciler writes a completion record for every finished AgentToolCall (and one more
// when it goes with a cost reported since: settleCost) and deletes the call
// finishedCallTTLSeconds after it finished, so etcd stays small while the ledger keeps what
// happened and the plan's usage counters keep what it cost.
type FinishedCallReconciler struct {
	client.Client
	Clock clock.PassiveClock
	Log   CompletionLog
	// Counters, the webhook's counters in this process, count a call into the deleted part of its
	// plan's stored counters before the call is deleted; nil deletes without (no webhook here).
	Counters CallSettler

	mu sync.Mutex
	// recorded holds the completions this process appended, by call, until the call is gone: what
	// stops a call from being recorded twice, and the time its TTL counts from.
	recorded map[types.NamespacedName]completionMark
}

// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=agenttoolcalls,verbs=get;list;watch;update;patch;delete
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=auditledgers;agentplans,verbs=get;list;watch

// Reconcile records a finished call once, then deletes it when its TTL has passed (recording it
// again first if its cost changed since). Unfinished calls are never touched. Neither costs a
// write of the call beyond its deletion: which calls this
// process has recorded is kept in memory (so a restart records the calls still present once
// more: the ledger holds each completion at least once, repeats carrying the same uid), which
// keeps a call at create, report and delete.
func (r *FinishedCallReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	call := &safetyv1alpha1.AgentToolCall{}
	if err := r.Get(ctx, req.NamespacedName, call); err != nil {
		if apierrors.IsNotFound(err) {
			r.forget(req.NamespacedName)
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !finished(call) {
		return ctrl.Result{}, nil
	}
	// A mark written by an earlier operator version says the record is already there.
	mark, ok := readMark(call)
	if !ok {
		var err error
		if mark, err = r.record(ctx, call); err != nil {
			return ctrl.Result{}, err
		}
	}
	if call.DeletionTimestamp != nil {
		return ctrl.Result{}, nil
	}
	return r.expire(ctx, call, mark)
}

// FinishedCalls selects, on the API server, the AgentToolCalls that have finished: the only ones
// the manager watches (operator.CacheOptions). CallPhase is an enum, and a field selector cannot
// say "Succeeded or Failed", so it says "none of the others". Every call is created with no
// phase (its status is not the creator's to set), so a create is never sent to the manager: the
// API server does not encode and send it, and the manager does not decode and keep it, which
// for the admission path is most of what a watch of every call cost (docs/webhook.md, "What the
// manager watches").
func FinishedCalls() fields.Selector {
	return fields.AndSelectors(
		fields.OneTermNotEqualSelector(CallPhaseField, ""),
		fields.OneTermNotEqualSelector(CallPhaseField, string(safetyv1alpha1.CallPhaseAdmitted)),
		fields.OneTermNotEqualSelector(CallPhaseField, string(safetyv1alpha1.CallPhaseRunning)))
}

// CallPhaseField and CallPlanField are the AgentToolCall CRD's selectable fields.
const (
	CallPhaseField = "status.phase"
	CallPlanField  = "spec.plan"
)

func finished(c *safetyv1alpha1.AgentToolCall) bool {
	return c.Status.Phase == safetyv1alpha1.CallPhaseSucceeded || c.Status.Phase == safetyv1alpha1.CallPhaseFailed
}

// readMark returns the call's completion mark if it is one for this very object.
func readMark(c *safetyv1alpha1.AgentToolCall) (completionMark, bool) {
	var m completionMark
	v, ok := c.Annotations[CompletionRecordAnnotation]
	if !ok || json.Unmarshal([]byte(v), &m) != nil || m.UID != string(c.UID) || m.FinishedAt.IsZero() {
		return completionMark{}, false
	}
	return m, true
}

// record appends the completion record the first time this process sees call finished. A crash
// between the append and the mark repeats the record after the restart: the ledger holds each
// completion at least once, and repeats carry the same uid. A cost reported later is recorded
// when the call goes (settleCost), not at each report: a reporter may raise a finished call's cost
// as often as it writes, by as little as a billionth, within what the call reserved and so for
// free, and a record per report would fill the ledger's volume.
func (r *FinishedCallReconciler) record(ctx context.Context, call *safetyv1alpha1.AgentToolCall) (completionMark, error) {
	r.mu.Lock()
	m, ok := r.recorded[client.ObjectKeyFromObject(call)]
	r.mu.Unlock()
	if ok && m.UID == string(call.UID) {
		return m, nil
	}
	return r.appendCompletion(ctx, call, audit.TTLStart(call, r.Clock.Now()), 1)
}

// maxCompletionRecords is how many completions of one call this process appends: when it is seen
// finished, and once more when it goes if its cost has changed since (settleCost).
const maxCompletionRecords = 2

// settleCost appends the completion again, with the first record's finishedAt, when call is about
// to be deleted with a cost other than the one last recorded (the agent may mark its call finished
// before its reporter reports what it cost): the ledger's last completion of a call then holds the
// cost the call was deleted with, and removeCall's resourceVersion precondition deletes it only as
// so recorded. Once only: a cost raised again between that record and the deletion (a race the
// reporter would have to win) is not recorded again, and the call goes as it is then.
func (r *FinishedCallReconciler) settleCost(ctx context.Context, call *safetyv1alpha1.AgentToolCall, m completionMark) error {
	if completionCost(call) == m.Cost || m.records >= maxCompletionRecords {
		return nil
	}
	_, err := r.appendCompletion(ctx, call, m.FinishedAt, m.records+1)
	return err
}

// appendCompletion appends call's completion, whose TTL counts from start, as this process's
// records-th of it, and keeps its receipt.
func (r *FinishedCallReconciler) appendCompletion(ctx context.Context, call *safetyv1alpha1.AgentToolCall, start time.Time,
	records int) (completionMark, error) {
	key := client.ObjectKeyFromObject(call)
	c := completionOf(call, string(call.Status.Phase), start)
	receipt, err := r.Log.RecordCompletion(ctx, c)
	if err != nil {
		return completionMark{}, fmt.Errorf("recording the completion of AgentToolCall %s: %w", key, err)
	}
	m := completionMark{UID: string(call.UID), FinishedAt: start.UTC(), Writer: receipt.Writer, Seq: receipt.Seq, Hash: receipt.Hash,
		Cost: c.Cost, records: records}
	r.mu.Lock()
	if r.recorded == nil {
		r.recorded = map[types.NamespacedName]completionMark{}
	}
	r.recorded[key] = m
	r.mu.Unlock()
	return m, nil
}

// expire deletes the call once its TTL has passed, and, while it awaits its cost (awaitsReport),
// the reporter's window (policy.ReportWindow) since its creation; removeCall settles what it
// counted into its plan's deleted part first.
func (r *FinishedCallReconciler) expire(ctx context.Context, call *safetyv1alpha1.AgentToolCall, m completionMark) (ctrl.Result, error) {
	ttl, err := r.ttl(ctx)
	if err != nil {
		return ctrl.Result{}, err
	}
	due := m.FinishedAt.Add(ttl)
	// Not before the reporter's window ends while the call awaits its cost: the agent may mark its
	// own call finished at once, and a short TTL would then delete it before the reporter's cost,
	// which would find it gone and never be counted.
	awaits, err := r.awaitsReport(ctx, call)
	if err != nil {
		return ctrl.Result{}, err
	}
	if reportable := call.CreationTimestamp.Add(policy.ReportWindow); awaits && reportable.After(due) {
		due = reportable
	}
	if wait := due.Sub(r.Clock.Now()); wait > 0 {
		return ctrl.Result{RequeueAfter: wait}, nil
	}
	if err := r.settleCost(ctx, call, m); err != nil {
		return ctrl.Result{}, err
	}
	if retry, err := removeCall(ctx, r.Client, r.Counters, call); err != nil || retry > 0 {
		return ctrl.Result{RequeueAfter: retry}, err
	}
	r.forget(client.ObjectKeyFromObject(call))
	ctrl.LoggerFrom(ctx).V(1).Info("Deleted finished AgentToolCall after its TTL", "ttl", ttl, "completionSeq", m.Seq)
	return ctrl.Result{}, nil
}

// awaitsReport says a cost report may still come for call: its plan names a reporter, which has
// not said the call's cost is final (policy.CostFinal, only the reporter's to write). A cost
// alone does not say so: a reporter may report a cost while the call runs, and the agent then mark
// the call finished; deleted at a short TTL, the call would leave the reporter's final cost
// nowhere to be counted.
func (r *FinishedCallReconciler) awaitsReport(ctx context.Context, call *safetyv1alpha1.AgentToolCall) (bool, error) {
	if policy.CostFinal(call) {
		return false, nil
	}
	plan := &safetyv1alpha1.AgentPlan{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: call.Namespace, Name: call.Spec.Plan}, plan); err != nil {
		if apierrors.IsNotFound(err) {
			return false, nil // a deleted plan's spend is settled: no report counts any more
		}
		return false, fmt.Errorf("reading plan %s of AgentToolCall %s/%s: %w", call.Spec.Plan, call.Namespace, call.Name, err)
	}
	return policy.CostReporterUser(plan) != "", nil
}

// ttl is the AuditLedger's finishedCallTTLSeconds, or the default without one.
func (r *FinishedCallReconciler) ttl(ctx context.Context) (time.Duration, error) {
	return finishedTTL(ctx, r.Client)
}

func (r *FinishedCallReconciler) forget(key types.NamespacedName) {
	r.mu.Lock()
	delete(r.recorded, key)
	r.mu.Unlock()
}

// SetupWithManager watches finished calls, and the AuditLedger, whose TTL change re-times them all.
func (r *FinishedCallReconciler) SetupWithManager(mgr ctrl.Manager) error {
	isFinished := predicate.NewPredicateFuncs(func(o client.Object) bool { return finished(o.(*safetyv1alpha1.AgentToolCall)) })
	return ctrl.NewControllerManagedBy(mgr).
		For(&safetyv1alpha1.AgentToolCall{}, builder.WithPredicates(isFinished)).
		Watches(&safetyv1alpha1.AuditLedger{}, handler.EnqueueRequestsFromMapFunc(r.finishedCalls),
			builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Named("finishedcall").
		Complete(r)
}

func (r *FinishedCallReconciler) finishedCalls(ctx context.Context, _ client.Object) []reconcile.Request {
	var calls safetyv1alpha1.AgentToolCallList
	if err := r.List(ctx, &calls); err != nil {
		ctrl.LoggerFrom(ctx).Error(err, "Listing AgentToolCalls")
		return nil
	}
	var reqs []reconcile.Request
	for i := range calls.Items {
		if finished(&calls.Items[i]) {
			reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&calls.Items[i])})
		}
	}
	return reqs
}
