package gateway_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
)

var _ = Describe("a gateway per namespace", Ordered, func() {
	var w *world

	BeforeAll(func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o600)).To(Succeed())
		upstream, stop := startUpstream(dir)
		DeferCleanup(stop)
		w = newWorld("gw-ns-", upstream.URL, "read_file")
	})

	It("refuses an agent of another namespace with HTTP 403 saying whose gateway it is, and creates nothing", func() {
		url := startGateway(func(o *gateway.Options) { o.Namespace = "toolgate-system" })
		resp := postMCP(ctx, url, w.token, "application/json",
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+w.readTool+`","arguments":{"path":"notes.txt"}}}`)
		defer func() { _ = resp.Body.Close() }()
		body, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(http.StatusForbidden))
		Expect(string(body)).To(ContainSubstring("serves the agents of namespace toolgate-system only; "+
			"ServiceAccount %s of namespace %s is not one", agentSA, w.ns))
		var calls safetyv1alpha1.AgentToolCallList
		Expect(k8sClient.List(ctx, &calls, client.InNamespace(w.ns))).To(Succeed())
		Expect(calls.Items).To(BeEmpty())
	})

	It("serves the agents of its own namespace", func() {
		session := connectedTo(startGateway(func(o *gateway.Options) { o.Namespace = w.ns }), w.token)
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: w.readTool, Arguments: map[string]any{"path": "notes.txt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.IsError).To(BeFalse())
	})
})
