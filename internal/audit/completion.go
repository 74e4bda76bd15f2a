package audit

import (
	"context"
	"time"

	"github.com/toolgate/toolgate/internal/ledger"
)

// KindCompletion is the ledger record kind of a finished AgentToolCall.
const KindCompletion = "completion"

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
	Phase     string // Succeeded or Failed
	Cost      string // exact decimal US dollars; empty when the agent reported none
	// FinishedAt is the call's status.finishedAt, or when the operator first saw it finished.
	FinishedAt time.Time
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
	r, err := l.Journal.Append(ctx, ledger.Record{Kind: KindCompletion, Fields: map[string]any{
		"namespace": c.Namespace, "plan": c.Plan, "call": c.Call, "uid": c.UID, "tool": c.Tool,
		"step": c.Step, "phase": c.Phase, "cost": c.Cost, "finishedAt": c.FinishedAt.UTC().Format(time.RFC3339Nano),
	}})
	if err != nil {
		return CompletionReceipt{}, err
	}
	return CompletionReceipt{Writer: l.Journal.Stats().Writer, Seq: r.Seq, Hash: r.Hash}, nil
}
