// Package audit connects the admission webhook and the controllers to the pure ledger: it turns
// an AuditLedger's spec into the journal's configuration and decisions into ledger records.
package audit

import (
	"context"
	"sync/atomic"
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
	// flood is the FloodControl that limits this log's denials (set by its first Refuse): each
	// denial recorded is charged to its requester's window by its bytes.
	flood atomic.Pointer[FloodControl]
}

// defaultRetention is spec.retention.maxAgeDays' default, 90 days.
const defaultRetention = 90 * 24 * time.Hour

// Retention is how long sealed segments are kept under spec (nil: the default); 0 keeps them
// forever.
func Retention(spec *safetyv1alpha1.AuditLedgerSpec) time.Duration {
	if spec == nil || spec.Retention.MaxAgeDays == nil {
		return defaultRetention
	}
	return time.Duration(*spec.Retention.MaxAgeDays) * 24 * time.Hour
}

// Config builds the journal configuration from an AuditLedger spec (nil: the defaults).
func Config(spec *safetyv1alpha1.AuditLedgerSpec, dir, writer string, clk ledger.Clock) ledger.Config {
	cfg := ledger.Config{Dir: dir, Writer: writer, Daily: true, Compress: true, MaxAge: Retention(spec), Clock: clk}
	if spec == nil {
		return cfg
	}
	cfg.MaxSegmentBytes = spec.Rotation.MaxSegmentBytes
	if spec.Rotation.Daily != nil {
		cfg.Daily = *spec.Rotation.Daily
	}
	cfg.Compress = spec.Compression != safetyv1alpha1.LedgerCompressionNone
	cfg.MaxSegments = int(spec.Retention.MaxSegments)
	cfg.RedactKeys = spec.Redaction.ExtraKeys
	cfg.MaxStringLength = int(spec.Redaction.MaxStringLength)
	return cfg
}
