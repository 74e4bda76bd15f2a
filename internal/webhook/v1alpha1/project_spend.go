package v1alpha1

import (
	"context"
	"fmt"
	"net/http"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// +kubebuilder:rbac:groups="",resources=namespaces,verbs=get

// fieldSettledCost is the field a refused deletion of a ProjectPolicy points at.
const fieldSettledCost = "status.settled.cost"

// projectSpendKept refuses to delete a ProjectPolicy whose status.settled holds the spend of the
// namespace's deleted plans, unless the namespace itself is being deleted (or is gone). That spend
// is what keeps deleting a plan from giving its budget back: it counts toward every later plan's
// maxTotalCost, and the ProjectPolicy is the one place it is kept. A ProjectPolicy deleted and
// created again under its name would start from nothing, and the project would have its whole
// budget again. The namespace's deletion takes the project's total with it, and must not be
// blocked. A ProjectPolicy that holds no spend (none of its plans deleted yet, or only free ones)
// is deleted as before.
func projectSpendKept(ctx context.Context, live client.Reader, pp *safetyv1alpha1.ProjectPolicy) error {
	s := pp.Status.Settled
	if s == nil || s.Cost == "" {
		return nil
	}
	cost, err := safety.ParseMoney(s.Cost)
	if err == nil && cost.IsZero() {
		return nil
	}
	// An unreadable figure (the schema keeps it a decimal) is kept as if it were spend.
	ns := &corev1.Namespace{}
	switch err := live.Get(ctx, client.ObjectKey{Name: pp.Namespace}, ns); {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil:
		// Not a refusal: whoever deletes (the namespace controller included) tries again.
		return apierrors.NewInternalError(fmt.Errorf("reading namespace %s, to know whether ProjectPolicy %s may go: %w", pp.Namespace, pp.Name, err))
	case ns.DeletionTimestamp != nil:
		return nil
	}
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusForbidden, Reason: metav1.StatusReasonForbidden,
		Message: fmt.Sprintf("ProjectPolicy %s/%s holds the spend of %d deleted plans (%s %s), which counts toward maxTotalCost; "+
			"deleting it would give that budget back to the project. It goes with its namespace; to change the project's policy, edit its spec",
			pp.Namespace, pp.Name, s.Plans, fieldSettledCost, s.Cost),
		Details: &metav1.StatusDetails{
			Group: safetyv1alpha1.GroupVersion.Group, Kind: "projectpolicies", Name: pp.Name,
			Causes: []metav1.StatusCause{{Type: metav1.CauseType(field.ErrorTypeForbidden), Field: fieldSettledCost,
				Message: "the spend of the namespace's deleted plans is kept for the namespace's life"}},
		},
	}}
}
