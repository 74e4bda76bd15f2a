package gateway_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

var _ = Describe("toolgate-gateway with a ToolServer named by its in-cluster Service", Ordered, func() {
	It("calls the server at the Service's name, port and path", func() {
		s := mcp.NewServer(&mcp.Implementation{Name: "in-cluster", Version: "test"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "read_file", Description: "Read a file"},
			func(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "read " + in.Path}}}, nil, nil
			})
		mux := http.NewServeMux() // the server answers MCP at /v1/mcp alone
		// As a pod serves it: on loopback here, the SDK would refuse a Host that is not (its DNS
		// rebinding protection), which a pod's address does not trigger.
		mux.Handle("/v1/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
			&mcp.StreamableHTTPOptions{DisableLocalhostProtection: true}))
		upstream := httptest.NewServer(mux)
		DeferCleanup(closeUpstream, upstream)

		// The cluster's DNS, for this gateway alone: the Service's name is the upstream's address,
		// and no other name is known.
		const service = "files.mcp-tools.svc:8080"
		var (
			mu     sync.Mutex
			dialed []string
		)
		transport := http.DefaultTransport.(*http.Transport).Clone()
		transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			mu.Lock()
			dialed = append(dialed, addr)
			mu.Unlock()
			if addr != service {
				return nil, fmt.Errorf("dial %s: no such host", addr)
			}
			return (&net.Dialer{}).DialContext(ctx, network, upstream.Listener.Addr().String())
		}
		url := startGateway(func(o *gateway.Options) { o.UpstreamHTTPClient = &http.Client{Transport: transport} })

		w := newWorld("gw-svc-", "", "read_file", func(o *worldObjects) {
			o.server.Spec.URL = ""
			o.server.Spec.Service = &safetyv1alpha1.ToolServerService{Namespace: "mcp-tools", Name: "files", Port: 8080, Path: "/v1/mcp"}
		})
		agent := connectedTo(url, w.token)
		Eventually(func(g Gomega) { // once this gateway's cache holds the ToolServer
			res, err := agent.ListTools(ctx, nil)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(res.Tools).To(ContainElement(HaveField("Name", w.readTool)))
		}).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(Succeed())
		res, err := agent.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse())
		Expect(res.Content).To(ConsistOf(HaveField("Text", "read notes.txt")))
		mu.Lock()
		defer mu.Unlock()
		Expect(dialed).NotTo(BeEmpty())
		Expect(slices.Compact(slices.Sorted(slices.Values(dialed)))).To(Equal([]string{service}))
	})
})
