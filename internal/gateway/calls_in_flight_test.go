package gateway_test

import (
	"errors"
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
		w := newWorld("gw-inflight-", heldUpstream(&received, func() <-chan struct{} { return release }), "slow")
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
