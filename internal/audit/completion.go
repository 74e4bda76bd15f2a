package audit

import (
	"context"
	"time"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

// KindCompletion is the ledger record kind of a finished AgentToolCall.
const KindCompletion = "completion"

// PhaseUnfinished is a completion's phase for a call deleted without ever being reported
// Succeeded or Failed, once its plan had ended or gone (docs/ledger.md, "Unfinished calls"). It
// is no CallPhase: no call carries it, so a reader tells the two endings apart by the phase
// alone; the phase the call last had is the record's lastPhase.
const PhaseUnfinished = "Unfinished"

// Completion is what the ledger keeps of a finished AgentToolCall once the object itself is
// deleted: which call it was (UID included, so a record repeated after a crash is recognisable),
// how it ended and what it cost.
type Completion struct {
	Namespace string
	Plan      string
	Call      string
	UID       string
	Tool      string
	Step      string
	Phase     string // Succeeded, Failed or PhaseUnfinished
	// LastPhase is an unfinished call's status.phase when it was deleted (Admitted, Running);
	// empty for a finished call, and for a call that never had a phase.
	LastPhase string
	Cost      string // exact decimal US dollars; empty when the agent reported none
	// FinishedAt is when the call counts as finished, the time its TTL counts from (TTLStart).
	FinishedAt time.Time
	// ReportedFinishedAt is the status.finishedAt the reporter wrote, zero when none: recorded as
	// claimed, never trusted for the TTL.
	ReportedFinishedAt time.Time
}

// TTLStart is when a finished call's TTL starts: the latest of its status.finishedAt, its
// creation and firstSeen, when the operator first saw it finished. The reporter writes
// finishedAt, so it only ever moves the start later, and never past firstSeen: a finishedAt of
// 1970-01-01 cannot make the call (the only full copy of its arguments besides the ledger)
// disappear the moment it finishes, and one in the future cannot keep it longer. As a finishedAt
// no later than firstSeen never exceeds it, the latest of the three is firstSeen or the creation.
func TTLStart(call *safetyv1alpha1.AgentToolCall, firstSeen time.Time) time.Time {
	if c := call.CreationTimestamp.Time; c.After(firstSeen) {
		return c
	}
	return firstSeen
}

// CompletionReceipt says where a completion record is: the writer's chain, its sequence number
// in that chain and its hash.
type CompletionReceipt struct {
	Writer string
	Seq    uint64
	Hash   string
}

// RecordCompletion appends one completion record and returns once it is durable.
func (l *Log) RecordCompletion(ctx context.Context, c Completion) (CompletionReceipt, error) {
	r, err := l.Journal.Append(ctx, ledger.Record{Kind: KindCompletion, Fixed: completionRecord{&c}})
	if err != nil {
		return CompletionReceipt{}, err
	}
	return CompletionReceipt{Writer: l.Journal.Stats().Writer, Seq: r.Seq, Hash: r.Hash}, nil
}

// completionRecord is a completion record's content; it writes itself, as a decision does
// (decisionRecord), and Fields is its definition.
type completionRecord struct{ c *Completion }

func (rec completionRecord) Fields() map[string]any {
	c := rec.c
	fields := map[string]any{
		"namespace": c.Namespace, "plan": c.Plan, "call": c.Call, FieldUID: c.UID, "tool": c.Tool,
		"step": c.Step, "phase": c.Phase, "cost": c.Cost, "finishedAt": c.FinishedAt.UTC().Format(time.RFC3339Nano),
	}
	if !c.ReportedFinishedAt.IsZero() {
		fields["reportedFinishedAt"] = c.ReportedFinishedAt.UTC().Format(time.RFC3339Nano)
	}
	if c.LastPhase != "" {
		fields["lastPhase"] = c.LastPhase
	}
	return fields
}

// WriteFields writes what Fields holds, keys in byte order.
func (rec completionRecord) WriteFields(w *ledger.FieldWriter) {
	c := rec.c
	w.String(fieldCall, c.Call)
	w.String("cost", c.Cost)
	w.String("finishedAt", c.FinishedAt.UTC().Format(time.RFC3339Nano))
	if c.LastPhase != "" {
		w.String("lastPhase", c.LastPhase)
	}
	w.String(fieldNamespace, c.Namespace)
	w.String("phase", c.Phase)
	w.String(fieldPlan, c.Plan)
	if !c.ReportedFinishedAt.IsZero() {
		w.String("reportedFinishedAt", c.ReportedFinishedAt.UTC().Format(time.RFC3339Nano))
	}
	w.String(fieldStep, c.Step)
	w.String(fieldTool, c.Tool)
	w.String(FieldUID, c.UID)
}
