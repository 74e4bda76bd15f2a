package gateway_test

import (
	"context"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// postMCP sends body to the gateway at url as one raw MCP request (what the Go SDK's client would
// not send, or would send otherwise), with token as the bearer token when it is not empty, and
// returns the answer, whose body the caller closes.
func postMCP(ctx context.Context, url, token, contentType, body string) *http.Response {
	GinkgoHelper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	return resp
}
