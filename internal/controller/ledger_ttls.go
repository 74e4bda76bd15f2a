package controller

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
)

// finishedTTL is how long finished objects (calls, spent approvals) stay: the AuditLedger's
// finishedCallTTLSeconds, or the default without one.
func finishedTTL(ctx context.Context, c client.Reader) (time.Duration, error) {
	return ledgerTTL(ctx, c, func(s *safetyv1alpha1.AuditLedgerSpec) *int64 { return s.FinishedCallTTLSeconds }, DefaultFinishedCallTTL)
}

// endedPlanTTL is how long ended plans stay: the AuditLedger's endedPlanTTLSeconds, or the default
// without one.
func endedPlanTTL(ctx context.Context, c client.Reader) (time.Duration, error) {
	return ledgerTTL(ctx, c, func(s *safetyv1alpha1.AuditLedgerSpec) *int64 { return s.EndedPlanTTLSeconds }, DefaultEndedPlanTTL)
}

// ledgerTTL reads one of the AuditLedger's TTLs; def applies without the AuditLedger or the field.
func ledgerTTL(ctx context.Context, c client.Reader, field func(*safetyv1alpha1.AuditLedgerSpec) *int64, def time.Duration) (time.Duration, error) {
	l := &safetyv1alpha1.AuditLedger{}
	if err := c.Get(ctx, client.ObjectKey{Name: audit.LedgerName}, l); err != nil {
		if apierrors.IsNotFound(err) {
			return def, nil
		}
		return 0, fmt.Errorf("reading AuditLedger %s: %w", audit.LedgerName, err)
	}
	if s := field(&l.Spec); s != nil {
		return time.Duration(*s) * time.Second, nil
	}
	return def, nil
}
