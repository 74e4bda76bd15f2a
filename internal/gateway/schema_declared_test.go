package gateway_test

import (
	"cmp"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// startAliasing is a real MCP server (the Go SDK's) whose read_aliased declares one argument,
// "file", and reads "path" instead when it is given, as a Python server takes a field by its
// name beside its alias (pydantic's populate_by_name): a key the schema does not declare that
// the tool reads all the same.
func startAliasing(dir string) *recordingServer {
	GinkgoHelper()
	return startTwoKeyReader(dir, "aliasing", "read_aliased", `{"type":"object","properties":{"file":{"type":"string"}}}`,
		func(file, path string) string { return cmp.Or(path, file) })
}

// startTwoKeyReader is a real MCP server (the Go SDK's) with one tool that reads the file pick
// chooses from its "file" and "path" arguments, under the input schema given.
func startTwoKeyReader(dir, server, tool, schema string, pick func(file, path string) string) *recordingServer {
	GinkgoHelper()
	rec := &recordingServer{}
	s := mcp.NewServer(&mcp.Implementation{Name: server, Version: "test"}, nil)
	s.AddTool(&mcp.Tool{Name: tool, Description: "Read a file", InputSchema: json.RawMessage(schema)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ File, Path string }
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			read := pick(in.File, in.Path)
			rec.record(tool, read)
			return fileContent(dir, read)
		})
	return serveRecording(s, rec)
}

var _ = Describe("toolgate-gateway in front of a tool that reads an argument its schema does not declare", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
	)

	BeforeAll(func() {
		dir := notesAndEnv()
		upstream = startAliasing(dir)
		w = newWorld("gw-declared-", upstream.URL, "read_aliased", func(o *worldObjects) {
			o.server.Spec.Tools[0].Arguments = safetyv1alpha1.ToolArgumentMap{Paths: []string{"file"}}
		})
	})

	It("refuses an undeclared argument with an MCP error naming it, before creating anything, and never sends it", func() {
		_, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"file": "notes.txt", "path": ".env"}})
		Expect(err).To(MatchError(ContainSubstring(`does not declare the argument "path"; its input schema declares ["file"]`)))
		Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInvalidParams)))
		Expect(upstream.Calls()).To(BeEmpty(), "the upstream read .env by the key the engine never judged")
		Expect(w.callStatuses()).To(BeEmpty())
	})

	It("forwards the declared arguments, and judges them", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"file": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse())
		res, err = w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"file": ".env"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(upstream.Calls()).To(ConsistOf(upstreamCall{Tool: "read_aliased", Path: "notes.txt"}))
	})
})

var _ = Describe("toolgate-gateway in front of a tool whose input schema is composed beyond what it reads", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
	)

	BeforeAll(func() {
		// The path's default, .env, lies below more levels of allOf than the gateway reads: the
		// tool reads it when a call names no path, as a server applying its schema's defaults does.
		schema := `{"properties":{"path":{"type":"string","default":".env"}}}`
		for range 9 {
			schema = `{"allOf":[` + schema + `]}`
		}
		upstream = startTwoKeyReader(notesAndEnv(), "composed", "read_composed", `{"type":"object",`+schema[1:],
			func(_, path string) string { return cmp.Or(path, ".env") })
		w = newWorld("gw-unseen-", upstream.URL, "read_composed", func(o *worldObjects) {
			o.server.Spec.Tools[0].Arguments = safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}
		})
	})

	It("sends it no call, with or without arguments, naming the ToolServer, and creates nothing", func() {
		for _, args := range []map[string]any{{}, {"path": "notes.txt"}} {
			_, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: args})
			Expect(err).To(MatchError(ContainSubstring(`tool %q of ToolServer %s-files has an input schema nested `+
				`or composed beyond what the gateway reads`, w.readTool, w.ns)))
			Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInternalError)))
		}
		Expect(upstream.Calls()).To(BeEmpty(), "the upstream read its schema's default, .env, for a call judged as naming no path")
		Expect(w.callStatuses()).To(BeEmpty())
	})
})
