package gateway_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// What the gateway answers depends on who asks (tools/list shows only what the caller's plan
// could use), so no answer of it may be marked shareable: the MCP cache hints (cacheScope, ttlMs)
// of every result that carries them are "private" and 0, never the protocol's default "public",
// which lets any intermediary serve one agent's answer to another.
var _ = Describe("the gateway's cache hints", Ordered, func() {
	var w *world

	BeforeAll(func() {
		up, stop := startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w = newWorld("gw-cache-", up.URL, "read_file")
	})

	It("mark tools/list private and stale at once", func() {
		res, err := w.session.ListTools(ctx, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Tools).NotTo(BeEmpty())
		Expect(res.CacheScope).To(Equal("private"))
		Expect(res.TTLMs).To(BeZero())
	})

	It("mark server/discover (protocol 2026-07-28) private too", func() {
		meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
			`"io.modelcontextprotocol/clientInfo":{"name":"agent","version":"1"}}`
		for method, params := range map[string]string{"server/discover": "{" + meta + "}", "tools/list": "{" + meta + "}"} {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, gatewayURL, strings.NewReader(
				`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
			Expect(err).NotTo(HaveOccurred())
			for k, v := range map[string]string{"Authorization": "Bearer " + w.token, "Content-Type": "application/json",
				"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": method} {
				req.Header.Set(k, v)
			}
			resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
			Expect(err).NotTo(HaveOccurred())
			body, err := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.StatusCode).To(Equal(http.StatusOK), "%s: %s", method, body)
			var answer struct {
				Result struct {
					CacheScope string `json:"cacheScope"`
					TTLMs      *int   `json:"ttlMs"`
				} `json:"result"`
			}
			Expect(json.Unmarshal(body, &answer)).To(Succeed(), "%s: %s", method, body)
			Expect(answer.Result.CacheScope).To(Equal("private"), "%s: %s", method, body)
			Expect(answer.Result.TTLMs).To(HaveValue(BeZero()), "%s: %s", method, body)
		}
	})
})
