package gateway_test

import (
	"cmp"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// startOpenSchema is a real MCP server (the Go SDK's) whose read_open declares "path" and takes
// any other key too (additionalProperties), reading its file from "file" when given.
func startOpenSchema(dir string) *recordingServer {
	GinkgoHelper()
	return startTwoKeyReader(dir, "open", "read_open",
		`{"type":"object","properties":{"path":{"type":"string"}},"additionalProperties":true}`,
		func(file, path string) string { return cmp.Or(file, path) })
}

// A ToolServer's argument map names the keys the engine judges. One that names a key the tool's
// schema does not declare (a typo, another version's name, a key nested in an object) judges
// nothing, since the agent can never send that key, while the key the tool does read its path
// from goes unjudged: read_file of {"path": ".env"} under a map of "file" read .env.
var _ = Describe("toolgate-gateway in front of a tool whose ToolServer maps a key its schema does not declare", func() {
	DescribeTable("sends no call of the tool, saying which key of which ToolServer, and creates nothing",
		func(m safetyv1alpha1.ToolArgumentMap, key string) {
			upstream, stop := startUpstream(notesAndEnv())
			DeferCleanup(stop)
			w := newWorld("gw-mapped-", upstream.URL, "read_file", func(o *worldObjects) {
				o.server.Spec.Tools[0].Arguments = m
			})
			_, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": ".env"}})
			Expect(upstream.Calls()).To(BeEmpty(), "the tool read the path its map did not name")
			Expect(err).To(MatchError(ContainSubstring(`ToolServer %s-files maps the argument %q of tool %q, which the tool's `+
				`input schema does not declare (it declares ["path"])`, w.ns, key, w.readTool)))
			Expect(rpcCode(err)).To(Equal(int64(jsonrpc.CodeInternalError)))
			Expect(w.callStatuses()).To(BeEmpty())
		},
		Entry("a path under another name", safetyv1alpha1.ToolArgumentMap{Paths: []string{"file"}}, "file"),
		Entry("a path nested in an object", safetyv1alpha1.ToolArgumentMap{Paths: []string{"path", "options.path"}}, "options.path"),
		Entry("a tree path", safetyv1alpha1.ToolArgumentMap{TreePaths: []string{"dir"}}, "dir"),
		Entry("a working directory", safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}, Cwd: "cwd"}, "cwd"),
		Entry("a command", safetyv1alpha1.ToolArgumentMap{Command: "cmd"}, "cmd"),
	)

	It("still judges a key the map names beside a schema that takes any key", func() {
		upstream := startOpenSchema(notesAndEnv())
		w := newWorld("gw-mapped-open-", upstream.URL, "read_open", func(o *worldObjects) {
			o.server.Spec.Tools[0].Arguments = safetyv1alpha1.ToolArgumentMap{Paths: []string{"path", "file"}}
		})
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"file": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		res, err = w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"file": ".env"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(upstream.Calls()).To(ConsistOf(upstreamCall{Tool: "read_open", Path: "notes.txt"}))
	})
})
