// Package jsonobject walks the members of one JSON object, key by key, in the order they are
// written. It is the one loop over an object's tokens that the front doors share: the gateway
// (an MCP call's argument keys), toolgate-hook (a payload's fields), argrules' strict parser and
// pkg/toolcall (the arguments a map omits).
package jsonobject

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"iter"
)

// ErrNotOneObject is what Fields yields for input that is not one JSON object with nothing
// after it but space.
var ErrNotOneObject = errors.New("not one JSON object")

// Members yields the keys of the JSON object whose opening brace dec has just read, as dec
// decodes them (escapes resolved). The loop body must read each key's value from dec (Decode, or
// Token calls that consume it whole) before the next key. After the last member Members reads the
// object's closing brace. Input that is not JSON there ends the walk with an error.
func Members(dec *json.Decoder) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				yield("", err)
				return
			}
			key, _ := t.(string) // inside an object, the token before a value is its key
			if !yield(key, nil) {
				return
			}
		}
		if _, err := dec.Token(); err != nil { // the closing brace
			yield("", err)
		}
	}
}

// Member is one member of an object: its key as decoded and its value as written.
type Member struct {
	Key   string
	Value json.RawMessage
}

// Fields yields the members of raw, which must be one JSON object and nothing after it but
// space. Where it is not, the walk ends with an error wrapping ErrNotOneObject, possibly after
// members that came before the fault.
func Fields(raw []byte) iter.Seq2[Member, error] {
	return func(yield func(Member, error) bool) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			yield(Member{}, ErrNotOneObject)
			return
		}
		for key, err := range Members(dec) {
			if err != nil {
				yield(Member{}, errors.Join(ErrNotOneObject, err))
				return
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				yield(Member{}, errors.Join(ErrNotOneObject, err))
				return
			}
			if !yield(Member{Key: key, Value: v}, nil) {
				return
			}
		}
		if _, err := dec.Token(); err != io.EOF {
			yield(Member{}, ErrNotOneObject)
		}
	}
}
