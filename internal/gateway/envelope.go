package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxBatchMessages bounds the messages of a JSON-RPC batch. Every bound on a caller's requests
// (its share of the requests served at once, fair_share.go) counts a batch as one request, while
// the SDK serves each of its messages: unbounded, one body of a thousand tools/list took seconds
// of the gateway's CPU. As many as the calls a caller may have in flight by default
// (DefaultMaxCallsPerCaller); clients batch a few messages, if any (protocol 2025-06-18 removed
// batches).
const MaxBatchMessages = 64

// maxEnvelopeDepth is how deep a message's objects and arrays may nest: the SDK's own bound
// (its internal/json refuses deeper input), so that nothing it would take is refused for depth.
const maxEnvelopeDepth = 1000

// wellFormed refuses, before the SDK reads it and so before anything is created or sent, a POST
// body that is not exactly one JSON-RPC message (an object), or one batch array of them, as
// checkEnvelope decides: the SDK decodes the first JSON value of a body and ignores what follows,
// takes the last of a repeated key, and answers a call under its id as it decoded it (a number
// through a float64 into an int64). Each of those lets the gateway run something other than what
// the body says to a reader that decodes it otherwise (a proxy or log in front that takes a
// repeated key's first value sees a tools/list where a tools/call runs), or answer a call the
// agent cannot match to its request after it has run and been charged. The refusal is HTTP 400
// with a JSON-RPC error (id null: the request's id is what could not be read) saying what is
// wrong. The body is read once here, bounded as the SDK bounds it, and handed on as read.
func wellFormed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		isJSON, charset := jsonContent(r.Header.Get("Content-Type"))
		if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody || !isJSON {
			next.ServeHTTP(w, r) // the SDK refuses it, unread (405, 415), or it has nothing to read
			return
		}
		if n := len(r.Header.Values("Content-Type")); n > 1 {
			// The SDK and the charset check read the first; a proxy or log in front may take the
			// last (or join them) and honour a charset the gateway never saw.
			http.Error(w, fmt.Sprintf("Content-Type given %d times: send it once", n), http.StatusUnsupportedMediaType)
			return
		}
		if name, n := repeatedMCPHeader(r.Header); n > 1 {
			// The SDK reads the first of each (and serves by the version: a batch only before
			// 2025-06-18; checks Mcp-Method, Mcp-Name and Mcp-Param-* against the body from
			// 2026-07-28 on, which proxies route and authorize by); a proxy or log in front that
			// reads the last judged another version, method or tool than the one run.
			http.Error(w, fmt.Sprintf("%s given %d times: send it once", name, n), http.StatusBadRequest)
			return
		}
		if coding := contentCoding(r.Header.Values("Content-Encoding")); coding != "" {
			// Neither the SDK nor this check decodes a content coding: the body would be run as
			// the bytes it is, while a proxy or log in front that honours the header reads the
			// body it decodes. RFC 9110 (8.4.1): a coding the server does not apply is 415.
			http.Error(w, fmt.Sprintf("Content-Encoding %q: the gateway decodes no content coding; send the body "+
				"as it is (identity)", coding), http.StatusUnsupportedMediaType)
			return
		}
		if charset != "" && !utf8Labels[strings.ToLower(strings.TrimSpace(charset))] {
			// The SDK reads every body as UTF-8 whatever the header says; a proxy or log in front
			// that honours the charset would read other strings than the gateway judges.
			http.Error(w, fmt.Sprintf("Content-Type charset %q: MCP messages are JSON, which is UTF-8 (RFC 8259); "+
				"send charset=utf-8 or no charset", charset), http.StatusUnsupportedMediaType)
			return
		}
		buf := bodyBuffers.Get().(*[]byte)
		defer bodyBuffers.Put(buf) // the SDK copies the body as it reads it (io.ReadAll): nothing keeps buf
		body, err := readBody(http.MaxBytesReader(w, r.Body, MaxRequestBytes), (*buf)[:0], r.ContentLength)
		*buf = body[:0]
		if err != nil {
			if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok { // as the SDK answers it
				http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, fmt.Sprintf("failed to read body: %v", err), http.StatusBadRequest)
			return
		}
		if err := checkEnvelope(body); err != nil {
			refuseEnvelope(w, err)
			return
		}
		if id, err := headersAgree(r.Header, body); err != nil {
			refuseHeaders(w, id, err)
			return
		}
		back := &readBack{}
		back.Reset(body)
		r.Body = back
		next.ServeHTTP(w, r)
	})
}

