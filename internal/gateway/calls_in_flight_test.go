package gateway_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolgate/toolgate/internal/gateway"
)

var _ = Describe("an agent's calls in flight through one gateway", func() {
	It("are bounded: one past the limit is refused before anything is created, and admitted once a call has ended", func() {
		var received atomic.Int32
		release := make(chan struct{})
		s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "test"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "answers when the test lets it"},
			func(ctx context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
				received.Add(1)
				select {
				case <-release:
				case <-ctx.Done():
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "read " + in.Path}}}, nil, nil
			})
		upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
		DeferCleanup(upstream.Close)
		w := newWorld("gw-inflight-", upstream.URL, "slow")
		session := connectedTo(startGateway(func(o *gateway.Options) { o.MaxCallsPerCaller = 2 }), w.token)
		call := func(path string) (*mcp.CallToolResult, error) {
			return session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": path}})
		}

		answers := make(chan error, 2)
		for _, path := range []string{"a.txt", "b.txt"} {
			go func() {
				defer GinkgoRecover()
				res, err := call(path)
				if err == nil && res.IsError {
					err = errors.New("refused")
				}
				answers <- err
			}()
		}
		Eventually(received.Load).Should(Equal(int32(2)), "two calls in flight upstream")

		_, err := call("c.txt")
		var rpc *jsonrpc.Error
		Expect(errors.As(err, &rpc)).To(BeTrue(), "an MCP error: %v", err)
		Expect(rpc.Code).To(Equal(int64(gateway.CodeTooManyCalls)))
		Expect(rpc.Message).To(ContainSubstring("system:serviceaccount:" + w.ns + ":agent has 2 calls in flight"))
		Expect(w.callStatuses()).To(HaveLen(2), "the refused call created no AgentToolCall")

		close(release)
		Expect(<-answers).To(Succeed())
		Expect(<-answers).To(Succeed())
		res, err := call("c.txt")
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse())
		Expect(received.Load()).To(Equal(int32(3)))
	})
})
