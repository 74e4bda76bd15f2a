package gateway

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Bounds on reading one tool's input schema, which its upstream writes: a schema nested or
// branched beyond them, or whose $refs lead in circles or fan out, costs the listing no more than
// this, and is read as taking any key (see read).
const (
	// maxSchemaDepth bounds how deeply allOf, anyOf, oneOf, if/then/else, dependentSchemas and
	// $ref nest below the top-level schema.
	maxSchemaDepth = 8
	// maxSchemaNodes bounds how many (sub)schemas are read for one tool, a $ref's target each
	// time it is reached.
	maxSchemaNodes = 256
)

// toolSchema is what the gateway takes from one tool's input schema, read once per upstream
// connection when its tools are listed (readToolSchema), and applied to each call's arguments
// (arguments).
type toolSchema struct {
	// declared are the top-level argument keys the schema declares; nil when it takes any key.
	declared map[string]bool
	// known is declared, sorted, for the refusal that names them.
	known []string
	// defaults are the defaults the upstream applies whatever else the call holds (top-level
	// properties, allOf branches, a $ref's target), by key. A nil value is a key given two
	// different ones: the gateway cannot tell which the upstream takes.
	defaults []schemaDefault
	// choices are the anyOf and oneOf (and if/then/else) of the schema whose branches give defaults:
	// which of them the upstream applies depends on the branch the call matches.
	choices []choice
	// required are the top-level keys the parts the upstream applies whatever the call holds
	// (the schema itself, allOf branches, a $ref's target) require, sorted: a call without one
	// the upstream refuses, once admitted and sent (toolcall.ArgumentMap.Present).
	required []string
}

// requiredKeys are the keys s requires of every call; none for no schema.
func (s *toolSchema) requiredKeys() []string {
	if s == nil {
		return nil
	}
	return s.required
}

// schemaDefault is one top-level argument an upstream tool's input schema gives a default: what
// the tool takes when the agent leaves the argument out.
type schemaDefault struct {
	key   string
	value json.RawMessage // nil: more than one, see toolSchema.defaults
}

// choice is one set of alternatives (anyOf, oneOf, a condition's then and else) of which the
// upstream applies the defaults of the branch the call matches.
type choice struct {
	keyword  string
	branches []branch
}

// branch is one alternative of a choice.
type branch struct {
	// consts are the top-level keys the branch requires a value of (const, or an enum of one
	// value: a discriminator), by key, as canonical JSON. A call giving such a key another value
	// does not match the branch.
	consts map[string]string
	// defaults are the defaults the branch gives, by key; a nil value is one it may or may not
	// give, or gives more than one of (a choice within the branch).
	defaults map[string]json.RawMessage
	// when, if not empty, is the key whose presence in the call (or, with whenAbsent, absence)
	// the branch applies by: a dependent schema's.
	when       string
	whenAbsent bool
}

// readToolSchema reads schema, a tool's input schema as its upstream lists it (decoded JSON, or
// anything that marshals to it), once.
func readToolSchema(schema any) toolSchema {
	if _, ok := schema.(map[string]any); !ok && schema != nil {
		if data, err := json.Marshal(schema); err == nil {
			var v any
			if json.Unmarshal(data, &v) == nil {
				schema = v
			}
		}
	}
	r := &schemaReader{root: schema}
	p := r.read(schema, 0, []string{"#"})
	var s toolSchema
	if p.says && !p.open {
		s.declared = p.keys
		if s.declared == nil {
			s.declared = map[string]bool{}
		}
		s.known = slices.Sorted(maps.Keys(s.declared))
	}
	for _, key := range slices.Sorted(maps.Keys(p.defaults)) {
		s.defaults = append(s.defaults, schemaDefault{key: key, value: p.defaults[key]})
	}
	s.choices = p.choices
	s.required = slices.Sorted(maps.Keys(p.required))
	return s
}

// schemaReader reads one schema, within the bounds.
type schemaReader struct {
	root  any
	nodes int
}

// part is what one (sub)schema says of the top-level object.
type part struct {
	keys     map[string]bool
	open     bool // takes keys beyond keys
	says     bool // says which keys it takes: lists properties, or closes itself
	consts   map[string]string
	defaults map[string]json.RawMessage
	choices  []choice
	required map[string]bool
}

// beyond is what a schema past the bounds is read as: taking any key, giving no default the
// gateway can see (like one an upstream applies without declaring it).
var beyond = part{open: true, says: true}

