package gateway_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/internal/testenv"
)

// npmPackages installs, if needed, the pinned npm packages and returns their node_modules directory.
func npmPackages() string {
	GinkgoHelper()
	dir, err := testenv.NPMPackages(GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	return dir
}

var _ = Describe("a third-party MCP server from the npm registry behind toolgate-gateway", Ordered, func() {
	var (
		w        *world
		readTool string
		fs       *testenv.FilesystemServer
	)

	BeforeAll(func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello from server-filesystem"), 0o600)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1"), 0o600)).To(Succeed())
		var err error
		fs, err = testenv.StartFilesystemServer(dir, GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(fs.Close)
		w = newWorld("npm-", fs.URL, "read_text_file")
		readTool = w.readTool
	})

	It("lists only the registered tool, not the server's other tools", func() {
		res, err := w.session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		names := make([]string, 0, len(res.Tools))
		for _, t := range res.Tools {
			names = append(names, t.Name)
		}
		Expect(names).To(ContainElement(readTool))
		Expect(names).NotTo(ContainElements("read_text_file", "write_file", "edit_file", "list_directory"))
	})

	It("forwards an admitted read, which server-filesystem answers", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		Expect(res.Content[0].(*mcp.TextContent).Text).To(Equal("hello from server-filesystem"))
		Expect(fs.Wire()).To(ContainSubstring("notes.txt"))
	})

	It("refuses a read of .env with ToolAccessDenied, and server-filesystem never receives it", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: readTool, Arguments: map[string]any{"path": ".env"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeTrue())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(HavePrefix("[ToolAccessDenied] "))
		Expect(reasonIn(res)).To(Equal("ToolAccessDenied"))
		Expect(res.StructuredContent).To(HaveKeyWithValue("reason", "ToolAccessDenied"))
		Expect(fs.Wire()).NotTo(ContainSubstring(".env"))
	})

	It("is usable from the MCP Inspector's CLI mode: it lists the tools and calls one, allowed and denied", func() {
		inspector := filepath.Join(npmPackages(), "@modelcontextprotocol", "inspector-cli", "build", "index.js")
		run := func(args ...string) map[string]any {
			GinkgoHelper()
			cmd := exec.Command("node", append([]string{inspector, gatewayURL, "--transport", "http",
				"--header", "Authorization: Bearer " + w.token}, args...)...)
			// It finds its own package.json by a path relative to the working directory.
			cmd.Dir = filepath.Dir(inspector)
			cmd.Stderr = GinkgoWriter
			out, err := cmd.Output()
			Expect(err).NotTo(HaveOccurred(), "mcp-inspector-cli %v: %s", args, out)
			var answer map[string]any
			Expect(json.Unmarshal(out, &answer)).To(Succeed(), "the Inspector prints JSON: %s", out)
			return answer
		}
		listed := run("--method", "tools/list")
		Expect(listed["tools"]).To(ContainElement(HaveKeyWithValue("name", readTool)))
		Expect(listed["tools"]).NotTo(ContainElement(HaveKeyWithValue("name", "write_file")))

		allowed := run("--method", "tools/call", "--tool-name", readTool, "--tool-arg", "path=notes.txt")
		Expect(allowed).NotTo(HaveKeyWithValue("isError", true))
		Expect(allowed["content"]).To(ConsistOf(HaveKeyWithValue("text", "hello from server-filesystem")))

		refused := run("--method", "tools/call", "--tool-name", readTool, "--tool-arg", "path=.env")
		Expect(refused).To(HaveKeyWithValue("isError", true))
		Expect(refused["content"]).To(ConsistOf(HaveKeyWithValue("text", HavePrefix("[ToolAccessDenied] "))))
		Expect(refused["_meta"]).To(HaveKeyWithValue(gateway.MetaDenial, HaveKeyWithValue("reason", "ToolAccessDenied")))
		// read_text_file declares an output schema; the one the gateway offers admits the denial too.
		Expect(refused).To(HaveKeyWithValue("structuredContent", HaveKeyWithValue("reason", "ToolAccessDenied")))
		Expect(fs.Wire()).NotTo(ContainSubstring(".env"))
	})

	It("is usable from Claude Code's own MCP client, set up as the sample managed-mcp.json sets it up", func() {
		claude, err := testenv.ClaudeCode(GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		tokenFile := filepath.Join(dir, "token")
		Expect(os.WriteFile(tokenFile, []byte(w.token), 0o600)).To(Succeed())
		sample, err := testenv.Path("config", "samples", "hook", "managed-mcp.json")
		Expect(err).NotTo(HaveOccurred())
		b, err := os.ReadFile(sample)
		Expect(err).NotTo(HaveOccurred())
		var config struct {
			MCPServers map[string]map[string]any `json:"mcpServers"`
		}
		Expect(json.Unmarshal(b, &config)).To(Succeed())
		server := config.MCPServers["toolgate"]
		Expect(server).To(HaveKeyWithValue("type", "http"))
		// The sample's server, at this gateway, its headers helper reading this token file.
		server["url"] = gatewayURL
		Expect(server["headersHelper"]).To(ContainSubstring("/var/run/secrets/toolgate-gateway/token"))
		server["headersHelper"] = strings.ReplaceAll(server["headersHelper"].(string), "/var/run/secrets/toolgate-gateway/token", tokenFile)
		b, err = json.Marshal(config)
		Expect(err).NotTo(HaveOccurred())
		mcpConfig := filepath.Join(dir, "mcp.json")
		Expect(os.WriteFile(mcpConfig, b, 0o600)).To(Succeed())

		tool := "mcp__toolgate__" + readTool
		model := testenv.NewScriptedModel([]testenv.ToolUse{
			{ID: "toolu_notes", Name: tool, Input: map[string]any{"path": "notes.txt"}},
			{ID: "toolu_env", Name: tool, Input: map[string]any{"path": ".env"}},
		})
		DeferCleanup(model.Close)
		cmd := testenv.ClaudeCodeCommand(ctx, claude, dir, GinkgoT().TempDir(), model, "Read notes.txt and .env",
			"--mcp-config", mcpConfig, "--strict-mcp-config", "--allowedTools", tool, "--max-turns", "3")
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "claude: %s", out)

		results := model.Results()
		Expect(results).To(HaveKey("toolu_notes"), "claude: %s", out)
		Expect(results["toolu_notes"].IsError).To(BeFalse(), results["toolu_notes"].Text())
		Expect(results["toolu_notes"].Text()).To(ContainSubstring("hello from server-filesystem"))
		Expect(results).To(HaveKey("toolu_env"))
		Expect(results["toolu_env"].IsError).To(BeTrue())
		Expect(results["toolu_env"].Text()).To(ContainSubstring("[ToolAccessDenied] "))
		for _, told := range model.Told() {
			Expect(string(told)).NotTo(ContainSubstring("SECRET=1"))
		}
		Expect(fs.Wire()).NotTo(ContainSubstring(".env"))
	})

	It("refuses a tool server-filesystem offers but nobody registered, which it never receives", func() {
		res, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: "write_file",
			Arguments: map[string]any{"path": "notes.txt", "content": "overwritten"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Content[0].(*mcp.TextContent).Text).To(HavePrefix("[ToolNotRegistered] "))
		Expect(fs.Wire()).NotTo(ContainSubstring("overwritten"))
	})

	It("holds a decision record for every call the gateway submitted, with the arguments it decided on", func() {
		tool := HaveKeyWithValue("tool", readTool)
		// The path argument as the ToolServer maps it: what the engine saw, and an auditor reads.
		read := func(path string) types.GomegaMatcher {
			return And(HaveKeyWithValue("arguments", HaveKeyWithValue("paths", ConsistOf(path))),
				HaveKeyWithValue("argumentsDigest", HavePrefix("sha256:")), HaveKey("uid"))
		}
		Expect(decisionsIn(w.ns)).To(ConsistOf(
			And(tool, HaveKeyWithValue("decision", "allow"), read("notes.txt")), // the Go SDK client's read
			And(tool, HaveKeyWithValue("reason", "ToolAccessDenied"), HaveKeyWithValue("ruleId", HavePrefix("path-policy:")), read(".env")),
			And(tool, HaveKeyWithValue("decision", "allow"), read("notes.txt")), // the Inspector's read
			And(tool, HaveKeyWithValue("reason", "ToolAccessDenied"), HaveKeyWithValue("ruleId", HavePrefix("path-policy:")), read(".env")),
			And(tool, HaveKeyWithValue("decision", "allow"), read("notes.txt")), // Claude Code's read
			And(tool, HaveKeyWithValue("reason", "ToolAccessDenied"), HaveKeyWithValue("ruleId", HavePrefix("path-policy:")), read(".env")),
			And(HaveKeyWithValue("tool", "write_file"), HaveKeyWithValue("reason", "ToolNotRegistered")),
		))
	})
})

