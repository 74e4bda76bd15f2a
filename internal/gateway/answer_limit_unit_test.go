package gateway

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestAnswersAreReadUpToTheLimitAndNoFurther(t *testing.T) {
	const limit = 1000
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", r.URL.Query().Get("type"))
		_, _ = io.WriteString(w, strings.Repeat("x", len(r.URL.Query().Get("n"))))
	}))
	defer server.Close()
	c := limitAnswers(server.Client(), limit)
	read := func(contentType string, n int) (int, error) {
		resp, err := c.Get(server.URL + "?" + url.Values{"type": {contentType}, "n": {strings.Repeat("1", n)}}.Encode())
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		body, err := io.ReadAll(resp.Body)
		return len(body), err
	}
	if n, err := read("application/json", limit); err != nil || n != limit {
		t.Errorf("a JSON body of exactly the limit: %d bytes, %v; want all of it", n, err)
	}
	if _, err := read("application/json; charset=utf-8", limit+1); !errors.As(err, new(answerTooLargeError)) {
		t.Errorf("a JSON body one byte over the limit: %v, want answerTooLargeError", err)
	}
	if _, err := read("text/plain", limit+1); !errors.As(err, new(answerTooLargeError)) {
		t.Errorf("an error page one byte over the limit (the SDK reads any non-2xx body whole): %v, want answerTooLargeError", err)
	}
	if n, err := read("text/event-stream", 3*limit); err != nil || n != 3*limit {
		t.Errorf("an event stream (bounded per event by the SDK): %d bytes, %v; want all of it", n, err)
	}
}
