package gateway_test

import (
	"context"
	"encoding/json"
	"fmt"
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

// startUnion is a real MCP server (the Go SDK's) whose files lists the input schema pydantic
// writes for a discriminated union (testdata/schemas/pydantic_discriminated_union.json): op
// "read" reads path, by default .env; op "list" lists dir, and has no path. The handler picks
// the model by op and fills its default in, as pydantic does.
func startUnion(dir string) *recordingServer {
	GinkgoHelper()
	schema, err := os.ReadFile("testdata/schemas/pydantic_discriminated_union.json")
	Expect(err).NotTo(HaveOccurred())
	rec := &recordingServer{}
	s := mcp.NewServer(&mcp.Implementation{Name: "union", Version: "test"}, nil)
	s.AddTool(&mcp.Tool{Name: "files", Description: "Read a file (.env unless told otherwise), or list a directory",
		InputSchema: json.RawMessage(schema)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Op, Path, Dir string }
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			switch in.Op {
			case "read":
				if in.Path == "" {
					in.Path = ".env"
				}
				rec.record("read", in.Path)
				return fileContent(dir, in.Path)
			case "list":
				rec.record("list", in.Dir)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "notes.txt"}}}, nil
			}
			return nil, fmt.Errorf("op %q matches no model", in.Op)
		})
	return serveRecording(s, rec)
}

var _ = Describe("toolgate-gateway in front of a tool whose schema is a discriminated union (oneOf of $refs)", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
	)

	BeforeAll(func() {
		upstream = startUnion(notesAndEnv())
		w = newWorld("gw-union-", upstream.URL, "files")
	})

	It("judges the default of the model the discriminator picks: a read of the default .env is refused", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"op": "read"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"), "%v", res.Content)
		Expect(upstream.Calls()).To(BeEmpty())
	})

	It("writes no default of another model: a list is forwarded as the agent sent it", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"op": "list", "dir": "."}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		res, err = w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"op": "read", "path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		Expect(upstream.Calls()).To(Equal([]upstreamCall{{Tool: "list", Path: "."}, {Tool: "read", Path: "notes.txt"}}))
	})

	It("refuses a call no discriminator decides, naming the argument it must name, before creating anything", func() {
		before := len(w.callStatuses())
		_, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"dir": "."}})
		Expect(err).To(MatchError(ContainSubstring(`name "path" in the call`)))
		Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInvalidParams)))
		Expect(w.callStatuses()).To(HaveLen(before))
		Expect(upstream.Calls()).To(HaveLen(2))
	})
})
