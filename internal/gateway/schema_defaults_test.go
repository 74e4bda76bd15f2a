package gateway_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// startDefaulting is a real MCP server (the Go SDK's, which applies its tools' schema defaults to
// the arguments, as pydantic does for a Python server's and zod for a TypeScript one's) whose
// read_default reads "path", by default .env: what a tool reads when the agent leaves an
// argument out.
func startDefaulting(dir string) *recordingServer {
	GinkgoHelper()
	rec := &recordingServer{}
	s := mcp.NewServer(&mcp.Implementation{Name: "defaulting", Version: "test"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "read_default", Description: "Read a file, .env unless told otherwise",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","default":".env"}}}`)},
		func(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
			rec.record("read_default", in.Path)
			res, err := fileContent(dir, in.Path)
			return res, nil, err
		})
	return serveRecording(s, rec)
}

var _ = Describe("toolgate-gateway in front of a tool whose schema gives a mapped argument a default", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
	)

	BeforeAll(func() {
		dir := notesAndEnv()
		upstream = startDefaulting(dir)
		w = newWorld("gw-default-", upstream.URL, "read_default")
	})

	It("judges the default the upstream fills in for a path the agent leaves out: .env is refused and never read", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeTrue(), "the upstream read its default, .env: %v", res.Content)
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(upstream.Calls()).To(BeEmpty())
	})

	It("forwards a path the agent names, and the ledger holds the refusal of the default", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse())
		Expect(upstream.Calls()).To(ConsistOf(upstreamCall{Tool: "read_default", Path: "notes.txt"}))
		Expect(decisionsIn(w.ns)).To(ContainElement(And(HaveKeyWithValue("decision", "deny"),
			HaveKeyWithValue("reason", "ToolAccessDenied"))))
	})
})

// startNestedDefaulting is a real MCP server (the Go SDK's, which fills the defaults of an
// object's keys in, and creates an object left out whose keys have defaults) whose run_nested
// reads "path" and runs with opts.force, by default true.
func startNestedDefaulting(dir string) *recordingServer {
	GinkgoHelper()
	rec := &recordingServer{}
	s := mcp.NewServer(&mcp.Implementation{Name: "nested-defaulting", Version: "test"}, nil)
	type runArgs struct {
		Path string `json:"path"`
		Opts struct {
			Force bool `json:"force"`
		} `json:"opts"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "run_nested", Description: "Read a file, forcefully unless told otherwise",
		InputSchema: json.RawMessage(`{"type":"object","required":["path"],"properties":{"path":{"type":"string"},` +
			`"opts":{"type":"object","properties":{"force":{"type":"boolean","default":true}}}}}`)},
		func(_ context.Context, _ *mcp.CallToolRequest, in runArgs) (*mcp.CallToolResult, any, error) {
			rec.record(fmt.Sprintf("run_nested force=%v", in.Opts.Force), in.Path)
			res, err := fileContent(dir, in.Path)
			return res, nil, err
		})
	return serveRecording(s, rec)
}

var _ = Describe("toolgate-gateway in front of a tool whose schema gives a key below an argument a default", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
	)

	BeforeAll(func() {
		upstream = startNestedDefaulting(notesAndEnv())
		w = newWorld("gw-nested-default-", upstream.URL, "run_nested", func(o *worldObjects) {
			o.project.Spec.ArgumentRules = []safetyv1alpha1.ArgumentRule{{Name: "no-force",
				Expression: "!has(args.opts) || !has(args.opts.force) || !args.opts.force"}}
		})
	})

	It("judges the default the upstream fills into an object the agent sends: force is refused and never run", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"path": "notes.txt", "opts": map[string]any{}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeTrue(), "the upstream ran with its default force: %v", res.Content)
		Expect(reasonIn(res)).To(Equal("ToolArgumentRuleViolated"))
		Expect(upstream.Calls()).To(BeEmpty())
	})

	It("refuses an object left out that the upstream creates with its defaults, naming it, before creating anything", func() {
		before := len(w.callStatuses())
		_, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).To(MatchError(ContainSubstring(`name "opts" in the call`)))
		Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInvalidParams)))
		Expect(w.callStatuses()).To(HaveLen(before))
		Expect(upstream.Calls()).To(BeEmpty())
	})

	It("forwards a call that names the key, as it was judged", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"path": "notes.txt", "opts": map[string]any{"force": false}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		Expect(upstream.Calls()).To(ConsistOf(upstreamCall{Tool: "run_nested force=false", Path: "notes.txt"}))
	})
})

// notesAndEnv makes a directory holding notes.txt and .env, for a test upstream to read from.
func notesAndEnv() string {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o600)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1"), 0o600)).To(Succeed())
	return dir
}

// fileContent answers a test upstream's read of name below dir (never above it).
func fileContent(dir, name string) (*mcp.CallToolResult, error) {
	data, err := os.ReadFile(filepath.Join(dir, filepath.Clean("/"+name)))
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}}}, nil
}

// serveRecording serves a test upstream over Streamable HTTP for the test's lifetime.
func serveRecording(s *mcp.Server, rec *recordingServer) *recordingServer {
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	DeferCleanup(closeUpstream, server)
	rec.URL = server.URL
	return rec
}
