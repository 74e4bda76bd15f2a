package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const callBody = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_file",` +
	`"arguments":{"path":"notes.txt","options":{"encoding":"utf8","lines":[1,2,3]}},"_meta":{"progressToken":"p-1"}}}`

// TestCheckEnvelope: what every decoder reads alike, and the SDK answers as sent, goes on; the
// rest is refused with its JSON-RPC code and a message saying what and where.
func TestCheckEnvelope(t *testing.T) {
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"t","arguments":{}}}`
	}
	for _, c := range []struct {
		name, body string
		code       int64  // 0: taken
		says       string // in the refusal's message
	}{
		{"a tools/call", callBody, 0, ""},
		{"space around it", " \n\t" + callBody + "\r\n ", 0, ""},
		{"a string id", call(`"a-1"`), 0, ""},
		{"an escaped string id", call(`"a\u002d1"`), 0, ""},
		{"a null id (a notification to the SDK)", call(`null`), 0, ""},
		{"a negative id", call(`-42`), 0, ""},
		{"the largest id a float64 keeps", call(`9007199254740992`), 0, ""},
		{"an integral id written with a fraction", call(`1.0`), 0, ""},
		{"an integral id written with an exponent", call(`1e3`), 0, ""},
		{"the least int64", call(`-9223372036854775808`), 0, ""},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, ""},
		{"the same key in two objects", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","x":{"name":"b"}}}`, 0, ""},
		{"keys alike but for a letter", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"path":"a","paths":"b"}}`, 0, ""},
		{"a batch of calls under distinct ids", "[" + call("1") + "," + call(`"1"`) + "," + call("2") + "]", 0, ""},
		{"a batch of notifications", `[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"a"}]`, 0, ""},
		{"an object of 16 keys", `{"jsonrpc":"2.0","id":1,"method":"m","params":{` + keys(16, "") + `}}`, 0, ""},
		{"a batch of MaxBatchMessages", "[" + calls(MaxBatchMessages) + "]", 0, ""},
		{"an object of 17 keys", `{"jsonrpc":"2.0","id":1,"method":"m","params":{` + keys(17, "") + `}}`, 0, ""},
		{"an object of 40 keys", `{"jsonrpc":"2.0","id":1,"method":"m","params":{` + keys(40, "") + `}}`, 0, ""},
		{"the 17th key repeats the first", `{"jsonrpc":"2.0","id":1,"method":"m","params":{` + keys(16, `,"k0":1`) + `}}`,
			jsonrpc.CodeInvalidRequest, `key "k0" is named twice`},
		{"a non-ASCII key", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"чтение":1,"чтения":2}}`, 0, ""},
		{"keys that fold alike only in full folding", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"ß":1,"ss":2}}`, 0, ""},
		{"keys that fold alike only in full folding, past 16 keys", `{"jsonrpc":"2.0","id":1,"method":"m","params":{` +
			keys(40, `,"ß":1,"ss":2,"ﬀ":3,"ff":4`) + `}}`, 0, ""},

		{"trailing text", callBody + "garbage", jsonrpc.CodeParseError, "text follows it at byte"},
		{"two messages", callBody + callBody, jsonrpc.CodeParseError, "text follows it"},
		{"an empty body", "  ", jsonrpc.CodeParseError, "empty"},
		{"cut short", callBody[:40], jsonrpc.CodeParseError, "not closed"},
		{"cut short after a value", callBody[:len(callBody)-2], jsonrpc.CodeParseError, "ends where"},
		{"a trailing comma", `{"jsonrpc":"2.0","id":1,"method":"m",}`, jsonrpc.CodeParseError, "a key expected"},
		{"a bad escape", `{"jsonrpc":"2.0","id":1,"method":"m\x"}`, jsonrpc.CodeParseError, "invalid escape"},
		{"a control character", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\n\"}", jsonrpc.CodeParseError, "control character"},
		{"a number JSON has not", `{"jsonrpc":"2.0","id":01,"method":"m"}`, jsonrpc.CodeParseError, ""},
		{"a word JSON has not", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":True}}`, jsonrpc.CodeParseError, ""},
		{"nested too deep", strings.Repeat("[", 1001) + strings.Repeat("]", 1001), jsonrpc.CodeParseError, "nests deeper"},

		{"not an object", `"tools/call"`, jsonrpc.CodeInvalidRequest, "no JSON-RPC message"},
		{"an empty batch", `[ ]`, jsonrpc.CodeInvalidRequest, "empty"},
		{"a batch of no objects", `[1]`, jsonrpc.CodeInvalidRequest, "message 0 of the batch is no JSON-RPC message"},

		{"the method twice", `{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call"}`, jsonrpc.CodeInvalidRequest,
			`key "method" is named twice (decoders disagree on which one counts) in the message`},
		{"the method twice, once escaped", `{"jsonrpc":"2.0","id":1,"method":"tools/list","m\u0065thod":"tools/call"}`,
			jsonrpc.CodeInvalidRequest, `key "method" is named twice`},
		{"the id twice", `{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}`, jsonrpc.CodeInvalidRequest, `key "id"`},

		// A call that is an answer too: the SDK ran it as a call, a reader that tells an answer by
		// its result or error saw none. An answer alone (a client's to the server) and a result
		// or error below the envelope are taken.
		{"a call carrying a result", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"},"result":{}}`,
			jsonrpc.CodeInvalidRequest, "a request or an answer, never both"},
		{"a result before the method", `{"jsonrpc":"2.0","id":1,"result":{},"method":"tools/call","params":{"name":"t"}}`,
			jsonrpc.CodeInvalidRequest, "never both"},
		{"a call carrying an error", `{"jsonrpc":"2.0","id":1,"method":"tools/call","error":{"code":1,"message":"x"}}`,
			jsonrpc.CodeInvalidRequest, "never both"},
		{"a call carrying a null result", `{"jsonrpc":"2.0","id":1,"method":"tools/call","result":null}`,
			jsonrpc.CodeInvalidRequest, "never both"},
		{"a notification carrying a result", `{"jsonrpc":"2.0","method":"notifications/initialized","result":{}}`,
			jsonrpc.CodeInvalidRequest, "never both"},
		{"an escaped result beside a method", `{"jsonrpc":"2.0","id":1,"method":"m","r\u0065sult":{}}`,
			jsonrpc.CodeInvalidRequest, "never both"},
		{"one call of a batch carrying a result", "[" + call("1") + `,{"jsonrpc":"2.0","id":2,"method":"m","result":{}}]`,
			jsonrpc.CodeInvalidRequest, "message 1 of the batch"},
		{"an answer", `{"jsonrpc":"2.0","id":1,"result":{}}`, 0, ""},
		{"an error answer", `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}`, 0, ""},
		{"a result and an error below the envelope",
			`{"jsonrpc":"2.0","id":1,"method":"m","params":{"arguments":{"result":1,"error":2}}}`, 0, ""},
		{"params twice", `{"jsonrpc":"2.0","id":1,"method":"m","params":{},"params":{}}`, jsonrpc.CodeInvalidRequest, `key "params"`},
		{"the tool's name twice", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b"}}`,
			jsonrpc.CodeInvalidRequest, `key "name" is named twice (decoders disagree on which one counts) in the message, at params`},
		{"an argument twice, deep", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"arguments":{"o":[{"p":1},{"p":1,"p":2}]}}}`,
			jsonrpc.CodeInvalidRequest, `key "p" is named twice (decoders disagree on which one counts) in the message, at params.arguments.o.1`},
		{"a _meta key twice", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"safety.toolgate.dev/step":"a","safety.toolgate.dev/step":"b"}}}`,
			jsonrpc.CodeInvalidRequest, `at params._meta`},
		{"a key twice past 16 keys", `{"jsonrpc":"2.0","id":1,"method":"m","params":{` + keys(40, `,"k3":0`) + `}}`,
			jsonrpc.CodeInvalidRequest, `key "k3" is named twice`},
		{"a key twice past 16 keys, escaped", `{"jsonrpc":"2.0","id":1,"method":"m","params":{` + keys(40, `,"\u006b39":0`) + `}}`,
			jsonrpc.CodeInvalidRequest, `key "k39" is named twice`},
		{"keys that decode alike from lone surrogates", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a\ud800":1,"a\udbff":2}}`,
			jsonrpc.CodeInvalidRequest, "is named twice"},
		{"bytes that are not UTF-8, in a key", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"a\xff\":1,\"a\xfe\":2}}",
			jsonrpc.CodeParseError, "its bytes are not UTF-8, which JSON text is (RFC 8259): byte 49 starts no UTF-8 character"},
		{"bytes that are not UTF-8, in a path (Latin-1)", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"read\",\"arguments\":{\"path\":\"caf\xe9/.env\"}}}",
			jsonrpc.CodeParseError, "not UTF-8"},
		{"a UTF-8 sequence cut short at the end", callBody[:len(callBody)-1] + "\xc3", jsonrpc.CodeParseError, "not UTF-8"},
		{"the method twice, once capitalized", `{"jsonrpc":"2.0","id":1,"method":"tools/list","Method":"tools/call"}`,
			jsonrpc.CodeInvalidRequest, `keys "method" and "Method" differ only in case`},
		{"an argument twice, once in capitals", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"arguments":{"path":"a","PATH":"b"}}}`,
			jsonrpc.CodeInvalidRequest, `keys "path" and "PATH" differ only in case (decoders disagree on whether they are one, and on which one counts) in the message, at params.arguments`},
		{"keys alike but for the case of a non-ASCII letter", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"Ärger":1,"ärger":2}}`,
			jsonrpc.CodeInvalidRequest, "differ only in case"},
		{"keys alike but for a Kelvin sign", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"kind":1,"\u212aind":2}}`,
			jsonrpc.CodeInvalidRequest, "differ only in case"},
		{"a key twice past 16 keys, in capitals", `{"jsonrpc":"2.0","id":1,"method":"m","params":{` + keys(40, `,"K3":0`) + `}}`,
			jsonrpc.CodeInvalidRequest, `keys "k3" and "K3" differ only in case`},
		{"a key twice past 16 keys, a Kelvin sign", `{"jsonrpc":"2.0","id":1,"method":"m","params":{` + keys(40, `,"\u212a3":0`) + `}}`,
			jsonrpc.CodeInvalidRequest, `differ only in case`},
		{"a key twice past 16 keys, a long s", `{"jsonrpc":"2.0","id":1,"method":"m","params":{` + keys(40, `,"s":0,"ſ":1`) + `}}`,
			jsonrpc.CodeInvalidRequest, `differ only in case`},
		{"a key twice past 16 keys, non-ASCII capitals", `{"jsonrpc":"2.0","id":1,"method":"m","params":{` + keys(40, `,"ärger":0,"ÄRGER":1`) + `}}`,
			jsonrpc.CodeInvalidRequest, `differ only in case`},
		{"a key twice in a batch's message", "[" + call("1") + `,{"jsonrpc":"2.0","id":2,"method":"m","method":"n"}]`,
			jsonrpc.CodeInvalidRequest, `key "method" is named twice (decoders disagree on which one counts) in message 1 of the batch`},

		{"an id beyond int64", call(`123456789012345678901234567890`), jsonrpc.CodeInvalidRequest, "the id 123456789012345678901234567890 cannot be answered as sent"},
		{"an id of 2^63", call(`9223372036854775808`), jsonrpc.CodeInvalidRequest, "cannot be answered as sent"},
		{"an id beyond 2^53 that a float64 rounds", call(`9007199254740993`), jsonrpc.CodeInvalidRequest, "cannot be answered as sent"},
		{"a fractional id", call(`1.5`), jsonrpc.CodeInvalidRequest, "the id 1.5 cannot be answered as sent"},
		{"an id with a negative exponent", call(`1e-3`), jsonrpc.CodeInvalidRequest, "cannot be answered as sent"},
		{"an id of 100 digits", call(strings.Repeat("9", 100)), jsonrpc.CodeInvalidRequest,
			"the id " + strings.Repeat("9", 40) + "… cannot be answered as sent"},
		{"an id with a huge exponent", call(`1e999999999999`), jsonrpc.CodeInvalidRequest, "cannot be answered as sent"},
		{"an id that is true", call(`true`), jsonrpc.CodeInvalidRequest, "an id is a string or an integer"},
		{"an id that is an object", call(`{"n":1}`), jsonrpc.CodeInvalidRequest, "an id is a string or an integer"},

		{"two calls of a batch under one id", "[" + call("1") + "," + call("1") + "]", jsonrpc.CodeInvalidRequest,
			"two calls of the batch share the id 1"},
		{"two calls of a batch under one id, written apart", "[" + call("1") + "," + call("1.0") + "]", jsonrpc.CodeInvalidRequest,
			"share the id 1"},
		{"two calls of a batch under one string id, escaped", "[" + call(`"a"`) + "," + call(`"\u0061"`) + "]", jsonrpc.CodeInvalidRequest,
			`share the id "a"`},
		{"a batch of one message more than MaxBatchMessages", "[" + calls(MaxBatchMessages+1) + "]", jsonrpc.CodeInvalidRequest,
			"the batch holds more than 64 messages"},
		{"two calls of a batch of 40 under one id", "[" + calls(40) + "," + call("39") + "]", jsonrpc.CodeInvalidRequest,
			"share the id 39"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := checkEnvelope([]byte(c.body))
			if c.code == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			e, ok := errors.AsType[*envelopeError](err)
			if !ok {
				t.Fatalf("taken, or refused without a code: %v", err)
			}
			if e.code != c.code || !strings.Contains(e.Error(), c.says) {
				t.Errorf("refused %d %q; want %d saying %q", e.code, e.Error(), c.code, c.says)
			}
		})
	}
}

// keys is n members "k0":0 ... of an object, then more.
func keys(n int, more string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":0`)
	}
	return b.String() + more
}

