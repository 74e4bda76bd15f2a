package testenv

import (
	"context"
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
)

// LeaderElectionID is the manager's leader lease, in OperatorNamespace (cmd/main.go).
const LeaderElectionID = "a5e6bf89.toolgate.dev"

// AwaitLeader waits until the running manager holds the controllers' leader lease: a lease renewed
// after this manager started cannot be a predecessor's. A manager killed without releasing its
// lease leaves its successor waiting up to a lease duration (15 s) before the controllers run, so
// a test that needs a plan locked waits for this first.
func (l *Local) AwaitLeader(ctx context.Context, timeout time.Duration) error {
	cs, err := kubernetes.NewForConfig(l.Admin)
	if err != nil {
		return err
	}
	var last *coordinationv1.Lease
	var lastErr error
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		lease, err := cs.CoordinationV1().Leases(OperatorNamespace).Get(ctx, LeaderElectionID, metav1.GetOptions{})
		if err != nil {
			lastErr = err
			return false, nil
		}
		last, lastErr = lease, nil
		r := lease.Spec.RenewTime
		return r != nil && r.After(l.startedAt), nil
	})
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("the manager started at %s did not take the leader lease within %s (last seen: %+v, err %w): %w",
			l.startedAt.Format(time.RFC3339Nano), timeout, last, lastErr, err)
	}
	return err
}
