package argrules_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgate/toolgate/internal/argrules"
)

func TestParseExtra(t *testing.T) {
	deep := strings.Repeat(`{"a":`, argrules.MaxDepth) + "1" + strings.Repeat("}", argrules.MaxDepth)
	tooDeep := strings.Repeat(`{"a":`, argrules.MaxDepth+1) + "1" + strings.Repeat("}", argrules.MaxDepth+1)
	deepArray := `{"a":` + strings.Repeat("[", argrules.MaxDepth) + strings.Repeat("]", argrules.MaxDepth) + "}"
	hugeArray := `{"a":[` + strings.Repeat("1,", argrules.MaxValues) + "1]}"
	cases := []struct {
		name    string
		raw     string
		want    map[string]any
		wantErr string
	}{
		{name: "empty", raw: ""},
		{name: "null", raw: " null "},
		{name: "scalars", raw: `{"amount": 399, "rate": 0.5, "big": 1e3, "huge": 123456789012345680000000000000, "to": "a@example.com", "ok": true, "none": null}`,
			want: map[string]any{"amount": int64(399), "rate": 0.5, "big": 1000.0, "huge": 1.2345678901234568e29,
				"to": "a@example.com", "ok": true, "none": nil}},
		// A number is recorded as a float64 holds it, so one it cannot hold as written is refused:
		// the record, the digest, a rule and an approval would judge a neighbour of what is sent.
		{name: "floats held exactly", raw: `{"a": 0.1, "b": 2e-308, "c": 18446744073709552000, "d": 1.7976931348623157e308, "e": 0.0, "f": -0e5, "g": 123456789012345.6}`,
			want: map[string]any{"a": 0.1, "b": 2e-308, "c": 18446744073709552000.0, "d": 1.7976931348623157e308, "e": 0.0, "f": 0.0, "g": 123456789012345.6}},
		{name: "an integer beyond int64 a float64 rounds", raw: `{"id": 99999999999999999999}`, wantErr: "id is 99999999999999999999, which a float64 holds only as 1e+20"},
		{name: "a decimal with more digits than a float64 holds", raw: `{"amount": 400.00000000000000001}`, wantErr: "amount is 400.00000000000000001, which a float64 holds only as 400"},
		{name: "the exact binary value of 0.1", raw: `{"a": [0.1000000000000000055511151231257827021181583404541015625]}`, wantErr: "a[0] is 0.10000000000000000555111512312578270211..."},
		{name: "a number that underflows to 0", raw: `{"a": 1e-400}`, wantErr: "which a float64 holds only as 0"},
		{name: "a subnormal held inexactly", raw: `{"a": 1.23456789e-320}`, wantErr: "which a float64 holds only as"},
		{name: "an integer past 2^53 a float64 rounds (JavaScript's JSON.parse reads 2^53)", raw: `{"account": 9007199254740993}`,
			wantErr: "account is 9007199254740993, which a float64 (JavaScript's number) holds only as 9007199254740992"},
		{name: "and one near the end of int64", raw: `{"a": [-9223372036854775807]}`, wantErr: "a[0] is -9223372036854775807"},
		{name: "a negative one", raw: `{"a": 9007199254740992, "b": -9007199254740993}`, wantErr: "b is -9007199254740993"},
		{name: "integers a float64 holds", raw: `{"a": 9007199254740992, "c": 4611686018427387904, "d": -9223372036854775808, "e": 9007199254740991}`,
			want: map[string]any{"a": int64(9007199254740992), "c": int64(4611686018427387904), "d": int64(-9223372036854775808), "e": int64(9007199254740991)}},
		{name: "an integer one past 2^64", raw: `{"a": 18446744073709551617}`, wantErr: "holds only as 1.8446744073709552e+19"},
		{name: "nested", raw: `{"a": {"b": [1, "x", {"c": false}]}}`,
			want: map[string]any{"a": map[string]any{"b": []any{int64(1), "x", map[string]any{"c": false}}}}},
		{name: "as deep as allowed", raw: deep, want: nest(argrules.MaxDepth)},
		{name: "too deep", raw: tooDeep, wantErr: "deeper than 16"},
		{name: "arrays too deep", raw: deepArray, wantErr: "deeper than 16"},
		{name: "a huge array", raw: hugeArray, wantErr: "more than 1024 values"},
		{name: "too large", raw: `{"a": "` + strings.Repeat("x", argrules.MaxExtraBytes) + `"}`, wantErr: "as canonical JSON"},
		{name: "whitespace padding beyond the raw bound", raw: `{"a":1` + strings.Repeat(" ", 4*argrules.MaxExtraBytes) + "}", wantErr: "bytes, more than"},
		{name: "not an object", raw: `[1]`, wantErr: "must be a JSON object"},
		{name: "a string", raw: `"x"`, wantErr: "must be a JSON object"},
		{name: "two values", raw: `{} {}`, wantErr: "more than one JSON value"},
		{name: "truncated", raw: `{"a": [1, 2`, wantErr: "not JSON"},
		{name: "a duplicate key", raw: `{"amount": 1, "amount": 100000}`, wantErr: `repeat the key "amount"`},
		{name: "a nested duplicate key", raw: `{"a": {"b": 1, "b": 2}}`, wantErr: `repeat the key "a.b"`},
		{name: "a duplicate key by escape", raw: `{"amount": 1, "\u0061mount": 100000}`, wantErr: `repeat the key "amount"`},
		{name: "keys that differ in case", raw: `{"amount": 1, "Amount": 100000}`, wantErr: "differ only in case"},
		{name: "a full-width key", raw: `{"ａｍｏｕｎｔ": 1}`, wantErr: "not in Unicode NFKC form"},
		{name: "a decomposed key", raw: `{"cafe\u0301": 1}`, wantErr: "not in Unicode NFKC form"},
		{name: "a zero-width key", raw: `{"amo\u200bunt": 1}`, wantErr: "invisible character"},
		{name: "a control character in a key", raw: `{"amo\u0000unt": 1}`, wantErr: "control"},
		{name: "an empty key", raw: `{"": 1}`, wantErr: "empty key"},
		{name: "invalid UTF-8", raw: "{\"a\": \"\xff\"}", wantErr: "not valid UTF-8"},
		{name: "a number beyond float64", raw: `{"a": 1e400}`, wantErr: "out of range"},
		// A string value the rules would judge whole while the tool gets another: C (and so many a
		// mail library, a syscall, a Python subprocess) ends a string at NUL, and JavaScript's
		// JSON.parse and Python's json keep a lone surrogate that encoding/json reads as U+FFFD.
		{name: "a NUL in a string value", raw: `{"to": "x@evil.com\u0000@example.com"}`, wantErr: `extra argument to holds a NUL character`},
		{name: "a NUL in a nested string value", raw: `{"a": [{"b": "\u0000"}]}`, wantErr: `extra argument a[0].b holds a NUL character`},
		{name: "a lone high surrogate", raw: `{"name": "admin\ud800"}`, wantErr: `extra argument name holds a lone UTF-16 surrogate escape`},
		{name: "a lone low surrogate", raw: `{"a": ["x", "\uDC00y"]}`, wantErr: `extra argument a[1] holds a lone UTF-16 surrogate escape`},
		{name: "surrogates in the wrong order", raw: `{"a": "\udc00\ud800"}`, wantErr: `lone UTF-16 surrogate`},
		{name: "a high surrogate before an escaped backslash", raw: `{"a": "\ud800\\udc00"}`, wantErr: `lone UTF-16 surrogate`},
		{name: "a surrogate pair, U+FFFD itself, escaped backslashes and other controls are ordinary",
			raw:  `{"e": "\ud83d\ude00", "r": "\ufffd", "u": "�", "b": "\\ud800", "t": "a\tb\nc\u0001"}`,
			want: map[string]any{"e": "😀", "r": "�", "u": "�", "b": `\ud800`, "t": "a\tb\nc\x01"}},
		{name: "a Cyrillic key is another key", raw: `{"аmount": 1}`, want: map[string]any{"аmount": int64(1)}},
		// Keys a JavaScript tool would follow to Object.prototype (prototype pollution).
		{name: "__proto__", raw: `{"__proto__": {"isAdmin": true}}`, wantErr: `key "__proto__" (at __proto__) reaches a JavaScript object's prototype`},
		{name: "a nested __proto__", raw: `{"a": [{"b": {"__proto__": {}}}]}`, wantErr: `key "__proto__" (at a[0].b.__proto__)`},
		{name: "constructor.prototype", raw: `{"constructor": {"prototype": {"isAdmin": true}}}`, wantErr: `key "prototype" (at constructor.prototype)`},
		{name: "a nested constructor.prototype", raw: `{"opts": {"constructor": {"prototype": 1}}}`, wantErr: `key "prototype"`},
		{name: "a dotted path through __proto__", raw: `{"a.__proto__.isAdmin": true}`, wantErr: `key "a.__proto__.isAdmin"`},
		{name: "a dotted constructor.prototype", raw: `{"constructor.prototype.isAdmin": true}`, wantErr: `key "constructor.prototype.isAdmin"`},
		{name: "a bracketed path", raw: `{"x": {"constructor[\"prototype\"]": 1}}`, wantErr: `reaches a JavaScript object's prototype`},
		{name: "a path split across keys", raw: `{"a.constructor": {"prototype": 1}}`, wantErr: `key "prototype"`},
		{name: "constructor and prototype alone are ordinary keys",
			raw:  `{"constructor": "Foo", "prototype": {"constructor": 1}, "c": [{"prototype": 2}], "proto": 3, "__PROTO__": 4}`,
			want: map[string]any{"constructor": "Foo", "prototype": map[string]any{"constructor": int64(1)}, "c": []any{map[string]any{"prototype": int64(2)}}, "proto": int64(3), "__PROTO__": int64(4)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := argrules.ParseExtra([]byte(tc.raw))
			if tc.wantErr != "" {
				var ee *argrules.ExtraError
				if !errors.As(err, &ee) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseExtra() error = %v, want an ExtraError containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseExtra() error = %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseExtra() (-want +got):\n%s", diff)
			}
		})
	}
}

