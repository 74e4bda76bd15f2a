package gateway

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Above bufio's 4096 bytes, so that a line over the limit is read in fragments.
const testLimit = 10000

// readAnswer sends request (one JSON-RPC message; "" for a GET) through limitAnswers to a server
// that answers with status, contentType and body, and returns what the SDK would read.
func readAnswer(t *testing.T, request string, status int, contentType, body string) (string, error) {
	t.Helper()
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	defer closeUpstream(server)
	method, reqBody := http.MethodPost, io.Reader(strings.NewReader(request))
	if request == "" {
		method, reqBody = http.MethodGet, nil
	}
	req, err := http.NewRequestWithContext(t.Context(), method, server.URL, reqBody)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := limitAnswers(server.Client(), testLimit).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	read, err := io.ReadAll(resp.Body)
	return string(read), err
}

// isTooLargeFor reports whether data is the JSON-RPC error response to the call id for an
// answer over the limit.
func isTooLargeFor(data string, id jsonrpc.ID) bool {
	msg, err := jsonrpc.DecodeMessage([]byte(data))
	resp, ok := msg.(*jsonrpc.Response)
	if err != nil || !ok || resp.ID != id {
		return false
	}
	rpcErr, ok := errors.AsType[*jsonrpc.Error](resp.Error)
	return ok && rpcErr.Code == jsonrpc.CodeInternalError &&
		rpcErr.Message == answerTooLargeError{testLimit}.Error()
}

// idOf is the JSON-RPC id v decodes to (a float64 for a number, as encoding/json decodes it).
func idOf(v any) jsonrpc.ID {
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		panic(err)
	}
	return id
}

// event is a server-sent event of exactly n bytes, its blank line included.
func event(n int) string { return "data: " + strings.Repeat("x", n-len("data: \n\n")) + "\n\n" }