// utf8Labels are the names a decoder takes for UTF-8 (the WHATWG Encoding Standard's labels, which
// browsers, Node's TextDecoder and most proxies use, and IANA's csUTF8), in lower case: a client
// that writes one of them means what the gateway reads.
var utf8Labels = map[string]bool{"utf-8": true, "utf8": true, "unicode-1-1-utf-8": true, "unicode11utf8": true,
	"unicode20utf8": true, "x-unicode20utf8": true, "csutf8": true}

// repeatedMCPHeader is an MCP header (Mcp-*: the protocol version, session, method, name and
// parameters) that h holds more than once, and how many times; "", 0 when there is none.
func repeatedMCPHeader(h http.Header) (string, int) {
	for name, values := range h { // canonical names: "MCP-NAME" is "Mcp-Name"
		if len(values) > 1 && strings.HasPrefix(name, "Mcp-") {
			return name, len(values)
		}
	}
	return "", 0
}

// Headers of protocol 2026-07-28 that repeat a request's method and the name (tool, prompt or
// resource URI) it acts on, so that a proxy can route and authorize it unread.
const (
	methodHeader = "Mcp-Method"
	nameHeader   = "Mcp-Name"
)

// headersAgree refuses a request whose Mcp-Method or Mcp-Name says other than its body (one
// well-formed message, or a batch: checkEnvelope), or that names them with a batch, which holds
// several; id is the message's id, to answer under (null for a batch). The SDK checks them only
// under protocol 2026-07-28 and only for one message; under an earlier version (or none) a header
// naming one tool over a body calling another went unchecked, while a proxy in front that routes
// or authorizes by the header judged the tool it named. Only a request that carries one is
// decoded here.
func headersAgree(h http.Header, body []byte) (id json.RawMessage, _ error) {
	method, name := h.Get(methodHeader), h.Get(nameHeader)
	if method == "" && name == "" {
		return nil, nil
	}
	// Decoded into maps, whose keys match exactly, as the SDK matches them. A batch (an array)
	// does not decode into one, nor does a message without a method a string.
	fields, params := map[string]json.RawMessage{}, map[string]json.RawMessage{}
	var inMethod, inName string
	if json.Unmarshal(body, &fields) != nil || json.Unmarshal(fields["method"], &inMethod) != nil {
		return fields["id"], fmt.Errorf("%s or %s names one request's method and name; this body is a batch, or names no method",
			methodHeader, nameHeader)
	}
	if method != "" && method != inMethod {
		return fields["id"], fmt.Errorf("%s says %q, the body's method is %q", methodHeader, method, inMethod)
	}
	if name == "" {
		return nil, nil
	}
	key := "name" // of tools/call and prompts/get
	if inMethod == "resources/read" {
		key = "uri"
	}
	named := inMethod == "tools/call" || inMethod == "prompts/get" || inMethod == "resources/read"
	if !named || json.Unmarshal(fields["params"], &params) != nil || json.Unmarshal(params[key], &inName) != nil ||
		inName != name {
		return fields["id"], fmt.Errorf("%s says %q, which is not what the body's %s acts on", nameHeader, name, inMethod)
	}
	return nil, nil
}

