package gateway_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// startBadSchemaServer is an MCP server, written by hand (the Go SDK's server refuses to offer
// such a tool), whose tools/list offers "bad", with an input schema that is not an object, next to
// "read_file"; it answers every tools/call of read_file.
func startBadSchemaServer() string {
	GinkgoHelper()
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "not MCP", http.StatusBadRequest)
			return
		}
		if req.ID == nil { // a notification
			w.WriteHeader(http.StatusAccepted)
			return
		}
		answer := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		switch req.Method {
		case "initialize":
			answer["result"] = map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "bad-schema", "version": "test"}}
		case "tools/list":
			answer["result"] = map[string]any{"tools": []any{
				map[string]any{"name": "bad", "inputSchema": map[string]any{"type": "string"}},
				map[string]any{"name": "read_file", "inputSchema": map[string]any{"type": "object",
					"properties": map[string]any{"path": map[string]any{"type": "string"}}}},
			}}
		case "tools/call":
			answer["result"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": "read"}}}
		default:
			answer["error"] = map[string]any{"code": -32601, "message": "method not found"}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(answer)
	}))
	DeferCleanup(closeUpstream, server)
	return server.URL
}

var _ = Describe("an upstream tool whose schema the gateway cannot serve", Ordered, func() {
	var w *world
	var badTool string

	BeforeAll(func() {
		w = newWorld("gw-badschema-", startBadSchemaServer(), "read_file", func(o *worldObjects) {
			badTool = o.tools[0].Name + "-bad"
			o.tools = append(o.tools, &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: badTool},
				Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}})
			o.server.Spec.Tools = append(o.server.Spec.Tools, safetyv1alpha1.ServedTool{AgentTool: badTool, UpstreamName: "bad"})
		})
	})

	It("is not offered, and every other tool still is", func() {
		res, err := w.session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).To(ContainElement(HaveField("Name", w.readTool)))
		Expect(res.Tools).NotTo(ContainElement(HaveField("Name", badTool)))

		out, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "a"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.IsError).To(BeFalse())
		Expect(out.Content).To(ConsistOf(HaveField("Text", "read")))
	})

	It("is refused when called anyway, saying its upstream's schema is what the gateway cannot serve", func() {
		_, err := w.session.CallTool(ctx, &mcp.CallToolParams{Name: badTool, Arguments: map[string]any{"path": "a"}})
		Expect(err).To(MatchError(ContainSubstring("but the gateway cannot offer it now: " +
			"its upstream describes the tool with a schema the gateway cannot serve")))
	})
})