// read reads node, depth levels below the top, reached through the $refs in refs (to stop at a
// cycle).
//
// The keys a schema declares are the union of what its composition declares: its properties,
// those of its allOf, anyOf and oneOf branches, of its if, then and else, of its dependentSchemas
// and of its $ref's target (one within the schema itself, as pydantic's $defs and
// zod-to-json-schema's definitions). A part that takes more (additionalProperties or
// unevaluatedProperties true or a schema, patternProperties, the schema true, a $ref the gateway
// cannot resolve within the schema) makes the whole take any key. Defaults come from the parts
// the upstream applies whatever the call holds (the schema's properties, allOf branches, a $ref's
// target); those of the alternatives are choices, applied per call (arguments).
func (r *schemaReader) read(node any, depth int, refs []string) part {
	if r.nodes >= maxSchemaNodes || depth > maxSchemaDepth {
		return beyond // and each further branch at once: the rest costs no more than its decoding did
	}
	r.nodes++
	m, ok := node.(map[string]any)
	if !ok {
		if node == true {
			return part{open: true, says: true}
		}
		return part{} // false takes nothing, and anything else is no schema: neither declares keys
	}
	p := ownPart(m)
	r.compose(&p, m, depth, refs)
	return p
}

// ownPart is what the schema m says of the object itself, without its composition.
func ownPart(m map[string]any) part {
	var p part
	if props, ok := m["properties"].(map[string]any); ok {
		// Listing none is saying nothing: pydantic writes "properties": {} for a tool without
		// arguments, which takes any key as it always did; additionalProperties false closes it.
		p.says = len(props) > 0
		p.keys = make(map[string]bool, len(props))
		for key, prop := range props {
			p.keys[key] = true
			pm, _ := prop.(map[string]any)
			// A null default is no value: pydantic writes "default": null for every optional
			// parameter (x: str | None = None), and the tool then runs as if the argument were
			// absent, which is how the call is judged without it.
			if d, ok := pm["default"]; ok && d != nil {
				p.addDefault(key, canonical(d))
			}
			if c, ok := pm["const"]; ok {
				p.addConst(key, string(canonical(c)))
			} else if e, ok := pm["enum"].([]any); ok && len(e) == 1 {
				p.addConst(key, string(canonical(e[0])))
			}
		}
	}
	if required, ok := m["required"].([]any); ok {
		for _, key := range required {
			if key, isString := key.(string); isString {
				p.require(key)
			}
		}
	}
	for _, kw := range []string{"additionalProperties", "unevaluatedProperties"} {
		if v, ok := m[kw]; ok {
			p.says = true
			p.open = p.open || v != false
		}
	}
	if _, ok := m["patternProperties"]; ok {
		p.says, p.open = true, true
	}
	return p
}

// compose adds to p what the composition of m (depth levels below the top) says.
func (r *schemaReader) compose(p *part, m map[string]any, depth int, refs []string) {
	if ref, ok := m["$ref"].(string); ok {
		p.merge(r.ref(ref, depth, refs))
	}
	if all, ok := m["allOf"].([]any); ok {
		for _, b := range all {
			p.merge(r.read(b, depth+1, refs))
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if alts, ok := m[kw].([]any); ok {
			p.alternatives(kw, r.branches(alts, depth, refs), "")
		}
	}
	// A condition's then applies when its if holds, its else when it does not: alternatives too.
	// The if itself only tests the call, but the keys it names are ones the tool reads.
	if _, ok := m["if"]; ok {
		p.merge(r.read(m["if"], depth+1, refs).keysOnly())
		p.alternatives("if/then/else", r.branches([]any{m["then"], m["else"]}, depth, refs), "")
	}
	// Each of dependentSchemas (draft-07's dependencies, where a value is a schema and not a list
	// of keys) applies or not, as the call holds its key: an alternative to an empty one.
	for _, kw := range []string{"dependentSchemas", "dependencies"} {
		deps, _ := m[kw].(map[string]any)
		for _, key := range slices.Sorted(maps.Keys(deps)) {
			if _, isList := deps[key].([]any); !isList {
				p.alternatives(kw, r.branches([]any{deps[key], nil}, depth, refs), key)
			}
		}
	}
}

// ref reads the target of the $ref ref.
func (r *schemaReader) ref(ref string, depth int, refs []string) part {
	if slices.Contains(refs, ref) {
		return part{} // a cycle: the target is being read already, and adds nothing new
	}
	target, ok := r.resolve(ref)
	if !ok {
		return beyond // not within the schema: the gateway cannot see what it declares
	}
	return r.read(target, depth+1, append(slices.Clip(refs), ref))
}

// resolve finds the target of ref, a JSON pointer into the schema itself ("#", "#/$defs/Name"),
// the only kind the generators write; false for any other.
func (r *schemaReader) resolve(ref string) (any, bool) {
	pointer, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, false
	}
	pointer, err := url.PathUnescape(pointer)
	if err != nil || (pointer != "" && pointer[0] != '/') {
		return nil, false
	}
	node := r.root
	if pointer == "" {
		return node, true
	}
	for token := range strings.SplitSeq(pointer[1:], "/") {
		token = strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
		switch n := node.(type) {
		case map[string]any:
			if node, ok = n[token]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(n) {
				return nil, false
			}
			node = n[i]
		default:
			return nil, false
		}
	}
	return node, true
}

