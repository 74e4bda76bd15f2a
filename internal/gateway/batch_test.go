package gateway_test

import (
	"io"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A JSON-RPC batch (which MCP allowed before 2025-06-18) is answered by the Go SDK as one JSON
// array that it encodes with encoding/json's HTML escaping: every <, > and & of an upstream's
// answer grows from one byte to six (\u003c), past what the gateway's answer budget counts, and
// encoding a 16 MiB answer of an HTML file allocated 724 MiB. One agent reading one large HTML
// file in a batch could so take the gateway (256 MiB) down, and every agent's calls with it.
var _ = Describe("toolgate-gateway and JSON-RPC batches", Ordered, func() {
	var (
		w        *world
		upstream *recordingServer
	)

	BeforeAll(func() {
		var stop func()
		upstream, stop = startUpstream(notesAndEnv())
		DeferCleanup(stop)
		w = newWorld("gw-batch-", upstream.URL, "read_file")
	})

	post := func(body string) (int, string) {
		GinkgoHelper()
		resp := postMCP(ctx, gatewayURL, w.token, "application/json", body)
		defer func() { _ = resp.Body.Close() }()
		b, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		return resp.StatusCode, string(b)
	}
	call := func(id, path string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + w.readTool +
			`","arguments":{"path":"` + path + `"}}}`
	}

	It("refuses a batch with HTTP 400 saying so, before anything is created or sent", func() {
		for _, body := range []string{
			"[" + call("1", "notes.txt") + "]",
			" \n\t[" + call("1", "notes.txt") + "," + call("2", "notes.txt") + "]",
			`[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`,
		} {
			status, text := post(body)
			Expect(status).To(Equal(http.StatusBadRequest), text)
			Expect(text).To(ContainSubstring("JSON-RPC batches"))
		}
		Expect(upstream.Calls()).To(BeEmpty())
		Expect(w.callStatuses()).To(BeEmpty())
	})

	It("answers the same call sent alone, under the protocol version that allowed batches too", func() {
		status, text := post(" \r\n" + call("3", "notes.txt"))
		Expect(status).To(Equal(http.StatusOK), text)
		Expect(text).To(ContainSubstring("hello"))
		Expect(upstream.Calls()).To(ConsistOf(upstreamCall{Tool: "read_file", Path: "notes.txt"}))
		Expect(strings.Count(text, `"id":3`)).To(Equal(1))
	})
})
