package gateway

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// errRouteChanged refuses an admitted call whose route changed since it was routed: sent on, it
// would go where the platform no longer sends calls (another URL, another upstream tool, another
// argument mapping than the one its arguments were checked by), and connecting the old spec
// would take the current one's sessions from every other call.
var errRouteChanged = errors.New("the call was not sent; call again")

// currentRoute is rt with its ToolServer as the gateway's cache holds it now, for a call routed
// by rt a moment ago (before its create, its metered turn, or a try its upstream never
// received). An edit of the ToolServer that leaves the call's route as it was (its endpoint, its
// transport, the call's own tool entry) changes nothing for the call; any other change, or a
// ToolServer deleted or made anew under its name, is errRouteChanged.
func (g *Gateway) currentRoute(ctx context.Context, rt *route) (*route, error) {
	ts := &safetyv1alpha1.ToolServer{}
	err := g.opts.Reader.Get(ctx, client.ObjectKey{Name: rt.server.Name}, ts, noDeepCopy)
	switch {
	case apierrors.IsNotFound(err):
		return nil, fmt.Errorf("ToolServer %s was deleted since this call was routed: %w", rt.server.Name, errRouteChanged)
	case err != nil:
		return nil, fmt.Errorf("reading ToolServer %s: %w", rt.server.Name, err)
	case ts.UID == rt.server.UID && ts.Generation == rt.server.Generation:
		return rt, nil
	}
	if ts.UID != rt.server.UID || ts.Spec.Endpoint() != rt.server.Spec.Endpoint() || ts.Spec.Transport != rt.server.Spec.Transport ||
		!sameServedTool(ts, rt.served) {
		return nil, fmt.Errorf("ToolServer %s changed since this call was routed: %w", rt.server.Name, errRouteChanged)
	}
	current := *rt
	current.server = ts
	return &current, nil
}

// sameServedTool says whether ts serves served's AgentTool exactly as served says.
func sameServedTool(ts *safetyv1alpha1.ToolServer, served safetyv1alpha1.ServedTool) bool {
	for _, t := range ts.Spec.Tools {
		if t.AgentTool == served.AgentTool {
			return equality.Semantic.DeepEqual(t, served)
		}
	}
	return false
}
