// Package audit connects the admission webhook and the controllers to the pure ledger: it turns
// an AuditLedger's spec into the journal's configuration and decisions into ledger records.
package audit

import (
	"context"
	"maps"
	"time"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

// LedgerName is the one AuditLedger the cluster holds.
const LedgerName = "default"

// KindDecision is the ledger record kind of an admission decision.
const KindDecision = "decision"

// Field names that records of several kinds share.
const (
	fieldNamespace = "namespace"
	fieldPlan      = "plan"
	fieldCall      = "call"
	fieldTool      = "tool"
	fieldStep      = "step"
)

// Decision is what the webhook records for every admission it answers.
type Decision struct {
	Decision     string // allow, deny, would_deny
	Reason       string
	Message      string
	Mode         string
	Namespace    string
	Plan         string
	Call         string
	Tool         string
	Step         string
	Requester    string
	SnapshotHash string
	// Approval names the ToolApproval that admitted the call ("namespace/name"), if one did.
	Approval string
}

// Log appends records to a journal; its methods return only once the record is durable.
//
// A record that cannot be made durable is never silently dropped: the Log keeps an account of it
// (counts, first and last time, and the first MaxLossSample records' identifying fields) and
// appends a "loss" record for the account before its next record, or from FlushLosses (a
// LossFlusher calls it on a schedule) as soon as the journal is writable again. That holds under
// both failure policies: under Ignore the webhook answered as decided, under Fail it denied the
// call LedgerUnavailable; either way the client got an answer the ledger does not hold.
type Log struct {
	Journal *ledger.Journal
	// FailurePolicy, when set, tells a loss entry which answer the client got (see above);
	// FailurePolicyFrom reads it as the webhook does. Without it the entry says "unknown".
	FailurePolicy func(context.Context) safetyv1alpha1.LedgerFailurePolicy
	// Clock stamps loss entries; nil means the wall clock.
	Clock ledger.Clock

	losses lossAccount
}

// RecordDecision appends one decision record, after a loss record if earlier records failed. On
// error the decision is in the loss account (see Log).
func (l *Log) RecordDecision(ctx context.Context, d Decision) error {
	fields := map[string]any{
		"decision": d.Decision, "reason": d.Reason, "message": d.Message, "mode": d.Mode,
		fieldNamespace: d.Namespace, fieldPlan: d.Plan, fieldCall: d.Call, fieldTool: d.Tool, fieldStep: d.Step,
		"requester": d.Requester, "snapshotHash": d.SnapshotHash,
	}
	if d.Approval != "" {
		fields["approval"] = d.Approval
	}
	// A loss entry names the decision by everything but its free text, so the account stays small.
	ident := maps.Clone(fields)
	delete(ident, "message")
	delete(ident, "snapshotHash")
	err := l.append(ctx, ledger.Record{Kind: KindDecision, Fields: fields}, ident)
	return err
}

// Config builds the journal configuration from an AuditLedger spec (nil: the defaults).
func Config(spec *safetyv1alpha1.AuditLedgerSpec, dir, writer string, clk ledger.Clock) ledger.Config {
	cfg := ledger.Config{Dir: dir, Writer: writer, Daily: true, Compress: true, MaxAge: 90 * 24 * time.Hour, Clock: clk}
	if spec == nil {
		return cfg
	}
	cfg.MaxSegmentBytes = spec.Rotation.MaxSegmentBytes
	if spec.Rotation.Daily != nil {
		cfg.Daily = *spec.Rotation.Daily
	}
	cfg.Compress = spec.Compression != safetyv1alpha1.LedgerCompressionNone
	if spec.Retention.MaxAgeDays != nil {
		cfg.MaxAge = time.Duration(*spec.Retention.MaxAgeDays) * 24 * time.Hour
	}
	cfg.MaxSegments = int(spec.Retention.MaxSegments)
	cfg.RedactKeys = spec.Redaction.ExtraKeys
	cfg.MaxStringLength = int(spec.Redaction.MaxStringLength)
	return cfg
}
