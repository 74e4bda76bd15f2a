package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolgate/toolgate/internal/jsonobject"
)

// arguments are args as the upstream takes them, walked once: refused (-32602) when they hold a
// top-level key the tool's schema does not declare (undeclared), and otherwise with every default
// the schema gives a key they leave out written in, explicitly.
//
// An upstream fills those in itself (the Go SDK's server and zod apply a schema's defaults,
// pydantic a parameter's), so without them the engine and the argument rules would judge a call
// that names no path (nothing to check) while the tool reads the path its schema names: a read
// whose default is .env, a command run in a default directory of "/". With them the call is
// judged as the tool takes it, and the tool is sent what was judged.
//
// A default of one alternative (anyOf, oneOf, a condition's then or else) is written in when
// every alternative the call can still match (its discriminator, a const, does not rule it out)
// gives that key the same default. Where they differ, or some give one and others none, the
// gateway cannot tell which the upstream takes, and refuses the call unless it names the key.
// Arguments that are not one JSON object are left as they are, for toolcall.Build to refuse.
func (s *toolSchema) arguments(args json.RawMessage, tool string) (json.RawMessage, error) {
	if s == nil || (s.declared == nil && len(s.defaults) == 0 && len(s.choices) == 0) {
		return args, nil
	}
	obj := bytes.TrimSpace(args)
	if len(obj) == 0 || bytes.Equal(obj, []byte("null")) {
		obj = []byte("{}")
	}
	present := map[string]json.RawMessage{}
	for m, err := range jsonobject.Fields(obj) {
		if err != nil {
			return args, nil
		}
		present[m.Key] = m.Value
	}
	if err := s.undeclared(present, tool); err != nil {
		return nil, err
	}
	var add []schemaDefault
	for _, d := range s.defaults {
		if _, named := present[d.key]; named {
			continue
		}
		if d.value == nil {
			return nil, unsureDefault(tool, d.key, "allOf")
		}
		add = append(add, d)
		present[d.key] = d.value
	}
	for _, c := range s.choices {
		more, err := c.defaultsFor(present, tool)
		if err != nil {
			return nil, err
		}
		for _, d := range more {
			present[d.key] = d.value
		}
		add = append(add, more...)
	}
	if len(add) == 0 {
		return args, nil
	}
	out := append([]byte(nil), obj[:len(obj)-1]...) // without its closing brace
	empty := len(present) == len(add)
	for _, d := range add {
		if !empty {
			out = append(out, ',')
		}
		empty = false
		key, _ := json.Marshal(d.key) // a string always marshals
		out = append(append(append(out, key...), ':'), d.value...)
	}
	return append(out, '}'), nil
}

// defaultsFor are the defaults of c for a call holding present: those every branch the call can
// match gives alike, for the keys present leaves out.
func (c choice) defaultsFor(present map[string]json.RawMessage, tool string) ([]schemaDefault, error) {
	live := make([]branch, 0, len(c.branches))
	for _, b := range c.branches {
		if b.matches(present) {
			live = append(live, b)
		}
	}
	keys := map[string]bool{}
	for _, b := range live {
		for key := range b.defaults {
			keys[key] = true
		}
	}
	var out []schemaDefault
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		if _, named := present[key]; named {
			continue
		}
		d := sameDefault(live, key)
		if d == nil {
			return nil, unsureDefault(tool, key, c.keyword)
		}
		out = append(out, schemaDefault{key: key, value: d})
	}
	return out, nil
}

// matches says whether a call holding present can match b: it gives none of b's consts another
// value, and holds b's when key (or, whenAbsent, does not).
func (b branch) matches(present map[string]json.RawMessage) bool {
	if b.when != "" {
		if _, held := present[b.when]; held == b.whenAbsent {
			return false
		}
	}
	for key, c := range b.consts {
		v, ok := present[key]
		if !ok {
			continue
		}
		var decoded any
		if json.Unmarshal(v, &decoded) != nil || string(canonical(decoded)) != c {
			return false
		}
	}
	return true
}

// unsureDefault refuses a call that leaves out key, to which the tool's schema gives defaults the
// gateway cannot choose between (in its keyword).
func unsureDefault(tool, key, keyword string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(
		"tool %q's input schema gives the argument %q a default that depends on which of its %s the tool "+
			"matches, which the gateway cannot tell; name %q in the call, so that what the tool takes is judged",
		tool, key, keyword, key)}
}
