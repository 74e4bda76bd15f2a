package gateway_test

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// startFoldingNames is a real MCP server (the Go SDK's) offering two tools whose names differ
// only in case, read_file and Read_File, each reading its path below dir.
func startFoldingNames(dir string) *recordingServer {
	GinkgoHelper()
	rec := &recordingServer{}
	s := mcp.NewServer(&mcp.Implementation{Name: "folding", Version: "test"}, nil)
	for _, name := range []string{"read_file", "Read_File"} {
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: "Read a file"},
			func(_ context.Context, _ *mcp.CallToolRequest, in pathArgs) (*mcp.CallToolResult, any, error) {
				rec.record(name, in.Path)
				res, err := fileContent(dir, in.Path)
				return res, nil, err
			})
	}
	return serveRecording(s, rec)
}

// The gateway maps an MCP tool name to an AgentTool by the exact name alone: the ToolServer's
// agentTool (and its upstreamName), the SDK's dispatch and the webhook's lookup of the AgentTool
// all compare names as they are. A name respelled (case, Unicode compatibility forms, another
// separator) is no offered tool: it is submitted and refused ToolNotRegistered, never sent, and
// an upstream tool whose name folds to an offered one's is not reached through it.
var _ = Describe("toolgate-gateway and tool names that fold to one another", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
	)

	BeforeAll(func() {
		upstream = startFoldingNames(notesAndEnv())
		w = newWorld("gw-names-", upstream.URL, "read_file")
	})

	It("forwards the offered tool by its exact name, to the upstream tool its ToolServer names", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		Expect(upstream.Calls()).To(ConsistOf(upstreamCall{Tool: "read_file", Path: "notes.txt"}))
	})

	DescribeTable("refuses a respelled name as a tool nobody registered, and sends it nowhere",
		func(respell func(string) string) {
			name := respell(w.readTool)
			Expect(name).NotTo(Equal(w.readTool))
			res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"path": "notes.txt"}})
			Expect(err).NotTo(HaveOccurred())
			Expect(reasonIn(res)).To(Equal("ToolNotRegistered"))
			Expect(upstream.Calls()).To(HaveLen(1))
		},
		Entry("upper case", strings.ToUpper),
		Entry("title case, as the upstream's Read_File", func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }),
		Entry("full-width letters (NFKC folds them to the name)", func(s string) string {
			return strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' {
					return r - 'a' + 'ａ'
				}
				return r
			}, s)
		}),
		Entry("another separator", func(s string) string { return strings.ReplaceAll(s, "-", "_") }),
		Entry("a zero-width space inside", func(s string) string { return s[:1] + "\u200b" + s[1:] }),
	)

	// The Go SDK's client names the tool in an Mcp-Name header too, trimmed of its spaces, and the
	// SDK's server refuses a header that is not the body's name (-32020): so is a name with spaces
	// around it, or a control character in it. Either way it is refused and sent nowhere.
	DescribeTable("refuses a name with spaces around it or a control character in it, and sends it nowhere",
		func(respell func(string) string) {
			res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: respell(w.readTool),
				Arguments: map[string]any{"path": "notes.txt"}})
			if err == nil {
				Expect(reasonIn(res)).To(Equal("ToolNotRegistered"))
			}
			Expect(upstream.Calls()).To(HaveLen(1))
		},
		Entry("a leading space", func(s string) string { return " " + s }),
		Entry("a trailing newline", func(s string) string { return s + "\n" }),
		Entry("a tab inside", func(s string) string { return s[:1] + "\t" + s[1:] }),
		Entry("a NUL after it", func(s string) string { return s + "\x00" }),
	)

	It("does not offer the upstream's Read_File, whose name folds to the served read_file", func() {
		tools, err := w.session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		names := make([]string, 0, len(tools.Tools))
		for _, t := range tools.Tools {
			names = append(names, t.Name)
		}
		Expect(names).To(ConsistOf(w.readTool))
		for _, name := range []string{"Read_File", "read_file"} {
			res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"path": "notes.txt"}})
			Expect(err).NotTo(HaveOccurred())
			Expect(reasonIn(res)).To(Equal("ToolNotRegistered"))
		}
		Expect(upstream.Calls()).To(HaveLen(1))
	})
})
