package audit

import (
	"context"
	"maps"

	"github.com/toolgate/toolgate/internal/ledger"
)

// KindApproval is the kind of the records of ToolApproval creations.
const KindApproval = "approval"

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
	Arguments       map[string]any // the exact arguments approved (command, paths, cwd); nil for any
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

// RecordApproval appends one approval record, after a loss record if earlier records failed. Uses of an approval are in the decision records of
// the calls it admitted (their "approval" field).
func (l *Log) RecordApproval(ctx context.Context, a Approval) error {
	fields := map[string]any{
		"decision": a.Decision, "reason": a.Reason, fieldNamespace: a.Namespace, "name": a.Name,
		fieldPlan: a.Plan, fieldTool: a.Tool, fieldStep: a.Step, "argumentsDigest": a.ArgumentsDigest,
		"approver": a.Approver, "requester": a.Requester, "uses": a.Uses, "expiresAt": a.ExpiresAt, "note": a.Note,
	}
	if a.Arguments != nil {
		fields["arguments"] = a.Arguments
	}
	// A refused or unrecorded approval joins the loss account like a decision, without its note.
	ident := maps.Clone(fields)
	delete(ident, "note")
	err := l.append(ctx, ledger.Record{Kind: KindApproval, Fields: fields}, identMap(ident))
	return err
}
