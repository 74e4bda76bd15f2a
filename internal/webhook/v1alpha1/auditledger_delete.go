package v1alpha1

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// ReasonPublishedHeadsHeld: an AuditLedger holding published signed heads may not be deleted.
const ReasonPublishedHeadsHeld = "PublishedHeadsHeld"

// AuditLedgerValidator admits every create and update of the AuditLedger (its schema and the
// CRD's transition rules say everything), and refuses deleting one that holds published heads.
type AuditLedgerValidator struct {
	admitAll[*safetyv1alpha1.AuditLedger]
}

// ValidateDelete refuses deleting an AuditLedger whose status holds signed heads: they are the
// ledger's anchor outside the volume, and deleting the object removes them all at once; created
// again, every writer would publish its current head as if nothing had been cut, so a
// rolled-back or truncated volume would verify. The CRD's rules keep each head from moving back;
// this keeps them from being removed wholesale. An administrator retires a ledger on purpose by
// uninstalling the operator first (its webhook goes with it), docs/ledger.md.
func (AuditLedgerValidator) ValidateDelete(_ context.Context, al *safetyv1alpha1.AuditLedger) (admission.Warnings, error) {
	d := publishedHeadsHeld(al)
	if d == nil {
		return nil, nil
	}
	return nil, d.statusError()
}

// publishedHeadsHeld is the denial of deleting al, nil when it holds no published head.
func publishedHeadsHeld(al *safetyv1alpha1.AuditLedger) *denial {
	heads := al.Status.SignedHeads
	if len(heads) == 0 {
		return nil
	}
	return &denial{ReasonPublishedHeadsHeld, "status.signedHeads", fmt.Sprintf(
		"AuditLedger %s holds the signed heads of %d ledger writers (status.signedHeads, e.g. writer %s at seq %d), the ledger's "+
			"only anchor outside its volume: deleting it would erase them, and writers would publish their current heads "+
			"anew, so records cut from the volume would no longer be detected. Edit its spec instead; to retire the ledger "+
			"on purpose, save the heads (kubectl get auditledger %s -o yaml) and uninstall the operator first (docs/ledger.md)",
		al.Name, len(heads), heads[0].Writer, heads[0].Seq, al.Name)}
}