const (
	callNumber = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"big"}}`
	callString = `{"jsonrpc":"2.0","id":"call-7","method":"tools/call","params":{"name":"big"}}`
	notify     = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	batch      = `[` + callNumber + `]`
)

func TestABodyOverTheLimitIsTheCallsError(t *testing.T) {
	exact, over := strings.Repeat("x", testLimit), strings.Repeat("x", testLimit+1)
	for _, c := range []struct {
		name, request, contentType, body string
		status                           int
		want                             func(string, error) bool
	}{
		{name: "exactly the limit is read whole", request: callNumber, contentType: "application/json", body: exact,
			want: func(s string, err error) bool { return err == nil && s == exact }},
		{name: "a byte over, to a call with a number id", request: callNumber, contentType: "application/json; charset=utf-8",
			body: over, want: func(s string, err error) bool { return err == nil && isTooLargeFor(s, idOf(7.0)) }},
		{name: "a byte over, to a call with a string id", request: callString, contentType: "application/json", body: over,
			want: func(s string, err error) bool { return err == nil && isTooLargeFor(s, idOf("call-7")) }},
		{name: "an error page over (the SDK reads any other body whole, and takes a JSON-RPC error from it)",
			request: callNumber, contentType: "text/plain", status: http.StatusInternalServerError, body: over,
			want: func(s string, err error) bool { return err == nil && isTooLargeFor(s, idOf(7.0)) }},
		{name: "an error page of small events over (bounded whole: the SDK reads no events from it)",
			request: callNumber, contentType: "text/event-stream", status: http.StatusInternalServerError,
			body: strings.Repeat(event(100), 101),
			want: func(s string, err error) bool { return err == nil && isTooLargeFor(s, idOf(7.0)) }},
		{name: "a byte over, to a notification: no call to answer", request: notify, contentType: "application/json", body: over,
			want: func(_ string, err error) bool { return errors.As(err, new(answerTooLargeError)) }},
		{name: "a byte over, to a batch: no one call to answer", request: batch, contentType: "application/json", body: over,
			want: func(_ string, err error) bool { return errors.As(err, new(answerTooLargeError)) }},
		{name: "a byte over, to a GET: no call to answer", contentType: "application/json", body: over,
			want: func(_ string, err error) bool { return errors.As(err, new(answerTooLargeError)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := readAnswer(t, c.request, cmp.Or(c.status, http.StatusOK), c.contentType, c.body)
			if !c.want(got, err) {
				t.Errorf("read %.200q, %v", got, err)
			}
		})
	}
}

func TestAnEventOverTheLimitIsTheCallsErrorAndEndsTheStream(t *testing.T) {
	// Events as a server may send them, each passed on unchanged: a comment, several data lines,
	// CRLF line ends, an id, blank lines between events, together far over the limit.
	small := ": ping\n\n" + "id: 1\r\nevent: message\r\ndata: {\r\ndata: }\r\n\r\n" + "\n" + strings.Repeat(event(1000), 20)
	const sse = "text/event-stream"
	for _, c := range []struct {
		name, request, body string
		want                func(string, error) bool
	}{
		{name: "small events and one of exactly the limit (a line of it in fragments)", request: callNumber,
			body: small + event(testLimit) + small,
			want: func(s string, err error) bool { return err == nil && s == small+event(testLimit)+small }},
		{name: "a last event without its blank line", request: callNumber, body: small + "data: {}",
			want: func(s string, err error) bool { return err == nil && s == small+"data: {}" }},
		{name: "small events, then one a byte over: the call's error in its place, and nothing after",
			request: callString, body: small + event(testLimit+1) + small,
			want: func(s string, err error) bool {
				data, ok := strings.CutPrefix(s, small+"event: message\ndata: ")
				data, end := strings.CutSuffix(data, "\n\n")
				return err == nil && ok && end && isTooLargeFor(data, idOf("call-7"))
			}},
		{name: "an event over the limit to a notification: passed on as it is, for the SDK's bound",
			request: notify, body: small + event(3*testLimit) + small,
			want: func(s string, err error) bool { return err == nil && s == small+event(3*testLimit)+small }},
		{name: "an event over the limit on a GET: passed on as it is, for the SDK's bound",
			body: small + event(3*testLimit) + small,
			want: func(s string, err error) bool { return err == nil && s == small+event(3*testLimit)+small }},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := readAnswer(t, c.request, http.StatusOK, sse, c.body)
			if !c.want(got, err) {
				t.Errorf("read %.300q, %v", got, err)
			}
		})
	}
}

// The gateway's bound and the SDK's agree, through a real SDK client and server: an answer of
// exactly the limit is read (an event within limitAnswers' bound is within the SDK's own), and
// one a byte over fails its call alone, with a JSON-RPC error, on a session that goes on.
func TestTheSDKReadsAnAnswerOfTheLimitAndFailsOnlyTheCallOfOneByteMore(t *testing.T) {
	for name, sse := range map[string]bool{"as one JSON body": false, "as a server-sent event": true} {
		t.Run(name, func(t *testing.T) {
			server := httptest.NewServer(exactAnswers(sse))
			defer closeUpstream(server)
			u, up := dialed(t, server, "exact", 1, testLimit)
			defer u.close()
			session, err := up.pooledSession()
			if err != nil {
				t.Fatal(err)
			}
			call := func(size int) (*mcp.CallToolResult, error) {
				return session.CallTool(t.Context(), &mcp.CallToolParams{Name: "exact", Arguments: map[string]any{"size": size}})
			}
			if _, err := call(testLimit); err != nil {
				t.Fatalf("an answer of exactly the limit: %v", err)
			}
			_, err = call(testLimit + 1)
			if rpcErr, ok := errors.AsType[*jsonrpc.Error](err); !ok || rpcErr.Message != (answerTooLargeError{testLimit}).Error() {
				t.Fatalf("an answer a byte over the limit: %v, want the JSON-RPC error", err)
			}
			if res, err := call(testLimit); err != nil || res.IsError {
				t.Fatalf("the next call on the same session: %v, %v", res, err)
			}
		})
	}
}

// exactAnswers is a real MCP server offering the tool "exact", whose calls are answered by a
// message (a JSON body, or an event) of exactly as many bytes as asked for.
func exactAnswers(sse bool) http.Handler {
	s := mcp.NewServer(&mcp.Implementation{Name: "exact", Version: "test"}, nil)
	type size struct {
		Size int `json:"size"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "exact"}, func(context.Context, *mcp.CallToolRequest, size) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New("answered by exactAnswers")
	})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		msg, _ := jsonrpc.DecodeMessage(body)
		call, ok := msg.(*jsonrpc.Request)
		var params struct{ Arguments size }
		if !ok || call.Method != "tools/call" || json.Unmarshal(call.Params, &params) != nil {
			sdk.ServeHTTP(w, r)
			return
		}
		contentType, frame := "application/json", func(text string) []byte {
			result, _ := json.Marshal(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}})
			out, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: call.ID, Result: result})
			if sse {
				return fmt.Appendf(nil, "event: message\ndata: %s\n\n", out)
			}
			return out
		}
		if sse {
			contentType = "text/event-stream"
		}
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(frame(strings.Repeat("x", params.Arguments.Size-len(frame("")))))
	})
}

