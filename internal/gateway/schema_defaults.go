package gateway

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"slices"
)

// schemaDefault is one top-level argument an upstream tool's input schema gives a default: what
// the tool takes when the agent leaves the argument out.
type schemaDefault struct {
	key   string
	value json.RawMessage
}

// schemaDefaults are the defaults schema (a tool's input schema, as its upstream lists it) gives
// its top-level properties, by key; none for a schema that declares none or is no JSON object.
// Read once per upstream connection, when its tools are listed.
func schemaDefaults(schema any) []schemaDefault {
	data, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	var s struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	if json.Unmarshal(data, &s) != nil {
		return nil
	}
	var out []schemaDefault
	for key, p := range s.Properties {
		// A null default is no value: pydantic writes "default": null for every optional
		// parameter (x: str | None = None), and the tool then runs as if the argument were
		// absent, which is how the call is judged without it.
		if len(p.Default) > 0 && !bytes.Equal(bytes.TrimSpace(p.Default), []byte("null")) {
			out = append(out, schemaDefault{key: key, value: p.Default})
		}
	}
	slices.SortFunc(out, func(a, b schemaDefault) int { return cmp.Compare(a.key, b.key) })
	return out
}

// withDefaults is args with every default of defaults whose key args leaves out written in,
// explicitly. An upstream fills those in itself (the Go SDK's server and zod apply a schema's
// defaults, pydantic a parameter's), so without them the engine and the argument rules would judge
// a call that names no path (nothing to check) while the tool reads the path its schema names:
// a read whose default is .env, a command run in a default directory of "/". With them the call
// is judged as the tool takes it, and the tool is sent what was judged. Arguments that are not
// one JSON object are left as they are, for toolcall.Build to refuse.
func withDefaults(args json.RawMessage, defaults []schemaDefault) json.RawMessage {
	if len(defaults) == 0 {
		return args
	}
	obj := bytes.TrimSpace(args)
	if len(obj) == 0 || bytes.Equal(obj, []byte("null")) {
		obj = []byte("{}")
	}
	present, ok := topLevelKeys(obj)
	if !ok {
		return args
	}
	out := append([]byte(nil), obj[:len(obj)-1]...) // without its closing brace
	empty := len(present) == 0
	added := false
	for _, d := range defaults {
		if present[d.key] {
			continue
		}
		if !empty {
			out = append(out, ',')
		}
		empty, added = false, true
		key, _ := json.Marshal(d.key) // a string always marshals
		out = append(append(append(out, key...), ':'), d.value...)
	}
	if !added {
		return args
	}
	return append(out, '}')
}

// topLevelKeys are the keys of the JSON object obj; false when obj is not one JSON object (and
// nothing after it but space), so that its last byte is its closing brace.
func topLevelKeys(obj []byte) (map[string]bool, bool) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	keys := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := t.(string)
		keys[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return keys, true
}