var _ = Describe("a third-party MCP server that restarts, behind toolgate-gateway", Ordered, func() {
	var (
		w        *world
		upstream *testenv.EverythingServer
	)

	BeforeAll(func() {
		var err error
		upstream, err = testenv.StartEverythingServer(GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(upstream.Close)
		w = newWorld("npm-restart-", upstream.URL, "echo", func(o *worldObjects) {
			reportedByTheGateway(o.plan)
			// Read as a path, so that no two calls are the same call to the loop detector.
			o.server.Spec.Tools[0].Arguments.Paths = []string{"message"}
		})
	})

	var echoes int
	echo := func() (*mcp.CallToolResult, error) { // each with another message: no loop
		echoes++
		return w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool,
			Arguments: map[string]any{"message": fmt.Sprintf("m%d", echoes)}})
	}
	echoed := func() {
		GinkgoHelper()
		res, err := echo()
		Expect(err).NotTo(HaveOccurred(), "upstream log:\n%s", upstream.Log())
		Expect(res.Content).To(ConsistOf(HaveField("Text", fmt.Sprintf("Echo: m%d", echoes))))
		Expect(res.IsError).To(BeFalse())
	}

	It("connects again when the server no longer knows the gateway's sessions, and no call fails for it", func() {
		for range gateway.DefaultUpstreamSessions + 1 { // every session of the pool connected
			echoed()
		}
		// What the server printed reaches its log through a pipe, a moment after it printed it.
		Eventually(upstream.Sessions).WithTimeout(waitTimeout).WithPolling(waitInterval).
			Should(Equal(gateway.DefaultUpstreamSessions))

		// The new server answers a forgotten session with HTTP 400 and a JSON-RPC error, not
		// the 404 the transport specifies.
		Expect(upstream.Restart()).To(Succeed())
		for range gateway.DefaultUpstreamSessions + 1 {
			echoed()
		}
		// Each old session ends on its own too, when its standalone stream's reconnect (after one
		// to two seconds, with jitter) is refused: its slot then connects a new session to the new
		// server. A call that takes a slot not yet ended finds it forgotten, and the gateway
		// forgets the pool and connects a new one. So the new server sees up to the old pool's
		// slots but one that ended first, and then a whole new pool; never more.
		Eventually(upstream.Sessions).WithTimeout(waitTimeout).WithPolling(waitInterval).
			Should(BeNumerically(">=", 1))
		Expect(upstream.Sessions()).To(BeNumerically("<=", 2*gateway.DefaultUpstreamSessions-1), "upstream log:\n%s", upstream.Log())
		Eventually(w.callStatuses).WithTimeout(waitTimeout).WithPolling(waitInterval).Should(And(
			HaveLen(echoes), HaveEach(HaveField("Phase", safetyv1alpha1.CallPhaseSucceeded))),
			"no admitted call was reported Failed for the gateway's stale sessions")
	})
})

