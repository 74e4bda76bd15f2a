// Package audit connects the admission webhook and the controllers to the pure ledger: it turns
// an AuditLedger's spec into the journal's configuration and decisions into ledger records.
package audit

import (
	"context"
	"time"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

// LedgerName is the one AuditLedger the cluster holds.
const LedgerName = "default"

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
type Log struct {
	Journal *ledger.Journal
}

// RecordDecision appends one decision record.
func (l *Log) RecordDecision(ctx context.Context, d Decision) error {
	fields := map[string]any{
		"decision": d.Decision, "reason": d.Reason, "message": d.Message, "mode": d.Mode,
		"namespace": d.Namespace, "plan": d.Plan, "call": d.Call, "tool": d.Tool, "step": d.Step,
		"requester": d.Requester, "snapshotHash": d.SnapshotHash,
	}
	if d.Approval != "" {
		fields["approval"] = d.Approval
	}
	_, err := l.Journal.Append(ctx, ledger.Record{Kind: "decision", Fields: fields})
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
