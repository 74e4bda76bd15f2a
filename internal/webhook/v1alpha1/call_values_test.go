package v1alpha1

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// jsonCount is valueCount's definition, from encoding/json's tokens: for each container, its
// elements, or 1 when it has none (an object's repeated keys count as often as they occur).
func jsonCount(t *testing.T, b []byte) (int, bool) {
	t.Helper()
	type frame struct {
		object, key bool // key: an object's next token is a key
		n           int
	}
	var stack []*frame
	value := func() {
		if len(stack) > 0 {
			f := stack[len(stack)-1]
			f.n++
			f.key = f.object
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	total := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return total, true
		}
		if err != nil {
			return 0, false
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			value()
			stack = append(stack, &frame{object: tok == json.Delim('{'), key: tok == json.Delim('{')})
		case json.Delim(']'), json.Delim('}'):
			total += max(stack[len(stack)-1].n, 1)
			stack = stack[:len(stack)-1]
		default:
			if f := len(stack) - 1; f >= 0 && stack[f].key {
				stack[f].key = false // a key, not a value
				continue
			}
			value()
		}
	}
}

func TestValueCountSkipsStrings(t *testing.T) {
	for _, tc := range []struct {
		json string
		want int
	}{
		{`1`, 0},
		{`[]`, 1},
		{`{}`, 1},
		{`[1,2,3]`, 3},
		{`{"a":[1,{"b":{}}],"c":"x"}`, 2 + 2 + 1 + 1},
		{`["a,b,[{", "c"]`, 2},
		{`["a\",b", "c"]`, 2},    // an escaped quote does not end the string
		{`["a\\", "b,c"]`, 2},    // an escaped backslash does not escape the quote
		{`["a\\\",[", ",]"]`, 2}, // three backslashes: the last escapes the quote
		{`{"k\"ey,": [",", "{"], "x": {}}`, 2 + 2 + 1},
	} {
		def, ok := jsonCount(t, []byte(tc.json))
		if !ok {
			t.Fatalf("%s: not JSON", tc.json)
		}
		if got := valueCount([]byte(tc.json), 1<<20); got != tc.want || def != tc.want {
			t.Errorf("%s: valueCount %d, by parsing %d, want %d", tc.json, got, def, tc.want)
		}
	}
}

func TestValueCountStopsPastItsBound(t *testing.T) {
	b := []byte("[" + strings.Repeat("1,", 1000) + "1]")
	if !withinValues(b, 1001) || withinValues(b, 1000) {
		t.Fatalf("1,001 elements: within 1,001 %v, within 1,000 %v", withinValues(b, 1001), withinValues(b, 1000))
	}
	if n := valueCount(b, 10); n != 11 {
		t.Fatalf("valueCount went on to %d past a stop of 10", n)
	}
	if n := valueCount([]byte(`["abc`), 10); n != 1 {
		t.Fatalf("an unterminated string: %d", n)
	}
}

// FuzzValueCount holds valueCount to its definition on any JSON.
func FuzzValueCount(f *testing.F) {
	for _, s := range []string{`[1,[2,[]],{"a":{"b\"":","}}]`, `{"x":"\\\\\",[{"}`, `"{,["`, `[[[[]]]]`} {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":1,"a":[2]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		want, ok := jsonCount(t, b)
		if !ok {
			return
		}
		if got := valueCount(b, 1<<30); got != want {
			t.Fatalf("valueCount %d, by parsing %d: %q", got, want, b)
		}
	})
}
