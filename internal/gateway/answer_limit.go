package gateway

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxUpstreamMessageBytes bounds one message a ToolServer sends the gateway. It is the Go
// SDK's own bound on one server-sent event (mcp.DefaultMaxEventSize, 16 MiB), which the gateway
// applies as well to every other body (an answer sent as one JSON body, an error page): the SDK
// reads such a body whole, with no bound, so an admitted call whose upstream answered with
// gigabytes would cost the gateway as much memory.
const DefaultMaxUpstreamMessageBytes = mcp.DefaultMaxEventSize

// MinMaxUpstreamMessageBytes is the smallest bound on one message from a ToolServer the gateway
// accepts: the JSON-RPC error that takes the place of an answer over the bound (limitAnswers) is
// a few hundred bytes, more as an event, and the SDK's own bound on one event is the same, so a
// tinier bound would fail the replacement too, and end the session. It is also smaller than any
// useful answer.
const MinMaxUpstreamMessageBytes = 4 << 10

// answerTooLargeError is an upstream answer over the limit.
type answerTooLargeError struct{ limit int64 }

func (e answerTooLargeError) Error() string {
	return fmt.Sprintf("the ToolServer's answer is over %d bytes, the gateway's limit for one message (--max-upstream-message-bytes)",
		e.limit)
}

// limitAnswers returns c with every answer bounded to limit bytes per message: a body (a JSON
// answer, an error page) as a whole, a successful event stream per event (a bound on a whole
// stream would cut off a long call's progress notifications).
//
// An answer over the limit to a call is replaced by a JSON-RPC error response to that call, so
// the SDK fails that call alone. Were the read to fail instead, the SDK would take it for a
// broken transport and end the whole session the answer came on, with every other agent's call
// in flight on it: one agent asking for huge answers would cut the others off.
func limitAnswers(c *http.Client, limit int64) *http.Client {
	return wrapTransport(c, func(next http.RoundTripper) http.RoundTripper { return limitedAnswers{next: next, limit: limit} })
}

// wrapTransport returns a copy of c whose transport is wrap of c's (the default one when c has none).
func wrapTransport(c *http.Client, wrap func(http.RoundTripper) http.RoundTripper) *http.Client {
	wrapped := *c
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	wrapped.Transport = wrap(next)
	return &wrapped
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
	over := tooLarge{req: req, limit: l.limit}
	// The SDK reads events only from a successful answer; any other body (an error page, of
	// whatever type) it reads whole.
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 && mediaType == "text/event-stream" {
		resp.Body = &limitedEvents{upstream: resp.Body, lines: bufio.NewReader(resp.Body), over: over}
	} else {
		resp.Body = &limitedBody{upstream: resp.Body, over: over, length: resp.ContentLength}
	}
	return resp, nil
}

// tooLarge stands for an answer to req over limit.
type tooLarge struct {
	req   *http.Request
	limit int64
}

// response is the JSON-RPC error response that takes the place of the answer, or nil when req is
// not one call whose id can be read (a notification, a response, a batch, a GET resuming a
// stream): then the answer fails as it did before, and the SDK ends the session. The SDK's
// Streamable client POSTs one message per request, from bytes it can read again (GetBody); the
// request, the gateway's own (an agent's arguments and the envelope, bounded by MaxRequestBytes),
// is read only here, so an answer within the limit costs nothing.
func (t tooLarge) response() []byte { return t.failure(answerTooLargeError{t.limit}) }

// failure is, like response, the JSON-RPC error response to req's call, saying err.
func (t tooLarge) failure(cause error) []byte {
	if t.req.GetBody == nil {
		return nil
	}
	body, err := t.req.GetBody()
	if err != nil {
		return nil
	}
	defer func() { _ = body.Close() }()
	data, err := io.ReadAll(body)
	if err != nil {
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(data)
	call, ok := msg.(*jsonrpc.Request)
	if err != nil || !ok || !call.IsCall() {
		return nil
	}
	out, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: call.ID,
		Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: cause.Error()}})
	if err != nil {
		return nil
	}
	return out
}

