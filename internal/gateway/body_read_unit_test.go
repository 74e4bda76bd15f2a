package gateway

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestTheBodyDeadlineEndsWithTheBody: once a request's body has been read whole, in time, no read
// deadline is left to pass while the handler runs on (a call waiting for its upstream, or for its
// plan's metered turn, on the request's context): net/http's read of the connection would fail
// at it and end the request's context, as if the agent had hung up.
func TestTheBodyDeadlineEndsWithTheBody(t *testing.T) {
	const timeout = 200 * time.Millisecond
	ended := make(chan error, 1)
	server := httptest.NewServer(bodyDeadline(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			t.Errorf("reading the body: %v", err)
		}
		select { // the call runs past the body's deadline
		case <-r.Context().Done():
		case <-time.After(3 * timeout):
		}
		ended <- r.Context().Err()
	}), timeout))
	defer closeUpstream(server)
	resp, err := http.Post(server.URL, "application/json", bytes.NewReader([]byte(`{"jsonrpc":"2.0"}`)))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if err := <-ended; err != nil {
		t.Errorf("the request's context ended after its body was read in time: %v", err)
	}
}
