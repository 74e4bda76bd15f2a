package audit

import (
	"context"

	"github.com/toolgate/toolgate/internal/ledger"
)

// Approval is what the webhook records when a person creates a ToolApproval, or is refused one.
type Approval struct {
	Decision        string // allow or deny
	Reason          string // why it was refused; empty when allowed
	Namespace       string
	Name            string
	Plan            string
	Tool            string
	Step            string
	ArgumentsDigest string
	Approver        string
	Requester       string
	Uses            int32
	ExpiresAt       string // RFC 3339
	Note            string // the approver's spec.reason
}

// ApprovalLog makes approval records durable; the webhook answers only after it returns.
type ApprovalLog interface {
	RecordApproval(ctx context.Context, a Approval) error
}

// RecordApproval appends one approval record. Uses of an approval are in the decision records of
// the calls it admitted (their "approval" field).
func (l *Log) RecordApproval(ctx context.Context, a Approval) error {
	_, err := l.Journal.Append(ctx, ledger.Record{Kind: "approval", Fields: map[string]any{
		"decision": a.Decision, "reason": a.Reason, "namespace": a.Namespace, "name": a.Name,
		"plan": a.Plan, "tool": a.Tool, "step": a.Step, "argumentsDigest": a.ArgumentsDigest,
		"approver": a.Approver, "requester": a.Requester, "uses": a.Uses, "expiresAt": a.ExpiresAt, "note": a.Note,
	}})
	return err
}
