package testenv

import (
	"context"
	"fmt"
	"io"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"

	"github.com/toolgate/toolgate/internal/safety"
)

// ApplySamples applies config/samples with kubectl once the running manager has written the
// built-in SafetyProfiles, which the samples also hold: kubectl apply reads an object and then
// creates it, so a leader writing the same built-in between the two makes the create fail
// AlreadyExists. What the manager writes at start-up is waited for, not raced.
func (l *Local) ApplySamples(ctx context.Context, out io.Writer) error {
	if err := l.AwaitBuiltins(ctx, time.Minute); err != nil {
		return err
	}
	samples, err := Path("config", "samples")
	if err != nil {
		return err
	}
	_, err = l.KubectlRun(ctx, out, "apply", "-k", samples)
	return err
}

// AwaitBuiltins waits until every built-in SafetyProfile exists: the leader writes them once its
// caches are up.
func (l *Local) AwaitBuiltins(ctx context.Context, timeout time.Duration) error {
	dc, err := dynamic.NewForConfig(l.Admin)
	if err != nil {
		return err
	}
	profiles := dc.Resource(schema.GroupVersionResource{Group: "safety.toolgate.dev", Version: "v1alpha1", Resource: "safetyprofiles"})
	missing := ""
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		missing = ""
		for _, name := range safety.BuiltinNames() {
			if _, err := profiles.Get(ctx, name, metav1.GetOptions{}); err != nil {
				missing = fmt.Sprintf("%s (%v)", name, err)
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("the manager did not write the built-in SafetyProfiles within %s: missing %s", timeout, missing)
	}
	return err
}
