package audit

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

// MaxLossSample is how many lost records a loss record describes one by one; it counts the rest.
const MaxLossSample = 100

// maxLossErrorLen bounds each remembered error message, so the account stays small.
const maxLossErrorLen = 256

// policyUnknown is a loss entry's failurePolicy when the Log has no FailurePolicy function.
const policyUnknown = "unknown"

// lostRecord is one record that could not be made durable.
type lostRecord struct {
	at     time.Time
	kind   string
	ident  map[string]any // identifying fields: decision, reason, namespace, plan, call, ...
	policy string
	err    string
}

// lossSet is an account of lost records: counts for all of them and the first MaxLossSample.
type lossSet struct {
	n           uint64
	first, last time.Time
	byKind      map[string]uint64
	byPolicy    map[string]uint64
	sample      []lostRecord
	lastErr     string
}

func (s *lossSet) add(r lostRecord) {
	if s.n == 0 {
		s.first = r.at
		s.byKind, s.byPolicy = map[string]uint64{}, map[string]uint64{}
	}
	s.n++
	s.last = r.at
	s.byKind[r.kind]++
	s.byPolicy[r.policy]++
	s.lastErr = r.err
	if len(s.sample) < MaxLossSample {
		s.sample = append(s.sample, r)
	}
}

// merge adds newer, an account of later losses, to s.
func (s *lossSet) merge(newer lossSet) {
	if newer.n == 0 {
		return
	}
	if s.n == 0 {
		*s = newer
		return
	}
	s.n += newer.n
	s.last, s.lastErr = newer.last, newer.lastErr
	for k, v := range newer.byKind {
		s.byKind[k] += v
	}
	for k, v := range newer.byPolicy {
		s.byPolicy[k] += v
	}
	room := max(MaxLossSample-len(s.sample), 0)
	s.sample = append(s.sample, newer.sample[:min(room, len(newer.sample))]...)
}

// fields are the loss record's content.
func (s *lossSet) fields() map[string]any {
	sample := make([]map[string]any, len(s.sample))
	for i, r := range s.sample {
		e := maps.Clone(r.ident)
		e["time"], e["kind"], e["failurePolicy"], e["error"] = r.at.UTC().Format(time.RFC3339Nano), r.kind, r.policy, r.err
		sample[i] = e
	}
	return map[string]any{
		ledger.FieldLost:      s.n,
		ledger.FieldFirstLost: s.first.UTC().Format(time.RFC3339Nano),
		ledger.FieldLastLost:  s.last.UTC().Format(time.RFC3339Nano),
		"byKind":              s.byKind,
		"byFailurePolicy":     s.byPolicy,
		"sample":              sample,
		"sampleOmitted":       s.n - uint64(len(s.sample)),
		"lastError":           s.lastErr,
	}
}

// lossAccount is a Log's memory of records that failed, until a loss record holds them.
type lossAccount struct {
	once    sync.Once
	flush   chan struct{} // a semaphore: one loss record in flight at a time
	pending atomic.Bool   // losses wait to be recorded; appends check it without a lock

	mu       sync.Mutex
	cur      lossSet
	inFlight uint64 // lost records in the loss record being written: still unrecorded until it is

	recorded atomic.Uint64 // lost records accounted for by loss records
	records  atomic.Uint64 // loss records written
}

func (a *lossAccount) sem() chan struct{} {
	a.once.Do(func() { a.flush = make(chan struct{}, 1) })
	return a.flush
}

// LossStats says how many records this Log failed to make durable.
type LossStats struct {
	// Unrecorded are lost records no loss record holds yet: the next successful append, or the
	// next FlushLosses, writes one for them.
	Unrecorded uint64
	// Recorded are lost records that loss records in the ledger account for, in LossRecords
	// records, since this Log was made.
	Recorded    uint64
	LossRecords uint64
}

// LossStats returns the Log's loss counters.
func (l *Log) LossStats() LossStats {
	l.losses.mu.Lock()
	defer l.losses.mu.Unlock()
	return LossStats{Unrecorded: l.losses.cur.n + l.losses.inFlight,
		Recorded: l.losses.recorded.Load(), LossRecords: l.losses.records.Load()}
}

// append makes rec durable, after a loss record for earlier failures if there are any. If either
// fails, rec is added to the loss account (described by ident) and the error returned: the
// caller decides what to answer, and the loss is recorded as soon as the journal is writable.
// Every record kind the Log writes goes through here.
func (l *Log) append(ctx context.Context, rec ledger.Record, ident identity) error {
	_, err := l.appendReceipt(ctx, rec, ident)
	return err
}

// appendReceipt is append, returning the record's receipt.
func (l *Log) appendReceipt(ctx context.Context, rec ledger.Record, ident identity) (ledger.Receipt, error) {
	var receipt ledger.Receipt
	err := l.FlushLosses(ctx)
	if err == nil {
		receipt, err = l.Journal.Append(ctx, rec)
	}
	if err != nil {
		l.lose(ctx, rec.Kind, ident.ident(), err)
	}
	return receipt, err
}

// identity gives a record's identifying fields for a loss entry, built only when the record is
// lost: a decision's are a map of their own, which a durable decision never needs.
type identity interface{ ident() map[string]any }

