package argrules

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPrototypeFree: a value the gateway forwards unparsed (an omitted key's) is refused when a
// JavaScript server merging it would reach Object.prototype, at any depth and in any spelling
// extra's parser refuses; strings and ordinary objects pass unread or untouched.
func TestPrototypeFree(t *testing.T) {
	for _, tc := range []struct {
		raw, wantErr string
	}{
		{raw: `"{\"__proto__\": {\"isAdmin\": true}}"`}, // a string is text, whatever it spells
		{raw: `{"text": "hello", "meta": {"constructor": 1, "prototype": 2}}`},
		{raw: `[{"prototype": 1}, "__proto__", {"a": [1, {"b": null}]}]`},
		{raw: `{"constructor": [{"prototype": 1}]}`}, // an array's elements have no parent key, as in extra
		{raw: `  {"__proto__": {"isAdmin": true}}`, wantErr: `key "__proto__" (at content.__proto__)`},
		{raw: `{"a": {"b": [{"c": {"__proto__": 1}}]}}`, wantErr: `key "__proto__" (at content.a.b.c.__proto__)`},
		{raw: `{"constructor": {"prototype": {"x": 1}}}`, wantErr: `key "prototype" (at content.constructor.prototype)`},
		{raw: `[{"x": 1}, {"a.__proto__.b": 1}]`, wantErr: `key "a.__proto__.b"`},
		{raw: `{"constructor[prototype]": 1}`, wantErr: `key "constructor[prototype]"`},
		{raw: `{"\u005f_proto__": 1}`, wantErr: `reaches a JavaScript object's prototype`},
	} {
		err := PrototypeFree(json.RawMessage(tc.raw), "content")
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("PrototypeFree(%s) = %v, want error containing %q", tc.raw, err, tc.wantErr)
		}
	}
}
