package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The charset check reads the Content-Type the SDK reads (Header.Get: the first). A request may
// carry the header twice: the gateway and the SDK took the first ("application/json", UTF-8),
// while a proxy or log in front that takes the last, or joins them, honoured the second's charset
// and read other strings from the same bytes than the gateway judged, the very split the charset
// check refuses. A second Content-Type is refused 415 before the body is read, whichever comes
// first; one header, with or without charset=utf-8 (any case, quoted), still passes.
func TestAContentTypeGivenTwiceIsRefused(t *testing.T) {
	const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"café.txt"}}}`
	serve := func(types ...string) (int, bool) {
		reached := false
		h := wellFormed(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reached = true
			w.WriteHeader(http.StatusOK)
		}))
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		for _, ct := range types {
			r.Header.Add("Content-Type", ct)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, reached
	}
	for name, types := range map[string][]string{
		"JSON, then a charset other than UTF-8": {"application/json", "application/json; charset=iso-8859-1"},
		"a charset other than UTF-8, then JSON": {"application/json; charset=utf-16", "application/json"},
		"JSON twice":                            {"application/json", "application/json"},
	} {
		if code, reached := serve(types...); reached || code != http.StatusUnsupportedMediaType {
			t.Errorf("%s: answered %d, passed on %v; want 415, not passed on", name, code, reached)
		}
	}
	for name, ct := range map[string]string{
		"JSON":                   "application/json",
		"JSON in UTF-8":          "application/json; charset=utf-8",
		"JSON in UTF-8, spelled": `application/json;CHARSET="UTF-8"`,
	} {
		if code, reached := serve(ct); !reached || code != http.StatusOK {
			t.Errorf("%s: answered %d, passed on %v; want it passed on", name, code, reached)
		}
	}
	for name, ct := range map[string]string{
		"a quoted charset": `application/json; charset="utf-16"`,
		"upper case":       "Application/JSON; Charset=ISO-8859-1",
		"RFC 2231 spelled": "application/json; charset*=utf-8''utf-16",
	} {
		if code, reached := serve(ct); reached || code != http.StatusUnsupportedMediaType {
			t.Errorf("%s: answered %d, passed on %v; want 415", name, code, reached)
		}
	}
}
