package gateway

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// TestACallRoutedByAnOlderToolServerIsNotSent: a call routed before its ToolServer changed (a new
// URL, say) that asks for its upstream after the gateway connected the new spec (an admitted call
// sent again after its session ended) is refused: it neither goes to the old server nor takes
// the new spec's sessions away from every other call by connecting the old one again.
func TestACallRoutedByAnOlderToolServerIsNotSent(t *testing.T) {
	var initializes atomic.Int32
	s := mcp.NewServer(&mcp.Implementation{Name: "moved", Version: "test"}, &mcp.ServerOptions{
		InitializedHandler: func(context.Context, *mcp.InitializedRequest) { initializes.Add(1) }})
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer server.Close()
	u := newUpstreams(server.Client(), "test", 1, DefaultMaxUpstreamMessageBytes)
	defer u.close()
	older := &safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: "files", UID: "uid-1", Generation: 1},
		Spec: safetyv1alpha1.ToolServerSpec{URL: server.URL + "/old"}}
	current := older.DeepCopy()
	current.Generation, current.Spec.URL = 2, server.URL

	up, err := u.get(t.Context(), current, 0)
	if err != nil {
		t.Fatal(err)
	}
	connects := initializes.Load()
	if _, err := u.get(t.Context(), older, 0); !errors.Is(err, errRouteChanged) {
		t.Fatalf("a call routed by generation 1 after generation 2 connected: %v, want %v", err, errRouteChanged)
	}
	again, err := u.get(t.Context(), current, 0)
	if err != nil || again != up {
		t.Fatalf("the current spec's upstream was replaced (%v): the stale call took it away", err)
	}
	if n := initializes.Load(); n != connects {
		t.Errorf("%d connects after the stale call, want none", n-connects)
	}
	if _, err := u.get(t.Context(), current.DeepCopy(), 0); err != nil {
		t.Errorf("the current spec: %v", err)
	}
}