// TestABodyWhoseLengthIsOverTheLimitIsReplacedUnread: an answer whose Content-Length says it is
// over the limit is the call's error at once; the gateway does not read the limit's worth of it
// first. The upstream sends a few bytes and then holds the rest, so a read of the body would wait.
func TestABodyWhoseLengthIsOverTheLimitIsReplacedUnread(t *testing.T) {
	hold := make(chan struct{})
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(testLimit+1))
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0",`)
		w.(http.Flusher).Flush()
		select {
		case <-hold:
		case <-r.Context().Done():
		}
	}))
	defer closeUpstream(server)
	defer close(hold)
	resp := postCall(t, server)
	read := make(chan string, 1)
	go func() {
		data, _ := io.ReadAll(resp.Body)
		read <- string(data)
	}()
	select {
	case got := <-read:
		if !isTooLargeFor(got, idOf(7.0)) {
			t.Errorf("read %.200q, want the call's error", got)
		}
	case <-time.After(deadline):
		t.Error("the gateway read a body whose Content-Length is over the limit")
	}
	_ = resp.Body.Close()
}

// TestABodyWhoseLengthIsWithinTheLimitIsPassedOnAsItComes: an answer whose Content-Length is within
// the limit is not read ahead of the SDK (net/http delivers no byte past that length). The upstream
// sends the first part and holds the rest until the first part has been read through the gateway.
func TestABodyWhoseLengthIsWithinTheLimitIsPassedOnAsItComes(t *testing.T) {
	const first, rest = `{"jsonrpc":"2.0",`, `"id":7,"result":{}}`
	firstRead := make(chan struct{})
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(first+rest)))
		_, _ = io.WriteString(w, first)
		w.(http.Flusher).Flush()
		select {
		case <-firstRead:
			_, _ = io.WriteString(w, rest)
		case <-r.Context().Done():
		}
	}))
	defer closeUpstream(server)
	resp := postCall(t, server)
	defer func() { _ = resp.Body.Close() }()
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, len(first))
		n, _ := io.ReadFull(resp.Body, buf)
		got <- string(buf[:n])
	}()
	select {
	case part := <-got:
		if part != first {
			t.Fatalf("read %q first, want %q", part, first)
		}
	case <-time.After(deadline):
		t.Fatal("the gateway held a body whose Content-Length is within the limit until it was whole")
	}
	close(firstRead)
	tail, err := io.ReadAll(resp.Body)
	if err != nil || string(tail) != rest {
		t.Fatalf("then read %q, %v; want %q", tail, err, rest)
	}
}

// postCall posts call 7 to server through limitAnswers and returns the answer, its body unread.
func postCall(t *testing.T, server *httptest.Server) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, server.URL, strings.NewReader(callNumber))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := limitAnswers(server.Client(), testLimit).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}
