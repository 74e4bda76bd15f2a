package gateway_test

import (
	"io"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The gateway never sends notifications/tools/list_changed (it is stateless: a change of what it
// offers is a new server), so it does not advertise a tool list that changes, and a
// subscriptions/listen (protocol 2026-07-28) for it is acknowledged with nothing subscribed and
// ends: held open until the agent hung up, each one kept a connection (one of --max-connections)
// serving a request that no bound on an agent's calls counts.
var _ = Describe("an agent's subscriptions/listen", Ordered, func() {
	var w *world

	BeforeAll(func() {
		up, stop := startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w = newWorld("gw-listen-", up.URL, "read_file")
	})

	It("is told at initialize that the tool list does not change", func() {
		caps := w.session.InitializeResult().Capabilities
		Expect(caps.Tools).NotTo(BeNil())
		Expect(caps.Tools.ListChanged).To(BeFalse())
	})

	It("subscribes to nothing, and ends at once", func() {
		meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
			`"io.modelcontextprotocol/clientInfo":{"name":"agent","version":"1"}}`
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, gatewayURL, strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{`+meta+`,"notifications":{"toolsListChanged":true}}}`))
		Expect(err).NotTo(HaveOccurred())
		for k, v := range map[string]string{"Authorization": "Bearer " + w.token, "Content-Type": "application/json",
			"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2026-07-28",
			"Mcp-Method": "subscriptions/listen"} {
			req.Header.Set(k, v)
		}
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
		Expect(err).NotTo(HaveOccurred())
		defer func() { _ = resp.Body.Close() }()
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		body, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred(), "the listen is held open: %q", body)
		Expect(string(body)).To(And(ContainSubstring("notifications/subscriptions/acknowledged"),
			Not(ContainSubstring(`"toolsListChanged":true`)), ContainSubstring(`"id":1,"result"`)))
	})
})
