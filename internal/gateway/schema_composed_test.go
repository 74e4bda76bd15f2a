package gateway_test

import (
	"context"
	"encoding/json"
	"os"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// startComposed is a real MCP server (the Go SDK's) whose read_composed lists the input schema
// zod-to-json-schema writes for an intersection (testdata/schemas/zod_intersection.json): "path",
// by default .env, in one allOf branch, "encoding" in the other, and no top-level properties.
// It reads path, .env when it is left out, as zod fills a default in: the Go SDK applies only
// top-level defaults itself, so the handler does what a zod server's parse would.
func startComposed(dir string) *recordingServer {
	GinkgoHelper()
	schema, err := os.ReadFile("testdata/schemas/zod_intersection.json")
	Expect(err).NotTo(HaveOccurred())
	rec := &recordingServer{}
	s := mcp.NewServer(&mcp.Implementation{Name: "composed", Version: "test"}, nil)
	s.AddTool(&mcp.Tool{Name: "read_composed", Description: "Read a file, .env unless told otherwise",
		InputSchema: json.RawMessage(schema)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			in := struct{ Path string }{Path: ".env"}
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			rec.record("read_composed", in.Path)
			return fileContent(dir, in.Path)
		})
	return serveRecording(s, rec)
}

var _ = Describe("toolgate-gateway in front of a tool whose schema is composed (allOf)", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
	)

	BeforeAll(func() {
		upstream = startComposed(notesAndEnv())
		w = newWorld("gw-composed-", upstream.URL, "read_composed")
	})

	It("judges the default of an allOf branch: .env is refused ToolAccessDenied and never read", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"encoding": "utf8"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeTrue(), "the upstream read its default, .env: %v", res.Content)
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(upstream.Calls()).To(BeEmpty())
	})

	It("takes the keys every branch declares, and forwards a path the agent names", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"path": "notes.txt", "encoding": "utf8"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		Expect(upstream.Calls()).To(ConsistOf(upstreamCall{Tool: "read_composed", Path: "notes.txt"}))
	})

	It("refuses a key no branch declares, naming it, before creating anything", func() {
		before := len(w.callStatuses())
		_, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"path": "notes.txt", "file": ".env"}})
		Expect(err).To(MatchError(ContainSubstring(`does not declare the argument "file"; its input schema declares ["encoding" "path"]`)))
		Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInvalidParams)))
		Expect(w.callStatuses()).To(HaveLen(before))
		Expect(upstream.Calls()).To(HaveLen(1))
	})
})
