package gateway

import (
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxUpstreamMessageBytes bounds one message a ToolServer sends the gateway. It is the Go
// SDK's own bound on one server-sent event (mcp.DefaultMaxEventSize, 16 MiB), which the gateway
// applies as well to every other body (an answer sent as one JSON body, an error page): the SDK
// reads such a body whole, with no bound, so an admitted call whose upstream answered with
// gigabytes would cost the gateway as much memory.
const DefaultMaxUpstreamMessageBytes = mcp.DefaultMaxEventSize

// answerTooLargeError is an upstream answer over the limit; the SDK ends the session it came on,
// as it does for a server-sent event over the limit, and the gateway connects afresh next time.
type answerTooLargeError struct{ limit int64 }

func (e answerTooLargeError) Error() string {
	return fmt.Sprintf("the ToolServer's answer is over %d bytes, the gateway's limit for one message (--max-upstream-message-bytes)",
		e.limit)
}

// limitAnswers returns c with every response body bounded to limit bytes but server-sent event
// streams, which are left to the SDK's bound per event (StreamableClientTransport.MaxEventSize): a bound
// on a whole stream would cut off a long call's progress notifications.
func limitAnswers(c *http.Client, limit int64) *http.Client {
	limited := *c
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	limited.Transport = limitedAnswers{next: next, limit: limit}
	return &limited
}

type limitedAnswers struct {
	next  http.RoundTripper
	limit int64
}

func (l limitedAnswers) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	// Every body but an event stream: the SDK also reads an error answer's body whole, whatever
	// its type.
	if mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mediaType != "text/event-stream" {
		resp.Body = &limitedBody{ReadCloser: resp.Body, left: l.limit, limit: l.limit}
	}
	return resp, nil
}

// limitedBody reads at most limit bytes of a body and fails once there are more.
type limitedBody struct {
	io.ReadCloser
	left, limit int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte // a body of exactly the limit ends here; a longer one has a byte more
		if n, err := b.ReadCloser.Read(one[:]); n == 0 {
			return 0, err
		}
		return 0, answerTooLargeError{b.limit}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}
