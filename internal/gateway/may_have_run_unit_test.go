package gateway

import (
	"context"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestACallMayHaveRunUnlessItWasNeverReceived: what decides whether a reportsCost call whose cost
// went unread is charged its tool's maxCostPerCall. Only a call the upstream provably never
// received did not run: a JSON-RPC error says nothing, the SDK's own (a proxy's 502, 503 or 504,
// a connection reset, all wrapped in its "rejected" error) or the server's.
func TestACallMayHaveRunUnlessItWasNeverReceived(t *testing.T) {
	refused := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no such file"}
	rejected := &jsonrpc.Error{Code: -32005, Message: "rejected"} // the SDK's jsonrpc2.ErrRejected
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
		{"a JSON-RPC error of the server's", &delivery{started: 1}, fmt.Errorf("calling: %w", refused), true},
		{"a proxy's 502 after it was sent", &delivery{started: 1}, fmt.Errorf("%w: Bad Gateway", rejected), true},
		{"the connection reset after it was sent", &delivery{started: 1}, fmt.Errorf("%w: connection reset by peer", rejected), true},
		{"timed out", &delivery{started: 1}, context.DeadlineExceeded, true},
	} {
		if got := tc.d.mayHaveRun(tc.err); got != tc.want {
			t.Errorf("%s: mayHaveRun = %v, want %v", tc.name, got, tc.want)
		}
	}
}
