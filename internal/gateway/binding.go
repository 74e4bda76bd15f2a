package gateway

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/toolgate/toolgate/pkg/toolcall"
)

// PlanResolver finds the plan a caller's calls belong to. The plan always comes from the
// caller's binding, never from the request.
type PlanResolver func(ctx context.Context, c client.Reader, caller *Caller) (string, error)

// NoPlanError is a caller that no plan, or more than one, is bound to.
type NoPlanError = toolcall.NoPlanError

// CallerPlan applies the binding rule the webhook enforces, as every door does
// (toolcall.CallerPlan), reading the plans from the gateway's cache without copying them.
func CallerPlan(ctx context.Context, c client.Reader, caller *Caller) (string, error) {
	return toolcall.CallerPlan(ctx, c, caller.Namespace, caller.ServiceAccount, caller.Pod, noDeepCopy)
}
