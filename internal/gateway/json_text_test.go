package gateway_test

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// startPreParsing is a real MCP server (the Go SDK's) whose read_many takes a list of paths and,
// as the Python MCP SDK's FastMCP servers do (FuncMetadata.pre_parse_json: an argument given as a
// string that json.loads reads as a list or an object is taken as that list or object, since
// models often send a list as JSON text), reads a string holding a JSON array as that array.
func startPreParsing(dir string) *recordingServer {
	GinkgoHelper()
	rec := &recordingServer{}
	s := mcp.NewServer(&mcp.Implementation{Name: "pre-parsing", Version: "test"}, nil)
	s.AddTool(&mcp.Tool{Name: "read_many", Description: "Read files",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"paths":{"type":"array","items":{"type":"string"}}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Paths any }
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			if text, ok := in.Paths.(string); ok {
				var parsed any
				if json.Unmarshal([]byte(text), &parsed) == nil {
					in.Paths = parsed
				}
			}
			var paths []string
			switch p := in.Paths.(type) {
			case string:
				paths = []string{p}
			case []any:
				for _, one := range p {
					s, _ := one.(string)
					paths = append(paths, s)
				}
			}
			var texts []string
			for _, p := range paths {
				rec.record("read_many", p)
				res, err := fileContent(dir, p)
				if err != nil {
					return nil, err
				}
				texts = append(texts, res.Content[0].(*mcp.TextContent).Text)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(texts, "\n")}}}, nil
		})
	return serveRecording(s, rec)
}

// A mapped argument is judged as the string it is; a tool that decodes JSON text inside a string
// (the Python MCP SDK's servers do, for any argument not typed as a plain string) reads the paths
// inside it instead: {"paths": "[\".env\"]"} was judged as one file named [".env"], and read .env.
var _ = Describe("toolgate-gateway in front of a tool that decodes JSON text inside a string argument", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
	)

	BeforeAll(func() {
		upstream = startPreParsing(notesAndEnv())
		w = newWorld("gw-json-text-", upstream.URL, "read_many", func(o *worldObjects) {
			o.server.Spec.Tools[0].Arguments = safetyv1alpha1.ToolArgumentMap{Paths: []string{"paths"}}
		})
	})

	It("judges the paths inside the text too, and sends none of them when one is refused", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"paths": ` ["notes.txt", ".env"] `}})
		Expect(upstream.Calls()).To(BeEmpty(), "the tool read the paths inside the text")
		Expect(err).NotTo(HaveOccurred())
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
	})

	It("refuses JSON text of an object, or of a list holding anything but strings, naming the argument", func() {
		for _, text := range []string{`{"path": ".env"}`, `[[".env"]]`, `[".env", 1]`} {
			_, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"paths": text}})
			Expect(err).To(MatchError(ContainSubstring(`argument "paths" holds JSON text`)), text)
		}
		Expect(upstream.Calls()).To(BeEmpty())
	})

	It("reads what the text names when it is admitted, and a path that only looks like JSON as itself", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"paths": `["notes.txt"]`}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		res, err = w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"paths": []string{"notes.txt"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		Expect(upstream.Calls()).To(ConsistOf(upstreamCall{Tool: "read_many", Path: "notes.txt"},
			upstreamCall{Tool: "read_many", Path: "notes.txt"}))
	})
})
