package jsonobject

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

// TestFieldsYieldsEachMemberOfOneObject: keys decoded (escapes resolved, repeats kept, in order),
// values as written; anything that is not one JSON object, alone, ends the walk with
// ErrNotOneObject.
func TestFieldsYieldsEachMemberOfOneObject(t *testing.T) {
	for _, c := range []struct {
		raw  string
		keys []string
		ok   bool
	}{
		{`{}`, nil, true},
		{` { "a" : 1 , "b":{"c":[1,2]} } `, []string{"a", "b"}, true},
		{`{"p\u0061th":".env","path":"x"}`, []string{"path", "path"}, true},
		{`{"a":1} {"b":2}`, []string{"a"}, false},
		{`{"a":1}}`, []string{"a"}, false},
		{`{"a":`, nil, false},
		{`{"a":1,}`, []string{"a"}, false},
		{`["a"]`, nil, false},
		{`null`, nil, false},
		{``, nil, false},
	} {
		var keys []string
		var err error
		for m, e := range Fields([]byte(c.raw)) {
			if e != nil {
				err = e
				break
			}
			keys = append(keys, m.Key)
		}
		if !slices.Equal(keys, c.keys) || (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrNotOneObject)) {
			t.Errorf("Fields(%s): keys %q, error %v; want keys %q, ok %v", c.raw, keys, err, c.keys, c.ok)
		}
	}
	for m, err := range Fields([]byte(`{"b":{"c" : 1}}`)) {
		if err != nil || string(m.Value) != `{"c" : 1}` {
			t.Errorf("value %s, want it as written", m.Value)
		}
	}
}

// TestMembersLeavesTheValuesToItsLoop: the loop reads each value itself (here, nested objects
// with Members again), and Members reads the closing brace; a break stops it where it is.
func TestMembersLeavesTheValuesToItsLoop(t *testing.T) {
	dec := json.NewDecoder(bytes.NewReader([]byte(`{"a":{"b":1},"c":2} tail`)))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for key, err := range Members(dec) {
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, key)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(keys, []string{"a", "c"}) || dec.InputOffset() != int64(len(`{"a":{"b":1},"c":2}`)) {
		t.Errorf("keys %q, offset %d: want a, c and the closing brace read", keys, dec.InputOffset())
	}
	dec = json.NewDecoder(bytes.NewReader([]byte(`{"a":1,"b":2}`)))
	_, _ = dec.Token()
	for _, err := range Members(dec) {
		if err != nil {
			t.Fatal(err)
		}
		break
	}
	if dec.InputOffset() != int64(len(`{"a"`)) {
		t.Errorf("offset %d after a break at the first key", dec.InputOffset())
	}
}
