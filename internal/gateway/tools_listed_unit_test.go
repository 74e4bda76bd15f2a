package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// TestAToolServersListingIsBoundedAsOneMessageIs lists the tools of an upstream one tool per
// page: each page is within the bound on one message, and so are the tools listed, all pages
// together, up to the bound; past it the connect fails, naming the bound. Before, the pages
// were read until the upstream stopped (a compromised upstream need never stop, each page a
// new tool of up to one message's size) and every tool was held, for the gateway's lifetime.
func TestAToolServersListingIsBoundedAsOneMessageIs(t *testing.T) {
	const limit = MinMaxUpstreamMessageBytes
	for _, tc := range []struct {
		tools  int
		within bool
	}{
		{tools: 2, within: true},
		{tools: 40, within: false},
	} {
		t.Run(fmt.Sprintf("%d tools", tc.tools), func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "test"}, &mcp.ServerOptions{PageSize: 1})
			for i := range tc.tools {
				schema := fmt.Sprintf(`{"type":"object","description":%q}`, strings.Repeat("x", 500))
				s.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool%d", i), InputSchema: json.RawMessage(schema)},
					func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
						return &mcp.CallToolResult{}, nil
					})
			}
			server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
			defer closeUpstream(server)
			u := newUpstreams(server.Client(), "test", 1, limit)
			defer u.close()
			up, err := u.dial(&safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: "many"},
				Spec: safetyv1alpha1.ToolServerSpec{URL: server.URL}})
			switch {
			case tc.within && err != nil:
				t.Fatalf("a listing within the bound: %v", err)
			case tc.within:
				if len(up.tools) != tc.tools {
					t.Fatalf("listed %d tools, want %d", len(up.tools), tc.tools)
				}
				up.close()
			case err == nil:
				up.close()
				t.Fatalf("listed %d tools of about 600 bytes each, past the bound of %d bytes", len(up.tools), limit)
			case !strings.Contains(err.Error(), fmt.Sprint(limit)):
				t.Fatalf("the refusal does not name the bound: %v", err)
			}
		})
	}
}