// refuseHeaders answers headersAgree's refusal, under the request's id (checkEnvelope took it:
// a string, an integer or null), as the SDK answers its own check of the headers: HTTP 400 with
// JSON-RPC error mcp.CodeHeaderMismatch, which a client takes as its call's error, keeping its
// session (a plain-text 400 made the Go SDK's client close it).
func refuseHeaders(w http.ResponseWriter, id json.RawMessage, err error) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	answer, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: &jsonrpc.Error{Code: mcp.CodeHeaderMismatch, Message: err.Error()}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(answer)
}

// contentCoding is the first content coding of a request's Content-Encoding values (a list, and
// the header may come more than once) other than identity, which is no coding; "" when none.
func contentCoding(values []string) string {
	for _, v := range values {
		for c := range strings.SplitSeq(v, ",") {
			if c = strings.TrimSpace(c); c != "" && !strings.EqualFold(c, "identity") {
				return c
			}
		}
	}
	return ""
}

// bodyBuffers hold request bodies while they are checked and read again by the SDK.
var bodyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

// readBack is a body already read, read again.
type readBack struct{ bytes.Reader }

func (*readBack) Close() error { return nil }

// jsonContent says whether the SDK takes a request of this Content-Type for JSON (what it does
// not, it refuses unread: 415), and the charset the type names ("" for none).
func jsonContent(ct string) (isJSON bool, charset string) {
	if ct == "application/json" {
		return true, ""
	}
	mt, params, err := mime.ParseMediaType(ct) // the SDK's test (baseMediaType)
	return err == nil && mt == "application/json", params["charset"]
}