func nest(depth int) map[string]any {
	var v any = int64(1)
	for range depth {
		v = map[string]any{"a": v}
	}
	return v.(map[string]any)
}

func TestCanonicalIgnoresOrderAndSpacing(t *testing.T) {
	a, err := argrules.ParseExtra([]byte(`{"b": [1, 2], "a": {"y": 1, "x": 2}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := argrules.ParseExtra([]byte(`{"a":{"x":2,"y":1},"b":[1,2]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(argrules.Canonical(a)), `{"a":{"x":2,"y":1},"b":[1,2]}`; got != want || string(argrules.Canonical(b)) != want {
		t.Errorf("Canonical = %s and %s, want both %s", got, argrules.Canonical(b), want)
	}
}

func FuzzParseExtra(f *testing.F) {
	f.Add([]byte(`{"amount": 399, "to": ["a", {"b": null}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := argrules.ParseExtra(raw)
		if err != nil || v == nil {
			return
		}
		// What was admitted re-parses to itself from its canonical form, within the bounds.
		c := argrules.Canonical(v)
		if len(c) > argrules.MaxExtraBytes {
			t.Fatalf("admitted %d canonical bytes", len(c))
		}
		again, err := argrules.ParseExtra(c)
		if err != nil {
			t.Fatalf("canonical form %s does not parse again: %v", c, err)
		}
		if string(argrules.Canonical(again)) != string(c) {
			t.Fatalf("canonical form is not stable: %s vs %s", c, argrules.Canonical(again))
		}
	})
}

// A long literal is refused by counting its digits, not by exact arithmetic on it: what the
// check costs stays what decoding the literal costs.
func BenchmarkParseExtraLongNumber(b *testing.B) {
	raw := []byte(`{"a": 1.` + strings.Repeat("3", argrules.MaxExtraBytes-16) + `}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := argrules.ParseExtra(raw); err == nil {
			b.Fatal("admitted")
		}
	}
}
