package gateway_test

import (
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The rest of the suite's upstreams are the Go SDK's stateful servers, which the gateway's client
// reaches at protocol 2025-11-25 (server/discover refused, initialize). A stateless one answers
// server/discover, so the gateway reaches it at 2026-07-28, whose requests are stateless and carry
// the protocol in each one's _meta and headers: the gate must hold there alike.
var _ = Describe("an agent through toolgate-gateway to an upstream at protocol 2026-07-28", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
	)

	BeforeAll(func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello from upstream"), 0o600)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1"), 0o600)).To(Succeed())
		var stop func()
		upstream, stop = startUpstreamWith(dir, &mcp.StreamableHTTPOptions{Stateless: true})
		DeferCleanup(stop)
		w = newWorld("gw-2026-", upstream.URL, "read_file")
	})

	It("lists only the registered tools, as the upstream describes them at that protocol", func() {
		res, err := w.session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).To(HaveLen(1))
		Expect(res.Tools[0].Name).To(Equal(w.readTool))
		Expect(upstream.Protocols()).NotTo(BeEmpty())
		Expect(upstream.Protocols()).To(HaveEach("2026-07-28"), "the gateway spoke 2026-07-28 to it")
	})

	It("forwards an admitted read, refuses .env and an unregistered tool unsent, and records each decision", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		Expect(res.Content[0].(*mcp.TextContent).Text).To(Equal("hello from upstream"))

		res, err = w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": ".env"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))

		res, err = w.session.CallTool(ctx, &mcp.CallToolParams{Name: "delete_everything", Arguments: map[string]any{"path": "/"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("ToolNotRegistered"))

		Expect(upstream.Calls()).To(Equal([]upstreamCall{{Tool: "read_file", Path: "notes.txt"}}), "only the admitted call reached it")
		Expect(upstream.Protocols()).To(HaveEach("2026-07-28"))
		Expect(decisionsIn(w.ns)).To(ConsistOf(
			And(HaveKeyWithValue("tool", w.readTool), HaveKeyWithValue("decision", "allow")),
			And(HaveKeyWithValue("tool", w.readTool), HaveKeyWithValue("reason", "ToolAccessDenied")),
			And(HaveKeyWithValue("tool", "delete_everything"), HaveKeyWithValue("reason", "ToolNotRegistered")),
		))
	})
})
