package gateway_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

// tsCall is one tools/call the TypeScript SDK's client makes.
type tsCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// tsAnswers is what the TypeScript SDK's client saw: the tools it listed, and per call its result,
// or the error it threw (for a result whose structured content its tool's output schema refuses).
type tsAnswers struct {
	Tools []map[string]any `json:"tools"`
	Calls []struct {
		Result map[string]any `json:"result"`
		Error  string         `json:"error"`
	} `json:"calls"`
}

// tool is the tool named name that the client listed.
func (a tsAnswers) tool(name string) map[string]any {
	GinkgoHelper()
	for _, t := range a.Tools {
		if t["name"] == name {
			return t
		}
	}
	Fail("the client listed no tool " + name)
	return nil
}

// strictClient runs the TypeScript SDK's own client (testdata/tsclient/tsclient.mjs) against the
// gateway as the agent of token: it lists the tools, compiling a validator for each output schema
// listed, and makes calls, each result's structured content checked against its tool's.
func strictClient(token string, calls ...tsCall) tsAnswers {
	GinkgoHelper()
	input, err := json.Marshal(calls)
	Expect(err).NotTo(HaveOccurred())
	cmd := exec.Command("node", filepath.Join("testdata", "tsclient", "tsclient.mjs"), npmPackages(), gatewayURL)
	cmd.Env = append(os.Environ(), "TOOLGATE_TOKEN="+token)
	cmd.Stdin, cmd.Stderr = strings.NewReader(string(input)), GinkgoWriter
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "tsclient.mjs: %s", out)
	var answers tsAnswers
	Expect(json.Unmarshal(out, &answers)).To(Succeed(), "tsclient.mjs prints JSON: %s", out)
	Expect(answers.Calls).To(HaveLen(len(calls)))
	return answers
}

// answered matches a call the client took as the upstream answered it, with structured content
// that matches structured.
func answered(structured types.GomegaMatcher) types.GomegaMatcher {
	return And(HaveField("Error", BeEmpty()),
		HaveField("Result", And(Not(HaveKeyWithValue("isError", true)), HaveKeyWithValue("structuredContent", structured))))
}

// refused matches a call the client took as the gateway's ToolAccessDenied denial.
func refused() types.GomegaMatcher {
	const reason = "ToolAccessDenied"
	return And(HaveField("Error", BeEmpty()), HaveField("Result", And(
		HaveKeyWithValue("isError", true),
		HaveKeyWithValue("content", ConsistOf(HaveKeyWithValue("text", HavePrefix("["+reason+"] ")))),
		HaveKeyWithValue("structuredContent", And(HaveKeyWithValue("reason", reason), HaveKeyWithValue("message", Not(BeEmpty())))),
	)))
}

// wrapped matches an output schema the gateway offers: the upstream's, embedded as a resource of
// its own (the $id given, when it has none), or a denial's.
func wrapped(embedded types.GomegaMatcher) types.GomegaMatcher {
	return And(HaveKeyWithValue("type", "object"), HaveKeyWithValue("anyOf", ConsistOf(embedded,
		HaveKeyWithValue("required", ConsistOf("reason", "message")))))
}

// Output schemas with references, as Go SDK servers and zod-to-json-schema write them, by tool.
var referencingSchemas = map[string]string{
	// $defs (2020-12).
	"defs": `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
		"properties":{"file":{"$ref":"#/$defs/file"}},"required":["file"],"additionalProperties":false,
		"$defs":{"file":{"type":"object","properties":{"path":{"type":"string"},"size":{"type":"integer"}},"required":["path","size"]}}}`,
	// zod-to-json-schema's shape: a $ref at the root, beside definitions (draft-07).
	"definitions": `{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/answer",
		"definitions":{"answer":{"type":"object","properties":{"file":{"$ref":"#/definitions/file"}},"required":["file"],"additionalProperties":false},
		"file":{"type":"object","properties":{"path":{"type":"string"},"size":{"type":"integer"}},"required":["path","size"]}}}`,
	// draft-04, which names a schema by "id": offered with no output schema.
	"draft04": `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object",
		"properties":{"file":{"$ref":"#/definitions/file"}},"required":["file"],
		"definitions":{"file":{"type":"object","properties":{"path":{"type":"string"},"size":{"type":"integer"}},"required":["path","size"]}}}`,
}

// startReferencingServer is a Go SDK server whose tools (referencingSchemas) declare output
// schemas with references, and answer {"file": {"path": PATH, "size": 3}}.
func startReferencingServer() string {
	s := mcp.NewServer(&mcp.Implementation{Name: "referencing", Version: "test"}, nil)
	for name, schema := range referencingSchemas {
		s.AddTool(&mcp.Tool{Name: name, OutputSchema: json.RawMessage(schema),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var in pathArgs
				if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "3 bytes"}},
					StructuredContent: map[string]any{"file": map[string]any{"path": in.Path, "size": 3}}}, nil
			})
	}
	server := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	DeferCleanup(closeUpstream, server)
	return server.URL
}

