package gateway

import (
	"context"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestACallMayHaveRunUnlessItWasNeverReceivedOrTheUpstreamRefusedIt: what decides whether a call
// whose cost went unread is charged its tool's maxCostPerCall.
func TestACallMayHaveRunUnlessItWasNeverReceivedOrTheUpstreamRefusedIt(t *testing.T) {
	refused := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no such file"}
	for _, tc := range []struct {
		name string
		d    *delivery
		err  error
		want bool
	}{
		{"never sent", nil, fmt.Errorf("no session: %w", mcp.ErrConnectionClosed), false},
		{"answered with a result", &delivery{started: 1}, nil, true},
		{"refused unread: 404 for its session", &delivery{started: 1, refused: 1}, fmt.Errorf("x: %w", mcp.ErrSessionMissing), false},
		{"the session ended after it was received", &delivery{started: 1}, fmt.Errorf("x: %w", mcp.ErrConnectionClosed), true},
		{"refused by the upstream: a protocol error", &delivery{started: 1}, fmt.Errorf("calling: %w", refused), false},
		{"answered in the upstream's place, its answer unread", &delivery{started: 1, unread: true}, refused, true},
		{"timed out", &delivery{started: 1}, context.DeadlineExceeded, true},
		{"the connection was lost after it was sent", &delivery{started: 1}, fmt.Errorf("read: connection reset by peer"), true},
	} {
		if got := tc.d.mayHaveRun(tc.err); got != tc.want {
			t.Errorf("%s: mayHaveRun = %v, want %v", tc.name, got, tc.want)
		}
	}
	ctx := withDelivery(context.Background(), &delivery{})
	markUnread(ctx)
	markUnread(context.Background()) // no delivery: nothing to mark
	if d := ctx.Value(deliveryKey{}).(*delivery); !d.unread {
		t.Error("markUnread did not mark the call's delivery")
	}
}