var _ = Describe("server-everything's answers, through toolgate-gateway", Ordered, func() {
	// Each of its tools that answers with a kind of content of its own, and the arguments it takes.
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"get-sum", map[string]any{"a": 2, "b": 3.5}},
		{"get-tiny-image", map[string]any{}},
		{"get-structured-content", map[string]any{"location": "Chicago"}},
		{"get-resource-links", map[string]any{"count": 3}},
		{"get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": 2}},
		{"get-annotated-message", map[string]any{"messageType": "error", "includeImage": true}},
		{"trigger-long-running-operation", map[string]any{"duration": 0.2, "steps": 2}},
	}
	var (
		w              *world
		direct         *mcp.ClientSession
		registeredName = map[string]string{}
	)

	BeforeAll(func() {
		upstream, err := testenv.StartEverythingServer(GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(upstream.Close)
		w = newWorld("npm-kinds-", upstream.URL, "echo", func(o *worldObjects) {
			tools := make([]*safetyv1alpha1.AgentTool, 0, len(calls)+len(o.tools))
			for _, c := range calls {
				name := o.server.Name + "-" + c.tool
				registeredName[c.tool] = name
				tools = append(tools, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: name},
					Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead, Description: c.tool}})
				o.server.Spec.Tools = append(o.server.Spec.Tools, safetyv1alpha1.ServedTool{AgentTool: name, UpstreamName: c.tool})
			}
			// Before the world's own tool, which newWorld waits for: the webhook then sees them all.
			o.tools = append(tools, o.tools...)
		})
		c := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "test"}, nil)
		direct, err = c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: upstream.URL, DisableStandaloneSSE: true}, nil)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(direct.Close)
	})

	It("passes each kind of content on as the server answered it", func() {
		for _, c := range calls {
			want, err := direct.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			Expect(err).NotTo(HaveOccurred(), c.tool)
			Expect(want.IsError).To(BeFalse(), c.tool)
			got, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: registeredName[c.tool], Arguments: c.args})
			Expect(err).NotTo(HaveOccurred(), c.tool)
			Expect(untimed(asJSON(got.Content))).To(MatchJSON(untimed(asJSON(want.Content))), c.tool)
			Expect(asJSON(got.StructuredContent)).To(MatchJSON(asJSON(want.StructuredContent)), c.tool)
			Expect(got.IsError).To(BeFalse(), c.tool)
		}
	})
})

// clockTime is a time of day as server-everything writes one into a resource it makes.
var clockTime = regexp.MustCompile(`\b\d{1,2}:\d{2}:\d{2}( [AP]M)?\b`)

// untimed is s with its times of day left out: the direct call and the gateway's are made a moment
// apart, and may straddle a second.
func untimed(s string) string { return clockTime.ReplaceAllString(s, "TIME") }

// asJSON is v as JSON.
func asJSON(v any) string {
	GinkgoHelper()
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}