// identMap is identifying fields built beforehand.
type identMap map[string]any

func (m identMap) ident() map[string]any { return m }

func (l *Log) lose(ctx context.Context, kind string, ident map[string]any, cause error) {
	policy := policyUnknown
	if l.FailurePolicy != nil {
		// The webhook reads the same policy right after this failure to decide its answer.
		if p := l.FailurePolicy(context.WithoutCancel(ctx)); p != "" {
			policy = string(p)
		}
	}
	msg := cause.Error()
	if len(msg) > maxLossErrorLen {
		msg = msg[:maxLossErrorLen] + "…"
	}
	r := lostRecord{at: l.now(), kind: kind, ident: ident, policy: policy, err: msg}
	l.losses.mu.Lock()
	l.losses.cur.add(r)
	l.losses.pending.Store(true)
	l.losses.mu.Unlock()
}

func (l *Log) now() time.Time {
	if l.Clock != nil {
		return l.Clock.Now()
	}
	return time.Now()
}

// FlushLosses appends one loss record for every record that failed since the last one, if any
// did. Only one loss record is written at a time; appends that find losses pending wait for it,
// so once the journal is writable again the loss record comes before their records. An error
// means the journal is still not writable; the losses stay in the account.
func (l *Log) FlushLosses(ctx context.Context) error {
	a := &l.losses
	if !a.pending.Load() {
		return nil
	}
	sem := a.sem()
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("audit: waiting to record earlier losses: %w", ctx.Err())
	}
	defer func() { <-sem }()
	a.mu.Lock()
	set := a.cur
	a.cur = lossSet{}
	a.inFlight = set.n
	a.mu.Unlock()
	if set.n == 0 {
		return nil // another append recorded them while this one waited
	}
	// Not cancellable: a cancelled wait would leave it unknown whether the loss record was
	// written, and writing it again would count the losses twice.
	_, err := l.Journal.Append(context.WithoutCancel(ctx), ledger.Record{Kind: ledger.KindLoss, Time: l.now(), Fields: set.fields()})
	a.mu.Lock()
	defer a.mu.Unlock()
	a.inFlight = 0
	if err != nil {
		set.merge(a.cur)
		a.cur = set
	} else {
		a.recorded.Add(set.n)
		a.records.Add(1)
	}
	a.pending.Store(a.cur.n > 0)
	if err != nil {
		return fmt.Errorf("audit: %d earlier records are still unrecorded: %w", set.n, err)
	}
	return nil
}

// LossFlusher writes a Log's pending loss record on a schedule, so a loss is recorded as soon
// as the journal is writable again even when no decision follows. It is a manager runnable that
// runs on every replica (each has its own journal), not only on the leader.
type LossFlusher struct {
	Log *Log
	// Interval between attempts; 0 means 10 seconds.
	Interval time.Duration
}

// NeedLeaderElection is false: every replica flushes its own journal's losses.
func (f *LossFlusher) NeedLeaderElection() bool { return false }

// Start flushes every Interval until ctx ends, then once more. Losses it still cannot record when
// the manager stops are written to the log, one line with the full account.
func (f *LossFlusher) Start(ctx context.Context) error {
	log := logf.FromContext(ctx).WithName("ledger-losses")
	every := f.Interval
	if every <= 0 {
		every = 10 * time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if err := f.Log.FlushLosses(ctx); err != nil && ctx.Err() == nil {
				log.Error(err, "Lost ledger records are not recorded yet; retrying", "unrecorded", f.Log.LossStats().Unrecorded)
			}
		case <-ctx.Done():
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			err := f.Log.FlushLosses(final)
			cancel()
			if err != nil {
				f.Log.logUnrecorded(log, err)
			}
			return nil
		}
	}
}

// logUnrecorded is the last resort at shutdown: the account goes to the log, never nowhere.
func (l *Log) logUnrecorded(log logr.Logger, err error) {
	l.losses.mu.Lock()
	fields := l.losses.cur.fields()
	l.losses.mu.Unlock()
	log.Error(err, "Stopping with ledger records that failed and that no loss record holds", "loss", fields)
}

// FailurePolicyFrom returns a FailurePolicy function that reads the cluster's AuditLedger
// through r, as the webhook does: Fail when there is none or it cannot be read.
func FailurePolicyFrom(r client.Reader) func(context.Context) safetyv1alpha1.LedgerFailurePolicy {
	return func(ctx context.Context) safetyv1alpha1.LedgerFailurePolicy { return FailurePolicyOf(ctx, r) }
}

// FailurePolicyOf is the failure policy of the cluster's AuditLedger; Fail when there is none or
// it cannot be read.
func FailurePolicyOf(ctx context.Context, r client.Reader) safetyv1alpha1.LedgerFailurePolicy {
	al := &safetyv1alpha1.AuditLedger{}
	if err := r.Get(ctx, client.ObjectKey{Name: LedgerName}, al); err != nil || al.Spec.FailurePolicy == "" {
		return safetyv1alpha1.LedgerFailurePolicyFail
	}
	return al.Spec.FailurePolicy
}
