package gateway

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestAnEventIsNoAnswerOnlyWhenTheSDKWouldTakeItForARequest reads events as the SDK's jsonrpc
// decoding would: only a top-level "method" that is a string, not empty, and the last of its
// name, makes a request or notification; anything it cannot tell without decoding is an answer.
func TestAnEventIsNoAnswerOnlyWhenTheSDKWouldTakeItForARequest(t *testing.T) {
	for _, tc := range []struct {
		event    string
		noAnswer bool
	}{
		{`data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}` + "\n\n", true},
		{`data:{"params":{"message":"` + strings.Repeat("x", 1000) + `"},"method":"notifications/message","jsonrpc":"2.0"}` + "\r\n\r\n", true},
		{"event: message\nid: 7\n" + `data: { "jsonrpc" : "2.0" , "id" : 3 , "method" : "sampling/createMessage" }` + "\n\n", true},
		{`data: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}` + "\n\n", false},
		// A method named inside the result, in a string, or in an escaped string is the answer's.
		{`data: {"jsonrpc":"2.0","id":1,"result":{"method":"x"}}` + "\n\n", false},
		{`data: {"jsonrpc":"2.0","id":1,"result":"\",\"method\":\"x"}` + "\n\n", false},
		{`data: {"jsonrpc":"2.0","id":1,"result":[1,{"a":"]}"},2],"error":null}` + "\n\n", false},
		{`data: {"jsonrpc":"2.0","method":"","id":1,"result":{}}` + "\n\n", false},
		{`data: {"jsonrpc":"2.0","method":"x","method":"","id":1,"result":{}}` + "\n\n", false},
		{`data: {"jsonrpc":"2.0","\u006dethod":"x"}` + "\n\n", false},
		{`data: {"jsonrpc":"2.0","method":"a\"b"}` + "\n\n", false},
		{`data: {"jsonrpc":"2.0","method":7}` + "\n\n", false},
		{`data: {"jsonrpc":"2.0","method":"x"` + "\n\n", false},
		{"data: {\"jsonrpc\":\"2.0\",\ndata: \"method\":\"x\"}\n\n", false}, // two data lines
		{": a comment\n\n", false},
		{`data: [{"jsonrpc":"2.0","method":"x"}]` + "\n\n", false},
	} {
		if got := eventIsNoAnswer([]byte(tc.event)); got != tc.noAnswer {
			t.Errorf("eventIsNoAnswer(%.90q) = %v, want %v", tc.event, got, tc.noAnswer)
		}
	}
}

// TestALargeNotificationGivesItsShareBackWhenTheNextEventIsRead streams, to a call with a hold, a
// progress notification over freeAnswerBytes and then waits before the call's answer, as a long
// call does: while the gateway waits for the answer, the notification's share is back in the
// budget. The large answer then takes a share, which it holds until the call ends.
func TestALargeNotificationGivesItsShareBackWhenTheNextEventIsRead(t *testing.T) {
	const limit = 1 << 20
	answer := make(chan struct{})
	notification := fmt.Sprintf("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":%q}}\n\n",
		strings.Repeat("x", 200<<10))
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, notification)
		w.(http.Flusher).Flush()
		<-answer
		_, _ = fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\",\"text\":%q}]}}\n\n",
			strings.Repeat("y", 300<<10))
	}))
	defer closeUpstream(server)
	answerNow := sync.OnceFunc(func() { close(answer) })
	defer answerNow() // before the server closes, which waits for its handler
	req, share := heldCall(t, server.URL, limit)
	resp, err := limitAnswers(server.Client(), limit).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	first := make([]byte, len(notification))
	if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != notification {
		t.Fatalf("the notification is not passed on as it came (%v)", err)
	}
	if held := heldBy(share); held != limit {
		t.Fatalf("the notification, being passed on, holds %d bytes of the budget, want %d", held, limit)
	}
	read := make(chan []byte)
	go func() {
		body, _ := io.ReadAll(resp.Body)
		read <- body
	}()
	waitForHeld(t, share, 0) // the gateway waits for the next event
	answerNow()
	body := <-read
	msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(body[bytes.LastIndex(body, []byte("data: "))+len("data: "):]))
	if r, ok := msg.(*jsonrpc.Response); err != nil || !ok || r.Error != nil {
		t.Fatalf("the call's answer is not what the upstream sent (%v): %.100s", err, body)
	}
	if held := heldBy(share); held != limit {
		t.Errorf("the answer, read, holds %d bytes of the budget, want %d until its call ends", held, limit)
	}
}