// calls is n calls of a batch, under the ids 0 to n-1.
func calls(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"m"}`)
	}
	return b.String()
}

// TestExactIntegerIsWhatTheSDKAnswers: an id is taken when the SDK's decoding of it (a float64,
// then an int64) gives back its value, and then exactInteger says that value.
func TestExactIntegerIsWhatTheSDKAnswers(t *testing.T) {
	for _, lit := range []string{"0", "-0", "0.0", "7", "-7", "1.0", "1e3", "1E+3", "12.5e1", "100.50", "1.5", "0.1e1",
		"1e-3", "10e-1", "123e-2", "9007199254740992", "9007199254740993", "9007199254740994", "-9007199254740993",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"4611686018427387904", "1e18", "1e19", "123456789012345678901234567890", "0.0000000000000000000000001e25",
		"100000000000000000000000e-10", "1e400", "1e-400"} {
		n, ok := exactInteger([]byte(lit))
		f, err := strconv.ParseFloat(lit, 64)
		sdk := int64(f) // what the SDK answers with (MakeID of the float64 it decoded)
		exact := err == nil && f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 && exactDecimal(lit, sdk)
		if ok != exact || ok && n != sdk {
			t.Errorf("exactInteger(%s) = %d, %v; the SDK answers %d (exact: %v)", lit, n, ok, sdk, exact)
		}
	}
}

// exactDecimal says whether the number lit is exactly n, comparing decimal digits through
// json.Number and strconv (slowly, for the test).
func exactDecimal(lit string, n int64) bool {
	var r struct{ N json.Number }
	if json.Unmarshal([]byte(`{"N":`+lit+`}`), &r) != nil {
		return false
	}
	mant, exp, _ := strings.Cut(strings.ToLower(r.N.String()), "e")
	e := 0
	if exp != "" {
		e, _ = strconv.Atoi(exp)
	}
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	whole, frac, _ := strings.Cut(mant, ".")
	digits := whole + frac
	e -= len(frac)
	for e < 0 && strings.HasSuffix(digits, "0") {
		digits, e = digits[:len(digits)-1], e+1
	}
	if e < 0 {
		return strings.Trim(digits, "0") == "" && n == 0
	}
	digits += strings.Repeat("0", e)
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		digits = "0"
	}
	if neg && digits != "0" {
		digits = "-" + digits
	}
	return digits == strconv.FormatInt(n, 10)
}

// BenchmarkCheckEnvelope is the per-request work of wellFormed on a typical tools/call body.
func BenchmarkCheckEnvelope(b *testing.B) {
	body := []byte(callBody)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if err := checkEnvelope(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToolsCallRequest is a typical tools/call through the SDK's stateless Streamable HTTP
// handler as the gateway configures it, to a tool that answers at once: "sdk" as it was,
// "checked" behind wellFormed. The difference is what the check adds to every request.
func BenchmarkToolsCallRequest(b *testing.B) {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "read_file", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answer"}}}, nil
		})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless: true, JSONResponse: true, MaxRequestBodyBytes: MaxRequestBytes, DisableLocalhostProtection: true})
	body := []byte(callBody)
	for _, c := range []struct {
		name    string
		handler http.Handler
	}{{"sdk", sdk}, {"checked", wellFormed(sdk)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				rec := httptest.NewRecorder()
				c.handler.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), []byte(`"answer"`)) {
					b.Fatalf("HTTP %d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

// FuzzCheckEnvelope: the walk agrees with encoding/json on what is one JSON value (a body taken is
// valid JSON; one refused as no JSON value is not, but for depth or for bytes that are not UTF-8,
// which encoding/json reads as U+FFFD; one that is not may be refused
// for what comes first, a batch of no objects, say), refuses with a code, and never panics.
func FuzzCheckEnvelope(f *testing.F) {
	for _, seed := range []string{callBody, callBody + "x", `[` + callBody + `,` + callBody + `]`, `{"a":1,"A":2}`,
		`{"id":1.5e1}`, `{"a":"\ud800"}`, `{"\u00e9":1,"é":2}`, `[]`, `{"id":-0.0e-0}`, "{\"a\xff\":1}"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		err := checkEnvelope(body)
		e, _ := errors.AsType[*envelopeError](err)
		switch {
		case err == nil && !json.Valid(body):
			t.Errorf("taken, and not JSON: %q", body)
		case e != nil && e.code == jsonrpc.CodeParseError && json.Valid(body) && utf8.Valid(body) && !strings.Contains(e.msg, "nests deeper"):
			t.Errorf("refused as no JSON value (%v), and JSON: %q", e, body)
		case err != nil && e == nil:
			t.Errorf("refused without a code: %v", err)
		}
	})
}

// A charset the gateway takes is a name of UTF-8 to a decoder in front; every other is refused
// HTTP 415 before the body is read, nothing created or sent.
func TestCharsetsTakenAreUTF8(t *testing.T) {
	served := 0
	h := wellFormed(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { served++ }))
	for ct, taken := range map[string]bool{
		"application/json": true, "application/json; charset=utf-8": true, `application/json;charset="UTF-8"`: true,
		"application/json; charset=utf8": true, "application/json; charset=unicode-1-1-utf-8": true,
		"application/json; charset=iso-8859-1": false, "application/json; charset=utf-16": false,
		"application/json; charset=UTF-16LE": false, "application/json; charset=us-ascii": false,
		"application/json; charset=windows-1252": false, "application/json; charset=utf-7": false,
	} {
		before := served
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(callBody))
		req.Header.Set("Content-Type", ct)
		h.ServeHTTP(rec, req)
		switch {
		case taken && (served != before+1 || rec.Code != http.StatusOK):
			t.Errorf("%s: HTTP %d, served %v; want it taken", ct, rec.Code, served != before)
		case !taken && (served != before || rec.Code != http.StatusUnsupportedMediaType):
			t.Errorf("%s: HTTP %d, served %v; want HTTP 415, unserved", ct, rec.Code, served != before)
		}
	}
}
