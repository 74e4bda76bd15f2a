package gateway

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHeaders runs a POST of body through wellFormed with the headers given as name, value pairs (added,
// so a name may come twice): the HTTP status and whether the request was passed on to the SDK.
func serveHeaders(t *testing.T, body string, header ...string) (int, bool) {
	t.Helper()
	reached := false
	h := wellFormed(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached = true
		w.WriteHeader(http.StatusOK)
	}))
	r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Add(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, reached
}

const codedCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"notes.txt"}}}`

// Neither the gateway nor the SDK decodes a content coding: a body sent with Content-Encoding
// gzip (deflate, br, ...) was checked and run as the bytes it is, as if identity, while a proxy,
// WAF or log in front that honours the header reads (or refuses) the body it decodes: the split
// the charset check refuses for a charset. RFC 9110 (8.4.1) answers a coding the server does not
// apply with 415. Refused before the body is read, in any spelling, in a list and given twice;
// identity (however often), or no header, passes.
func TestABodyInAContentCodingIsRefused(t *testing.T) {
	for name, codings := range map[string][]string{
		"gzip":                {"gzip"},
		"upper case":          {"GZIP"},
		"x-gzip":              {"x-gzip"},
		"deflate":             {"deflate"},
		"br":                  {"br"},
		"zstd":                {"zstd"},
		"a list":              {"identity, gzip"},
		"identity, then gzip": {"identity", "gzip"},
		"an unknown coding":   {"rot13"},
	} {
		var header []string
		for _, c := range codings {
			header = append(header, "Content-Encoding", c)
		}
		if code, reached := serveHeaders(t, codedCall, header...); reached || code != http.StatusUnsupportedMediaType {
			t.Errorf("%s: answered %d, passed on %v; want 415, not passed on", name, code, reached)
		}
	}
	for name, header := range map[string][]string{
		"no coding":      nil,
		"identity":       {"Content-Encoding", "identity"},
		"IDENTITY":       {"Content-Encoding", " IDENTITY "},
		"empty value":    {"Content-Encoding", ""},
		"identity twice": {"Content-Encoding", "identity", "Content-Encoding", "identity, identity"},
	} {
		if code, reached := serveHeaders(t, codedCall, header...); !reached || code != http.StatusOK {
			t.Errorf("%s: answered %d, passed on %v; want it passed on", name, code, reached)
		}
	}
}

// The MCP headers say what a request is: the protocol version decides what the SDK serves (a
// batch only before 2025-06-18; protocol 2026-07-28's rules from it on), and from 2026-07-28 on
// Mcp-Method, Mcp-Name and Mcp-Param-* repeat the body's method, tool and arguments so that a
// proxy can route and authorize by them unread. The SDK reads the first of each (Header.Get), and
// checks only that one against the body: sent 2025-03-26 then 2025-11-25, a batch of calls ran,
// and an Mcp-Name of the tool called then of another passed its check, while a proxy or log in
// front that reads the last saw another version or tool. A request carrying any MCP header twice
// is refused 400 before the body is read, as a second Content-Type or Authorization is; each
// once, in any version, passes on to the SDK.
func TestAnMCPHeaderGivenTwiceIsRefused(t *testing.T) {
	batch := "[" + codedCall + "]"
	for name, header := range map[string][]string{
		"the version, old then new": {"MCP-Protocol-Version", "2025-03-26", "Mcp-Protocol-Version", "2025-11-25"},
		"the version, new then old": {"MCP-Protocol-Version", "2025-11-25", "MCP-Protocol-Version", "2025-03-26"},
		"the same version":          {"MCP-Protocol-Version", "2025-03-26", "MCP-Protocol-Version", "2025-03-26"},
		"the method":                {"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "mcp-method", "tools/list"},
		"the tool's name":           {"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "read", "MCP-NAME", "delete"},
		"a parameter":               {"MCP-Protocol-Version", "2026-07-28", "Mcp-Param-Path", "notes.txt", "Mcp-Param-Path", ".env"},
		"the session":               {"Mcp-Session-Id", "a", "Mcp-Session-Id", "b"},
	} {
		if code, reached := serveHeaders(t, batch, header...); reached || code != http.StatusBadRequest {
			t.Errorf("%s: answered %d, passed on %v; want 400, not passed on", name, code, reached)
		}
	}
	for _, v := range []string{"2025-03-26", "2025-11-25", "2026-07-28"} {
		if code, reached := serveHeaders(t, codedCall, "MCP-Protocol-Version", v); !reached || code != http.StatusOK {
			t.Errorf("version %s: answered %d, passed on %v; want it passed on", v, code, reached)
		}
	}
	if code, reached := serveHeaders(t, codedCall, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call",
		"Mcp-Name", "read", "Mcp-Param-Path", "notes.txt", "Mcp-Param-Mode", "r"); !reached || code != http.StatusOK {
		t.Errorf("each MCP header once: answered %d, passed on %v; want it passed on", code, reached)
	}
}

// Mcp-Method and Mcp-Name (protocol 2026-07-28) repeat the body's method and tool for a proxy to
// route and authorize by without reading the body. The SDK checks them against the body only
// under that protocol version: sent with MCP-Protocol-Version 2025-11-25, or none, "Mcp-Name:
// notes_tool" over a body calling another tool ran that tool, while a proxy in front that trusts
// the header authorized notes_tool. A request whose Mcp-Method or Mcp-Name says other than its
// body is refused 400, in every version, and one that names them with a batch (several methods
// and names); the same headers matching the body, and none, pass on.
func TestMCPHeadersThatContradictTheBodyAreRefused(t *testing.T) {
	const list = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	const resource = `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a"}}`
	for _, version := range []string{"", "2025-03-26", "2025-11-25", "2026-07-28"} {
		with := func(header ...string) []string {
			if version == "" {
				return header
			}
			return append([]string{"MCP-Protocol-Version", version}, header...)
		}
		for name, c := range map[string]struct {
			body   string
			header []string
		}{
			"another tool":             {codedCall, []string{"Mcp-Method", "tools/call", "Mcp-Name", "notes_tool"}},
			"a tool named, not called": {list, []string{"Mcp-Name", "read"}},
			"another method":           {codedCall, []string{"Mcp-Method", "tools/list"}},
			"another method's case":    {codedCall, []string{"Mcp-Method", "Tools/Call"}},
			"another resource":         {resource, []string{"Mcp-Method", "resources/read", "Mcp-Name", "file:///b"}},
			"a method over a batch":    {"[" + codedCall + "]", []string{"Mcp-Method", "tools/call"}},
			"a name over a batch":      {"[" + codedCall + "]", []string{"Mcp-Name", "read"}},
		} {
			if code, reached := serveHeaders(t, c.body, with(c.header...)...); reached || code != http.StatusBadRequest {
				t.Errorf("version %q, %s: answered %d, passed on %v; want 400, not passed on", version, name, code, reached)
			}
		}
		for name, c := range map[string]struct {
			body   string
			header []string
		}{
			"the tool called":        {codedCall, []string{"Mcp-Method", "tools/call", "Mcp-Name", "read"}},
			"the method alone":       {list, []string{"Mcp-Method", "tools/list"}},
			"the resource read":      {resource, []string{"Mcp-Method", "resources/read", "Mcp-Name", "file:///a"}},
			"no MCP header":          {codedCall, nil},
			"a batch, no MCP header": {"[" + codedCall + "]", nil},
		} {
			if code, reached := serveHeaders(t, c.body, with(c.header...)...); !reached || code != http.StatusOK {
				t.Errorf("version %q, %s: answered %d, passed on %v; want it passed on", version, name, code, reached)
			}
		}
	}
}

// The refusal is answered as the SDK answers its own check of these headers: HTTP 400 with
// JSON-RPC error -32020 under the request's id, which a client takes as its call's error. A
// plain-text 400 made the Go SDK's client close its session.
func TestAContradictingMCPHeaderIsAnsweredAsTheSDKAnswersIt(t *testing.T) {
	h := wellFormed(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(strings.Replace(codedCall, `"id":1`, `"id":"call-7"`, 1)))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Mcp-Name", "notes_tool")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	var answer struct {
		ID    any `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil || w.Code != http.StatusBadRequest ||
		w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("answered %d %q: %s (%v); want 400 with a JSON-RPC error", w.Code, w.Header().Get("Content-Type"), w.Body, err)
	}
	if answer.ID != "call-7" || answer.Error.Code != mcp.CodeHeaderMismatch || !strings.Contains(answer.Error.Message, "notes_tool") {
		t.Errorf("answered %s; want error %d under id \"call-7\" naming the header's tool", w.Body, mcp.CodeHeaderMismatch)
	}
}
