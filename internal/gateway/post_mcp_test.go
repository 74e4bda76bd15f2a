package gateway_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// postMCP sends body to the gateway at url as one raw MCP request (what the Go SDK's client would
// not send, or would send otherwise), with token as the bearer token when it is not empty, and
// returns the answer, whose body the caller closes. header holds further headers as name, value
// pairs, added after those it sets (a second Authorization header too).
func postMCP(ctx context.Context, url, token, contentType, body string, header ...string) *http.Response {
	GinkgoHelper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	return resp
}

// postedJSON is postMCP of a JSON body, answered and read whole within 10 s: the answer's
// status and body.
func postedJSON(url, token, body string, header ...string) (int, string) {
	GinkgoHelper()
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp := postMCP(c, url, token, "application/json", body, header...)
	defer func() { _ = resp.Body.Close() }()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}