// branches reads each of alts, one alternative each; nil (an absent else) is an alternative
// that declares and gives nothing.
func (r *schemaReader) branches(alts []any, depth int, refs []string) []part {
	out := make([]part, 0, len(alts))
	for _, alt := range alts {
		if alt == nil {
			out = append(out, part{})
			continue
		}
		out = append(out, r.read(alt, depth+1, refs))
	}
	return out
}

// merge adds q, a part that applies whenever p does (allOf, $ref), to p.
func (p *part) merge(q part) {
	p.open, p.says = p.open || q.open, p.says || q.says
	for key := range q.keys {
		if p.keys == nil {
			p.keys = map[string]bool{}
		}
		p.keys[key] = true
	}
	for key, c := range q.consts {
		p.addConst(key, c)
	}
	for key, d := range q.defaults {
		p.addDefault(key, d)
	}
	for key := range q.required {
		p.require(key)
	}
	p.choices = append(p.choices, q.choices...)
}

// keysOnly is p without its defaults, consts and required keys: what an alternative, which may
// not apply, adds to the whole.
func (p part) keysOnly() part { return part{keys: p.keys, open: p.open, says: p.says} }

// alternatives adds alts, of which the upstream applies one (the call's match), to p: their keys
// all, their defaults as a choice, when any gives one. With when, alts are a dependent schema
// and an empty one: the first applies when the call holds the key when, the second when not.
func (p *part) alternatives(keyword string, alts []part, when string) {
	c := choice{keyword: keyword}
	gives := false
	for i, alt := range alts {
		p.merge(alt.keysOnly())
		b := branch{consts: alt.consts, defaults: alt.defaults, when: when, whenAbsent: i > 0}
		// A choice within the alternative: each key it gives a default is one the alternative
		// may or may not take, unless every one of its branches takes the same.
		for _, inner := range alt.choices {
			for key, d := range inner.agreed() {
				if _, ok := b.defaults[key]; !ok {
					if b.defaults == nil {
						b.defaults = map[string]json.RawMessage{}
					}
					b.defaults[key] = d
				}
			}
		}
		gives = gives || len(b.defaults) > 0
		c.branches = append(c.branches, b)
	}
	if gives {
		p.choices = append(p.choices, c)
	}
}

// agreed are the defaults of c by key: the value every branch gives it, or nil where they do not
// all give the same.
func (c choice) agreed() map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for _, b := range c.branches {
		for key := range b.defaults {
			out[key] = nil
		}
	}
	for key := range out {
		out[key] = sameDefault(c.branches, key)
	}
	return out
}

// sameDefault is the default every one of branches gives key; nil when any gives none, an
// unknown one, or another.
func sameDefault(branches []branch, key string) json.RawMessage {
	var same json.RawMessage
	for i, b := range branches {
		d := b.defaults[key]
		if d == nil || (i > 0 && !bytes.Equal(d, same)) {
			return nil
		}
		same = d
	}
	return same
}

func (p *part) addDefault(key string, d json.RawMessage) {
	if p.defaults == nil {
		p.defaults = map[string]json.RawMessage{}
	}
	if prev, ok := p.defaults[key]; ok && !bytes.Equal(prev, d) {
		d = nil // two parts that both apply give two values: which one the upstream takes is unknown
	}
	p.defaults[key] = d
}

func (p *part) require(key string) {
	if p.required == nil {
		p.required = map[string]bool{}
	}
	p.required[key] = true
}

func (p *part) addConst(key, c string) {
	if p.consts == nil {
		p.consts = map[string]string{}
	}
	if _, ok := p.consts[key]; !ok {
		p.consts[key] = c
	}
}

// canonical is v, decoded JSON, encoded again: keys sorted, no space, so equal values are equal
// bytes.
func canonical(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil { // decoded JSON always marshals
		return nil
	}
	return data
}
