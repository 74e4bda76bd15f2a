package v1alpha1

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/safety"
)

// ReasonSettledSpendHeld: a ProjectPolicy holding the settled spend of deleted plans may not be
// deleted while its namespace stays.
const ReasonSettledSpendHeld = "SettledSpendHeld"

// settledSpendHeld refuses deleting a ProjectPolicy whose status holds the spend of deleted plans
// (or plans being settled into it), unless its namespace is being deleted: that spend is nowhere
// else, so deleting the policy would give the project's maxTotalCost back to new plans. nil when
// the deletion may go ahead.
func settledSpendHeld(ctx context.Context, reader client.Reader, pp *safetyv1alpha1.ProjectPolicy) (*denial, error) {
	s := pp.Status.Settled
	if s == nil || (s.Plans == 0 && s.Calls == 0 && len(s.UIDs) == 0 && zeroCost(s.Cost)) {
		return nil, nil
	}
	ns := &corev1.Namespace{}
	switch err := reader.Get(ctx, client.ObjectKey{Name: pp.Namespace}, ns); {
	case apierrors.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading namespace %s: %w", pp.Namespace, err)
	case ns.DeletionTimestamp != nil:
		return nil, nil // the namespace goes with its plans and budget
	}
	return &denial{ReasonSettledSpendHeld, "status.settled", fmt.Sprintf(
		"ProjectPolicy %s/%s holds the settled spend of %d deleted plans (cost %s, %d calls), which counts toward the project's "+
			"maxTotalCost and is kept nowhere else: deleting it would give that budget back. Edit its spec instead; "+
			"it is deleted with its namespace", pp.Namespace, pp.Name, s.Plans, orZero(s.Cost), s.Calls)}, nil
}

// zeroCost says whether a settled cost is nothing; one that does not parse is held as spend.
func zeroCost(c string) bool {
	if c == "" {
		return true
	}
	m, err := safety.ParseMoney(c)
	return err == nil && m.IsZero()
}

func orZero(c string) string {
	if c == "" {
		return "0"
	}
	return c
}