// waitForHeld waits until share holds want bytes of its budget.
func waitForHeld(t *testing.T, share *answerShare, want int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for heldBy(share) != want {
		if time.Now().After(deadline) {
			t.Fatalf("the share holds %d bytes of the budget, not %d", heldBy(share), want)
		}
		time.Sleep(time.Millisecond)
	}
}

func heldBy(share *answerShare) int64 {
	share.hold.mu.Lock()
	defer share.hold.mu.Unlock()
	return share.held
}

// readEvent reads from events until it has passed on one whole event, as the SDK reads a stream.
func readEvent(t *testing.T, events io.Reader, want string) {
	t.Helper()
	got := make([]byte, len(want))
	if _, err := io.ReadFull(events, got); err != nil || string(got) != want {
		t.Fatalf("read %.60q (%v), want %.60q", got, err, want)
	}
}

// streamOf is a limitedEvents over the events given, for a call holding a share of a budget of
// limit bytes, read in the test's own goroutine.
func streamOf(t *testing.T, limit int64, events ...string) (*limitedEvents, *answerShare) {
	t.Helper()
	req, share := heldCall(t, "http://upstream.invalid/mcp", limit)
	upstream := strings.NewReader(strings.Join(events, ""))
	return &limitedEvents{upstream: io.NopCloser(upstream), lines: bufio.NewReader(upstream),
		over: tooLarge{req: req, limit: limit}}, share
}

func sseEvent(message string) string { return "event: message\ndata: " + message + "\n\n" }

// largeNotification is an event of a log notification of size bytes of data.
func largeNotification(size int) string {
	return sseEvent(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":%q}}`,
		strings.Repeat("x", size)))
}

// TestAGivenBackShareTakesTheEventsMemoryWithIt: once a large notification's share is given
// back, the stream keeps no buffer of its size for the rest of a long call.
func TestAGivenBackShareTakesTheEventsMemoryWithIt(t *testing.T) {
	const limit = 1 << 20
	large := largeNotification(300 << 10)
	small := sseEvent(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`)
	events, share := streamOf(t, limit, large, small, small)
	readEvent(t, events, large)
	readEvent(t, events, small)
	if held := heldBy(share); held != 0 {
		t.Errorf("the share holds %d bytes after the notification, want 0", held)
	}
	if c := cap(events.event); c > freeAnswerBytes {
		t.Errorf("the stream keeps a buffer of %d bytes after giving its share back, over the %d an event may hold without one", c, freeAnswerBytes)
	}
}

// TestOnlyTheEventThatTookTheShareGivesItBack: a large answer (another call's, on this stream)
// takes the share and holds it until its call ends; a large notification after it, which took
// nothing, gives nothing back.
func TestOnlyTheEventThatTookTheShareGivesItBack(t *testing.T) {
	const limit = 1 << 20
	answer := sseEvent(fmt.Sprintf(`{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":%q}]}}`,
		strings.Repeat("y", 300<<10)))
	notification := largeNotification(300 << 10)
	small := sseEvent(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`)
	events, share := streamOf(t, limit, answer, notification, small)
	readEvent(t, events, answer)
	readEvent(t, events, notification)
	readEvent(t, events, small)
	if held := heldBy(share); held != limit {
		t.Errorf("the share holds %d bytes, want %d: the answer read first holds it until its call ends", held, limit)
	}
}