// limitedBody is a body that is not an event stream. One whose Content-Length is within the limit
// is passed on as it comes (net/http delivers no byte past a Content-Length), and one whose
// Content-Length is over it is replaced unread. One of no stated length (chunked) is read up to
// one byte over the limit before the SDK sees any of it, so that one over the limit can still be
// replaced: that body is held twice, here and in the SDK, which reads it whole.
type limitedBody struct {
	upstream io.ReadCloser
	over     tooLarge
	length   int64     // the answer's Content-Length; -1 when it has none
	r        io.Reader // what the SDK reads, chosen on its first Read
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.r == nil {
		b.r = b.bounded()
	}
	return b.r.Read(p)
}

func (b *limitedBody) bounded() io.Reader {
	share := answerShareOf(b.over.req.Context())
	if b.length >= 0 && b.length <= b.over.limit {
		if share != nil && b.length > freeAnswerBytes {
			if err := share.take(b.over.req.Context(), b.length); err != nil {
				return b.instead(err)
			}
		}
		return b.upstream
	}
	if b.length < 0 {
		data, err := b.readChunked(share)
		switch {
		case errors.Is(err, errNoBudget):
			return b.instead(err)
		case err != nil:
			return failedReader{err}
		case int64(len(data)) <= b.over.limit:
			return bytes.NewReader(data)
		}
	}
	return b.instead(answerTooLargeError{b.over.limit})
}

// instead is what the SDK reads in place of the answer, which is not read on: the JSON-RPC error
// response to the call, saying err, or err itself when there is no call to answer.
func (b *limitedBody) instead(err error) io.Reader {
	_ = b.upstream.Close() // the rest is never read
	if resp := b.over.failure(err); resp != nil {
		return bytes.NewReader(resp)
	}
	return failedReader{err}
}

// errNoBudget marks an answer the gateway's budget for answers held at once did not take in time.
var errNoBudget = errors.New("no budget")

// readChunked reads an answer of no stated length, up to one byte over the limit: with share,
// freeAnswerBytes of it first, and the rest only once share has taken the most it may be, giving
// back what it was not.
func (b *limitedBody) readChunked(share *answerShare) ([]byte, error) {
	if share == nil {
		return io.ReadAll(io.LimitReader(b.upstream, b.over.limit+1))
	}
	first := min(freeAnswerBytes, b.over.limit) + 1
	data, err := io.ReadAll(io.LimitReader(b.upstream, first))
	if err != nil || int64(len(data)) < first {
		return data, err
	}
	if err := share.take(b.over.req.Context(), b.over.limit); err != nil {
		return nil, fmt.Errorf("%w: %w", errNoBudget, err)
	}
	buf := bytes.NewBuffer(data)
	_, err = buf.ReadFrom(io.LimitReader(b.upstream, b.over.limit+1-int64(len(data))))
	if n := int64(buf.Len()); n <= b.over.limit {
		share.trim(n)
	} else {
		share.trim(0) // replaced by a few bytes
	}
	return buf.Bytes(), err
}

func (b *limitedBody) Close() error { return b.upstream.Close() }

type failedReader struct{ err error }

func (f failedReader) Read([]byte) (int, error) { return 0, f.err }

// limitedEvents is a successful event stream, passed on event by event. Each event is read whole,
// up to the limit, and passed on unchanged; in place of one over the limit comes one event
// carrying the JSON-RPC error response to the call, and the stream ends.
//
// An event is counted as the SDK counts it for its own bound (StreamableClientTransport.MaxEventSize,
// set to the same limit): every byte of its lines, line ends and the blank line that ends it
// included. So every event passed on is within the SDK's bound, and a stream over the limit that
// the gateway cannot answer for (response is nil) is passed on as it is from there, for the SDK's
// bound to end the session as before.
type limitedEvents struct {
	upstream io.ReadCloser
	lines    *bufio.Reader // over upstream
	over     tooLarge
	event    []byte // the event read last
	out      []byte // what is left to pass on of event
	err      error  // once the stream has ended: io.EOF, or how it failed
	raw      bool   // over the limit with no call to answer: the rest is passed on as it is
	taken    bool   // the stream's share of the budget for answers held at once is taken
	giveBack bool   // the event passed on last took the share, and was no answer: give it back
	took     bool   // the event being read took the share
}