var _ = Describe("the TypeScript SDK's client, which checks structured content against output schemas, through toolgate-gateway", func() {
	It("accepts server-filesystem's read_text_file answer and its .env denial", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o600)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1"), 0o600)).To(Succeed())
		fs, err := testenv.StartFilesystemServer(dir, GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(fs.Close)
		w := newWorld("strict-fs-", fs.URL, "read_text_file")

		answers := strictClient(w.token,
			tsCall{w.readTool, map[string]any{"path": "notes.txt"}},
			tsCall{w.readTool, map[string]any{"path": ".env"}})
		Expect(answers.tool(w.readTool)).To(HaveKeyWithValue("outputSchema", wrapped(And(
			HaveKeyWithValue("$id", "urn:toolgate:gateway:tool:"+w.readTool+":output"),
			HaveKeyWithValue("properties", HaveKey("content"))))))
		Expect(answers.Calls).To(HaveExactElements(
			answered(Equal(map[string]any{"content": "hello"})),
			refused()))
		Expect(fs.Wire()).NotTo(ContainSubstring(".env"))
	})

	It("accepts server-everything's get-structured-content answer and its denial", func() {
		upstream, err := testenv.StartEverythingServer(GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(upstream.Close)
		w := newWorld("strict-everything-", upstream.URL, "get-structured-content", func(o *worldObjects) {
			o.server.Spec.Tools[0].Arguments.Paths = []string{"location"} // so that ".env" is refused
		})

		answers := strictClient(w.token,
			tsCall{w.readTool, map[string]any{"location": "Chicago"}},
			tsCall{w.readTool, map[string]any{"location": ".env"}})
		Expect(answers.tool(w.readTool)).To(HaveKeyWithValue("outputSchema", wrapped(HaveKeyWithValue("properties", HaveKey("temperature")))))
		Expect(answers.Calls).To(HaveExactElements(
			answered(HaveKeyWithValue("conditions", Not(BeEmpty()))),
			refused()))
	})

	It("accepts the answers and denials of tools whose output schemas have references ($defs, definitions), and of one offered with none", func() {
		var registered map[string]string // upstream name: AgentTool
		w := newWorld("strict-refs-", startReferencingServer(), "defs", func(o *worldObjects) {
			base := o.tools[0].Name
			registered = map[string]string{"defs": base}
			for _, upstream := range []string{"definitions", "draft04"} {
				name := base + "-" + upstream
				registered[upstream] = name
				o.tools = append([]*safetyv1alpha1.AgentTool{{ObjectMeta: metav1.ObjectMeta{Name: name},
					Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}}}, o.tools...)
				o.server.Spec.Tools = append(o.server.Spec.Tools, safetyv1alpha1.ServedTool{AgentTool: name, UpstreamName: upstream,
					Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{"path"}}})
			}
		})
		calls := make([]tsCall, 0, 6)
		for _, upstream := range []string{"defs", "definitions", "draft04"} {
			calls = append(calls, tsCall{registered[upstream], map[string]any{"path": "notes.txt"}},
				tsCall{registered[upstream], map[string]any{"path": ".env"}})
		}

		answers := strictClient(w.token, calls...)
		Expect(answers.tool(registered["defs"])).To(HaveKeyWithValue("outputSchema", wrapped(And(
			HaveKeyWithValue("$id", HavePrefix("urn:toolgate:gateway:tool:")), HaveKey("$defs")))))
		Expect(answers.tool(registered["definitions"])).To(HaveKeyWithValue("outputSchema", wrapped(And(
			HaveKeyWithValue("allOf", ConsistOf(HaveKeyWithValue("$ref", "#/definitions/answer"))), Not(HaveKey("$ref"))))))
		Expect(answers.tool(registered["draft04"])).NotTo(HaveKey("outputSchema"))
		file := Equal(map[string]any{"file": map[string]any{"path": "notes.txt", "size": 3.0}})
		Expect(answers.Calls).To(HaveExactElements(
			answered(file), refused(),
			answered(file), refused(),
			answered(file), refused()))

		By("the Go SDK's client, which checks no structured content, sees the same")
		for _, c := range calls {
			res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: c.Name, Arguments: c.Arguments})
			Expect(err).NotTo(HaveOccurred())
			if c.Arguments["path"] == ".env" {
				Expect(res.IsError).To(BeTrue())
				Expect(res.StructuredContent).To(HaveKeyWithValue("reason", "ToolAccessDenied"))
			} else {
				Expect(res.IsError).To(BeFalse())
				Expect(res.StructuredContent).To(file)
			}
		}
	})
})
