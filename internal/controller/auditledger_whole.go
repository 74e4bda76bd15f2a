package controller

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
)

// argumentsWholeCondition says whether the ledger records every admissible argument whole. The
// API server keeps the maxStringLength it stored when the AuditLedger was made, so a ledger made
// before the default was raised to the longest argument still cuts longer ones, and an agent can
// pad its command past the limit to make its own decisions unreplayable: the condition says so
// and names the field to raise, rather than leaving it to be found by a replay.
func argumentsWholeCondition(spec *safetyv1alpha1.AuditLedgerSpec, gen int64, now time.Time) metav1.Condition {
	c := metav1.Condition{
		Type: safetyv1alpha1.AuditLedgerArgumentsWholeCondition, Status: metav1.ConditionTrue,
		Reason: safetyv1alpha1.AuditLedgerArgumentsWholeReason, ObservedGeneration: gen, LastTransitionTime: metav1.NewTime(now),
		Message: "every argument a call can carry is recorded whole",
	}
	if n := spec.Redaction.MaxStringLength; n != 0 && n < ledger.DefaultMaxStringLength {
		c.Status, c.Reason = metav1.ConditionFalse, safetyv1alpha1.AuditLedgerArgumentsCutReason
		c.Message = fmt.Sprintf("spec.redaction.maxStringLength is %d, below the longest argument a call can carry "+
			"(%d bytes): longer arguments are recorded cut, and replay cannot re-decide those calls; set it to %d",
			n, ledger.DefaultMaxStringLength, ledger.DefaultMaxStringLength)
	}
	return c
}