func (s *limitedEvents) Read(p []byte) (int, error) {
	for len(s.out) == 0 {
		switch {
		case s.err != nil:
			return 0, s.err
		case s.raw:
			return s.lines.Read(p)
		}
		s.next()
	}
	n := copy(p, s.out)
	s.out = s.out[n:]
	return n, nil
}

// next reads the next event into s.out, or ends the stream. Lines end at "\n", and a line that is
// empty but for "\r" and "\n" ends an event, as in the SDK.
func (s *limitedEvents) next() {
	s.giveBackShare()
	s.event, s.took = s.event[:0], false
	line := 0 // where the line being read starts in s.event
	for {
		frag, err := s.lines.ReadSlice('\n')
		if int64(len(s.event)+len(frag)) > s.over.limit {
			s.overLimit(frag, err)
			return
		}
		if !s.taken && len(s.event)+len(frag) > freeAnswerBytes {
			if !s.takeBudget() {
				return
			}
		}
		s.event = append(s.event, frag...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull): // the line goes on
			continue
		case err != nil: // the stream ended: what was read of the event, then how it ended
			s.out, s.err = s.event, err
			return
		case len(bytes.TrimRight(s.event[line:], "\r\n")) == 0:
			s.out = s.event
			// Only the event that took the share gives it back: an earlier one that took it may
			// have been an answer (another call's, on this stream), held until its call ends.
			s.giveBack = s.took && eventIsNoAnswer(s.event)
			return
		}
		line = len(s.event)
	}
}

// overLimit passes on, in place of the event over the limit (whose next fragment frag was read
// with err), the error response to the call and ends the stream, or, when there is no call to
// answer, the event as it is.
func (s *limitedEvents) overLimit(frag []byte, err error) {
	if resp := s.over.response(); resp != nil {
		_ = s.upstream.Close() // the rest is never read
		s.out, s.err = fmt.Appendf(s.event[:0], "event: message\ndata: %s\n\n", resp), io.EOF
		return
	}
	s.out, s.raw = append(s.event, frag...), true
	if !errors.Is(err, bufio.ErrBufferFull) {
		s.err = err
	}
}

// takeBudget takes, when an event of the stream is over freeAnswerBytes and the stream holds no
// share, the most one event may be from the budget for answers held at once: until the call ends,
// or until the next event when this one is no answer (giveBackShare). When it cannot,
// the error response to the call takes the event's place and the stream ends (or, with no call to
// answer, the stream fails).
func (s *limitedEvents) takeBudget() bool {
	share := answerShareOf(s.over.req.Context())
	if share == nil {
		s.taken = true // the ToolServer's own answer, not an agent's call
		return true
	}
	err := share.take(s.over.req.Context(), s.over.limit)
	if err == nil {
		s.taken, s.took = true, true
		return true
	}
	_ = s.upstream.Close()
	if resp := s.over.failure(err); resp != nil {
		s.out, s.err = fmt.Appendf(s.event[:0], "event: message\ndata: %s\n\n", resp), io.EOF
	} else {
		s.out, s.err = nil, err
	}
	return false
}

// giveBackShare gives the stream's share back when the event passed on last was no answer (a
// progress notification over freeAnswerBytes, say): the SDK has read it by the time it asks for
// the next event, and keeps none of it once handled, so a long call's large notifications do
// not hold the budget, and keep other agents' answers waiting, for the rest of the call. The
// next large event takes its share again. (Until the SDK has handled it, its decoded copy may
// still wait in the SDK's queue: for a moment, up to about one event's worth per stream beyond
// the budget.)
func (s *limitedEvents) giveBackShare() {
	if !s.giveBack {
		return
	}
	s.giveBack, s.taken = false, false
	if share := answerShareOf(s.over.req.Context()); share != nil {
		share.trim(0)
	}
	// The memory the share stood for goes with it: the event's buffer, grown past what an event
	// may hold without a share, is not kept for the next events of a long call.
	if cap(s.event) > freeAnswerBytes {
		s.event = nil
	}
}

func (s *limitedEvents) Close() error { return s.upstream.Close() }