// readBody reads r to its end into buf, sized by the length the request declares when it has one.
func readBody(r io.Reader, buf []byte, declared int64) ([]byte, error) {
	if declared > 0 && declared <= MaxRequestBytes && int64(cap(buf)) < declared+1 {
		buf = make([]byte, 0, declared+1) // +1: the read that finds the end
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// envelopeError is a body checkEnvelope refuses: the JSON-RPC code of the refusal and why.
type envelopeError struct {
	code int64
	msg  string
	// located says the error is a place's (a repeated key), which in and batch say: the keys and
	// indexes from the message to it, filled in as the walk unwinds, and the message's index in
	// its batch (-1: the body is one message).
	located bool
	in      []string
	batch   int
}

func (e *envelopeError) Error() string {
	if !e.located {
		return e.msg
	}
	where := "the message"
	if e.batch >= 0 {
		where = fmt.Sprintf("message %d of the batch", e.batch)
	}
	if len(e.in) > 0 {
		where += ", at " + strings.Join(e.in, ".")
	}
	return e.msg + " in " + where
}

// repeatedKey is the refusal of an object that names key twice.
func repeatedKey(key, other string) *envelopeError {
	msg := fmt.Sprintf("key %q is named twice (decoders disagree on which one counts)", key)
	if key != other {
		msg = fmt.Sprintf("keys %q and %q differ only in case (decoders disagree on whether they are one, "+
			"and on which one counts)", other, key)
	}
	return &envelopeError{code: jsonrpc.CodeInvalidRequest, located: true, batch: -1, msg: msg}
}

// within prefixes where err is with step, when err is a place's.
func within(err error, step func() string) error {
	if e, ok := errors.AsType[*envelopeError](err); ok && e.located {
		e.in = append([]string{step()}, e.in...)
	}
	return err
}

func parseError(format string, args ...any) *envelopeError {
	return &envelopeError{code: jsonrpc.CodeParseError, msg: "the body is not one JSON value: " + fmt.Sprintf(format, args...)}
}

func invalidRequest(format string, args ...any) *envelopeError {
	return &envelopeError{code: jsonrpc.CodeInvalidRequest, msg: fmt.Sprintf(format, args...)}
}

// refuseEnvelope answers a body checkEnvelope refused.
func refuseEnvelope(w http.ResponseWriter, err error) {
	e, ok := errors.AsType[*envelopeError](err)
	if !ok {
		e = &envelopeError{code: jsonrpc.CodeInvalidRequest, msg: err.Error()}
	}
	answer, _ := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      *struct{}      `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{JSONRPC: "2.0", Error: &jsonrpc.Error{Code: e.code, Message: e.Error()}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(answer)
}

// checkEnvelope says whether body is exactly one JSON-RPC message, or one batch array of them
// (which the SDK refuses itself under protocol versions that have no batches), that every
// decoder reads alike and the SDK can answer as sent; an *envelopeError saying what is wrong
// when it is not:
//   - UTF-8 throughout, as JSON text is (-32700 otherwise);
//   - one JSON value, nothing after it but space (-32700 otherwise);
//   - an object, or a non-empty array of objects (-32600 otherwise);
//   - no object anywhere in it, the envelope, params and arguments alike, naming a key twice (as
//     decoded: "m\u0065thod" is "method"), or two keys that differ only in case ("Method"), since
//     decoders take either one (-32600);
//   - each message's id a string, null, or an integer the SDK carries back exactly: it decodes a
//     number into a float64 and answers under its int64, so 1.5 was answered as 1, an integer
//     beyond int64 as -9223372036854775808 and one beyond 2^53 as its float's neighbour (-32600);
//   - no message that names a method and carries a result or an error, a request and an answer at
//     once (message.requestOrAnswer; -32600);
//   - no two calls of a batch under one id (the SDK answered only one of them; -32600).
//
// One pass over the bytes, allocating nothing for a body whose objects have at most 16 keys,
// none escaped.
func checkEnvelope(body []byte) error {
	if !utf8.Valid(body) {
		// Decoders differ on what such bytes are (Go's reads U+FFFD, a Latin-1 reader a letter).
		return parseError("its bytes are not UTF-8, which JSON text is (RFC 8259): byte %d starts no UTF-8 character",
			firstInvalidUTF8(body))
	}
	s := envelopeScan{b: body}
	s.space()
	switch {
	case s.i == len(s.b):
		return parseError("it is empty")
	case s.b[s.i] == '[':
		if err := s.batch(); err != nil {
			return err
		}
	case s.b[s.i] == '{':
		var m message
		if err := s.object(1, &m); err != nil {
			return err
		}
		if err := m.requestOrAnswer("the message "); err != nil {
			return err
		}
	default:
		if err := s.value(1); err != nil {
			return err
		}
		return invalidRequest("the body is no JSON-RPC message: not an object, nor a batch array of them")
	}
	s.space()
	if s.i != len(s.b) {
		return parseError("text follows it at byte %d", s.i)
	}
	return nil
}

// firstInvalidUTF8 is the offset of the first byte of b that starts no valid UTF-8 sequence.
func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// envelopeScan walks a body's bytes.
type envelopeScan struct {
	b []byte
	i int
	// decoded are the keys that are not as written (newKey).
	decoded []string
}

// message is what checkEnvelope learns of a message: whether it names a method (a call or a
// notification), whether it carries a result or an error (an answer), and its id, if any.
type message struct {
	method bool
	answer bool
	id     idValue
}

// requestOrAnswer refuses a message that is a request (or notification) and an answer at once,
// which JSON-RPC 2.0 has be one or the other: the SDK runs it as a call, while a reader in front
// that tells an answer by its result or error (the TypeScript SDK's schemas, a proxy passing a
// client's answers through) sees no call at all. which names the message ("" for the body's one).
func (m *message) requestOrAnswer(which string) error {
	if m.method && m.answer {
		return invalidRequest("%snames a method and carries a result or an error: a message is a request "+
			"or an answer, never both", which)
	}
	return nil
}

// idValue is a message's id as the SDK takes it: none (absent or null), a string (its bytes as
// written, between the quotes), or an integer.
type idValue struct {
	kind  byte // 0 none, 's' string, 'n' integer
	plain bool // a string without escapes or invalid UTF-8: its bytes are what it decodes to
	str   []byte
	n     int64
}

func (s *envelopeScan) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *envelopeScan) expected(what string) *envelopeError {
	if s.i >= len(s.b) {
		return parseError("it ends where %s was expected", what)
	}
	return parseError("%s expected at byte %d, found %q", what, s.i, s.b[s.i])
}

// batch reads a batch array: messages, calls under distinct ids.
func (s *envelopeScan) batch() error {
	s.i++ // '['
	var ids callIDs
	s.space()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		return invalidRequest("the batch is empty")
	}
	for n := 0; ; n++ {
		if n == MaxBatchMessages {
			return invalidRequest("the batch holds more than %d messages, the most the gateway serves in one request; "+
				"send them in several", MaxBatchMessages)
		}
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != '{' {
			if s.i < len(s.b) {
				if err := s.value(2); err != nil {
					return err
				}
			}
			return invalidRequest("message %d of the batch is no JSON-RPC message (an object)", n)
		}
		var m message
		if err := s.object(2, &m); err != nil {
			if e, ok := errors.AsType[*envelopeError](err); ok && e.located {
				e.batch = n
			}
			return err
		}
		if err := m.requestOrAnswer(fmt.Sprintf("message %d of the batch ", n)); err != nil {
			return err
		}
		if m.method && m.id.kind != 0 && ids.repeated(m.id) {
			return invalidRequest("two calls of the batch share the id %s: an answer names its call by the id "+
				"alone, so the agent could not tell their answers apart (the SDK answered one of them); "+
				"give each call its own id", m.id)
		}
		if more, err := s.next(']'); !more {
			return err
		}
	}
}

// callIDs are the ids of a batch's calls so far.
type callIDs struct {
	small [16]idValue
	n     int
	many  map[string]struct{} // past 16 calls, by kind and value
}

// repeated says whether id is one of ids, and adds it.
func (ids *callIDs) repeated(id idValue) bool {
	if ids.many == nil && ids.n < len(ids.small) {
		for _, o := range ids.small[:ids.n] {
			if o.same(id) {
				return true
			}
		}
		ids.small[ids.n] = id
		ids.n++
		return false
	}
	if ids.many == nil {
		ids.many = make(map[string]struct{}, 2*ids.n)
		for _, o := range ids.small[:ids.n] {
			ids.many[o.mapKey()] = struct{}{}
		}
	}
	k := id.mapKey()
	_, seen := ids.many[k]
	ids.many[k] = struct{}{}
	return seen
}

// next reads what follows a member of an object or an element of an array: a comma (more), or
// its closing.
func (s *envelopeScan) next(closing byte) (more bool, err error) {
	s.space()
	switch {
	case s.i < len(s.b) && s.b[s.i] == ',':
		s.i++
		return true, nil
	case s.i < len(s.b) && s.b[s.i] == closing:
		s.i++
		return false, nil
	}
	return false, s.expected(fmt.Sprintf("',' or '%c'", closing))
}

// value reads one JSON value at depth.
func (s *envelopeScan) value(depth int) error {
	if s.i >= len(s.b) {
		return s.expected("a value")
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object(depth+1, nil)
	case c == '[':
		return s.array(depth + 1)
	case c == '"':
		_, _, err := s.str()
		return err
	case c == '-' || c >= '0' && c <= '9':
		_, err := s.number()
		return err
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return s.expected("a value")
}

func (s *envelopeScan) literal(word string) error {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return s.expected("a value")
	}
	s.i += len(word)
	return nil
}

func (s *envelopeScan) array(depth int) error {
	if depth > maxEnvelopeDepth {
		return parseError("it nests deeper than %d", maxEnvelopeDepth)
	}
	s.i++ // '['
	s.space()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return nil
	}
	for n := 0; ; n++ {
		s.space()
		if err := s.value(depth); err != nil {
			return within(err, func() string { return strconv.Itoa(n) })
		}
		if more, err := s.next(']'); !more {
			return err
		}
	}
}

// key is a member's key: where it is written in the body, between its quotes, and, when that is
// not what it decodes to (an escape, invalid UTF-8), what it decodes to, in the scan's decoded.
// Small, since each object holds 16 of them on the stack.
type key struct {
	start, end int32
	decoded    int32 // -1: the bytes are what it decodes to
}

func (s *envelopeScan) newKey(raw []byte, plain bool) key {
	start := int32(cap(s.b) - cap(raw))                               //nolint:gosec // raw is of s.b, at most MaxRequestBytes
	k := key{start: start, end: start + int32(len(raw)), decoded: -1} //nolint:gosec // as above
	if !plain {
		k.decoded = int32(len(s.decoded)) //nolint:gosec // fewer keys than bytes
		s.decoded = append(s.decoded, decodeString(raw, false))
	}
	return k
}

// object reads an object at depth, refusing a key named twice; m, for a message (the body, or
// an element of its batch), learns its method and id.
func (s *envelopeScan) object(depth int, m *message) error {
	if depth > maxEnvelopeDepth {
		return parseError("it nests deeper than %d", maxEnvelopeDepth)
	}
	s.i++ // '{'
	var keys objectKeys
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return s.expected("a key")
		}
		raw, plain, err := s.str()
		if err != nil {
			return err
		}
		k := s.newKey(raw, plain)
		if other, repeated := keys.repeated(s, k); repeated {
			return repeatedKey(s.key(k), other)
		}
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return s.expected("':'")
		}
		s.i++
		s.space()
		switch {
		case m != nil && s.keyIs(k, "id"):
			err = s.id(&m.id)
		case m != nil && s.keyIs(k, "method"):
			m.method = true
			err = s.value(depth)
		case m != nil && (s.keyIs(k, "result") || s.keyIs(k, "error")):
			m.answer = true
			err = s.value(depth)
		default:
			err = s.value(depth)
		}
		if err != nil {
			return within(err, func() string { return s.key(k) })
		}
		if more, err := s.next('}'); !more {
			return err
		}
	}
}

// objectKeys are the keys of an object so far: 16 on the stack, compared one by one, and past
// them a map of them all by their folded form (an object of many keys costs no more than a map).
type objectKeys struct {
	small [16]key
	n     int
	many  map[string]string // folded: as decoded
}

// repeated says whether k is one of keys, or differs from one only in case, and which one; and
// adds it. Case counts because Go's encoding/json matches a key to a struct's field regardless
// of case (and takes the last of "method" and "Method" where the SDK takes "method"), as the
// project refuses such keys in a call's arguments (argrules).
func (keys *objectKeys) repeated(s *envelopeScan, k key) (string, bool) {
	if keys.many == nil && keys.n < len(keys.small) {
		for _, o := range keys.small[:keys.n] {
			if s.alike(o, k) {
				return s.key(o), true
			}
		}
		keys.small[keys.n] = k
		keys.n++
		return "", false
	}
	if keys.many == nil {
		keys.many = make(map[string]string, 2*keys.n)
		for _, o := range keys.small[:keys.n] {
			d := s.key(o)
			keys.many[foldKey(d)] = d
		}
	}
	d := s.key(k)
	f := foldKey(d)
	if other, seen := keys.many[f]; seen {
		return other, true
	}
	keys.many[f] = d
	return "", false
}

// foldKey is the form keys that differ only in case share, as alike (strings.EqualFold) and Go's
// encoding/json see case: simple folding, each rune as the least of its fold
// set, so "ß" and "ss" stay two keys past 16 as they are within them.
func foldKey(key string) string {
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			return strings.Map(leastOfFoldSet, key)
		}
	}
	return strings.ToUpper(key) // in ASCII, a letter's capital is the least of its fold set
}

// leastOfFoldSet is the least rune that folds to r.
func leastOfFoldSet(r rune) rune {
	for {
		next := unicode.SimpleFold(r)
		if next <= r {
			return next
		}
		r = next
	}
}

// id reads a message's id into v: a string, null, or an integer the SDK carries back exactly.
func (s *envelopeScan) id(v *idValue) error {
	if s.i >= len(s.b) {
		return s.expected("an id")
	}
	switch c := s.b[s.i]; {
	case c == '"':
		raw, plain, err := s.str()
		*v = idValue{kind: 's', str: raw, plain: plain}
		return err
	case c == 'n':
		*v = idValue{}
		return s.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		lit, err := s.number()
		if err != nil {
			return err
		}
		n, ok := exactInteger(lit)
		if !ok {
			if len(lit) > 40 { // it is the agent's, up to the body's size
				lit = append(lit[:40:40], "…"...)
			}
			return invalidRequest("the id %s cannot be answered as sent (the gateway answers a number id as a "+
				"64-bit integer, exactly only up to 2^53): send an integer id within that, or a string", lit)
		}
		*v = idValue{kind: 'n', n: n}
		return nil
	}
	if err := s.value(2); err != nil {
		return err
	}
	return invalidRequest("an id is a string or an integer")
}

// str reads a string, checking its escapes, and returns its bytes between the quotes, and
// whether they are what it decodes to (no escape, valid UTF-8).
func (s *envelopeScan) str() ([]byte, bool, error) {
	start := s.i + 1
	plain, ascii := true, true
	for i := start; i < len(s.b); i++ {
		switch c := s.b[i]; {
		case c == '"':
			s.i = i + 1
			raw := s.b[start:i]
			if !ascii && plain {
				plain = utf8.Valid(raw)
			}
			return raw, plain, nil
		case c == '\\':
			plain = false
			i++
			if i >= len(s.b) {
				break
			}
			switch s.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(s.b) || !hex4(s.b[i+1:i+5]) {
					s.i = i
					return nil, false, parseError("a \\u escape of four hex digits expected at byte %d", i)
				}
				i += 4
			default:
				s.i = i
				return nil, false, parseError("invalid escape at byte %d", i)
			}
		case c < 0x20:
			s.i = i
			return nil, false, parseError("a control character in a string at byte %d", i)
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	s.i = len(s.b)
	return nil, false, parseError("a string is not closed")
}

func hex4(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c|0x20 < 'a' || c|0x20 > 'f') {
			return false
		}
	}
	return true
}

// number reads a number by JSON's grammar and returns it as written.
func (s *envelopeScan) number() ([]byte, error) {
	start, i := s.i, s.i
	digits := func() int {
		n := 0
		for i < len(s.b) && s.b[i] >= '0' && s.b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if s.b[i] == '-' {
		i++
	}
	switch {
	case i < len(s.b) && s.b[i] == '0':
		i++
	case digits() == 0:
		s.i = i
		return nil, s.expected("a digit")
	}
	if i < len(s.b) && s.b[i] == '.' {
		i++
		if digits() == 0 {
			s.i = i
			return nil, s.expected("a digit")
		}
	}
	if i < len(s.b) && (s.b[i] == 'e' || s.b[i] == 'E') {
		i++
		if i < len(s.b) && (s.b[i] == '+' || s.b[i] == '-') {
			i++
		}
		if digits() == 0 {
			s.i = i
			return nil, s.expected("a digit")
		}
	}
	s.i = i
	return s.b[start:i], nil
}

// exactInteger is the value of lit, a JSON number, when it is an integer that the SDK's decoding
// (a float64, then an int64) keeps exactly: 1, -7, 1.0 and 1e3 are; 1.5, 1e-3, 2^63 and
// 2^53+1 are not.
func exactInteger(lit []byte) (int64, bool) {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	mantissa, exp := lit, []byte(nil)
	if i := bytes.IndexAny(lit, "eE"); i >= 0 {
		mantissa, exp = lit[:i], lit[i+1:]
	}
	u, digits, scale, ok := significand(mantissa)
	switch {
	case !ok:
		return 0, false
	case digits == 0:
		return 0, true // zero, however written
	}
	scale += exponent(exp)
	if scale < 0 || digits+scale > 19 {
		return 0, false // a fraction, or 10^19 or more
	}
	for ; scale > 0; scale-- {
		u *= 10 // at most 19 digits: below 10^19, within a uint64
	}
	var v int64
	switch {
	case !neg && u <= math.MaxInt64:
		v = int64(u)
	case neg && u <= 1<<63:
		v = int64(-u) //nolint:gosec // u ≤ 2^63: its negation is an int64
	default:
		return 0, false
	}
	if f := float64(v); f >= 1<<63 || int64(f) != v {
		return 0, false // the float64 the SDK decodes it to is another integer
	}
	return v, true
}

// significand is the integer of a number's significant digits (digits of them, without its
// leading and trailing zeros), and the power of ten it is multiplied by; not ok past 19 digits.
func significand(mantissa []byte) (u uint64, digits, scale int, ok bool) {
	fraction, zeros := 0, 0 // digits after the point; zeros not yet taken (trailing, so far)
	seenDot := false
	for _, c := range mantissa {
		switch {
		case c == '.':
			seenDot = true
			continue
		case seenDot:
			fraction++
		}
		switch {
		case c == '0' && digits == 0: // a leading zero
		case c == '0':
			zeros++
		default:
			if digits+zeros+1 > 19 {
				return 0, 0, 0, false
			}
			for ; zeros > 0; zeros-- {
				u *= 10
				digits++
			}
			u = u*10 + uint64(c-'0')
			digits++
		}
	}
	return u, digits, zeros - fraction, true
}

// exponent is the value of a number's exponent digits (after its 'e'), 0 without one; bounded,
// as a larger one makes any non-zero number too large or a fraction alike.
func exponent(exp []byte) int {
	if len(exp) == 0 {
		return 0
	}
	sign := 1
	switch exp[0] {
	case '-':
		sign, exp = -1, exp[1:]
	case '+':
		exp = exp[1:]
	}
	e := 0
	for _, c := range exp {
		if e < 1<<20 {
			e = e*10 + int(c-'0')
		}
	}
	return sign * e
}

// key is what k decodes to.
func (s *envelopeScan) key(k key) string {
	if k.decoded < 0 {
		return string(s.b[k.start:k.end])
	}
	return s.decoded[k.decoded]
}

func decodeString(raw []byte, plain bool) string {
	if plain {
		return string(raw)
	}
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	var d string
	_ = json.Unmarshal(quoted, &d) // checked by str; invalid UTF-8 and lone surrogates become U+FFFD
	return d
}

// keyIs says whether k decodes to name.
func (s *envelopeScan) keyIs(k key, name string) bool {
	if k.decoded < 0 {
		return string(s.b[k.start:k.end]) == name
	}
	return s.decoded[k.decoded] == name
}

// alike says whether two keys decode alike but for case.
func (s *envelopeScan) alike(k, o key) bool {
	switch {
	case k.decoded < 0 && o.decoded < 0:
		return bytes.EqualFold(s.b[k.start:k.end], s.b[o.start:o.end])
	case k.decoded < 0:
		return strings.EqualFold(string(s.b[k.start:k.end]), s.decoded[o.decoded])
	case o.decoded < 0:
		return strings.EqualFold(s.decoded[k.decoded], string(s.b[o.start:o.end]))
	}
	return strings.EqualFold(s.decoded[k.decoded], s.decoded[o.decoded])
}

// same says whether the SDK takes two ids for one.
func (v idValue) same(o idValue) bool {
	switch {
	case v.kind != o.kind:
		return false
	case v.kind == 'n':
		return v.n == o.n
	case v.plain && o.plain:
		return bytes.Equal(v.str, o.str)
	}
	return decodeString(v.str, v.plain) == decodeString(o.str, o.plain)
}

// mapKey is v as a key of a map of ids: its kind and value.
func (v idValue) mapKey() string {
	if v.kind == 'n' {
		return "n" + strconv.FormatInt(v.n, 10)
	}
	return "s" + decodeString(v.str, v.plain)
}

func (v idValue) String() string {
	if v.kind == 'n' {
		return strconv.FormatInt(v.n, 10)
	}
	return strconv.Quote(decodeString(v.str, v.plain))
}
