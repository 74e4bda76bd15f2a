package gateway

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Bounds on reading one tool's input schema, which its upstream writes: a schema nested or
// branched beyond them, or whose $refs lead in circles or fan out, costs the listing no more than
// this, and is read as taking any key (see read).
const (
	// maxSchemaDepth bounds how deeply allOf, anyOf, oneOf, if/then/else, dependentSchemas and
	// $ref nest below one (sub)schema: the top-level one, or the one of a value below it.
	maxSchemaDepth = 8
	// maxSchemaNodes bounds how many (sub)schemas are read for one tool, a $ref's target each
	// time it is reached: the top-level object's first, then those of the values below it.
	maxSchemaNodes = 1024
)

// toolSchema is what the gateway takes from one tool's input schema, read once per upstream
// connection when its tools are listed (readToolSchema), and applied to each call's arguments
// (arguments): its top-level object's node, and the keys that object declares and requires.
type toolSchema struct {
	*schemaNode
	// declared are the top-level argument keys the schema declares; nil when it takes any key.
	declared map[string]bool
	// known is declared, sorted, for the refusal that names them.
	known []string
	// unread: the top-level object's own schema (its composition, not its values' schemas) lies
	// beyond the bounds, so neither the keys it takes nor the defaults it fills in are seen.
	unread bool
}

// requiredKeys are the keys s requires of every call; none for no schema.
func (s *toolSchema) requiredKeys() []string {
	if s == nil {
		return nil
	}
	return s.required
}

// schemaNode is what the schemas that apply to one value of the arguments (the top-level object,
// or a value below it) say of the defaults the upstream writes into it: of an object's keys, of
// an array's elements, at every depth. The nodes of a tool's schema form a graph, each value's
// once (compiler.node): a schema that refers to itself ($ref) for a value below it is a cycle,
// walked as deep as a call's arguments nest.
type schemaNode struct {
	// defaults are the defaults the upstream applies to an object's keys whatever else it holds
	// (properties, allOf branches, a $ref's target), by key, sorted. A nil value is a key given
	// two different ones: the gateway cannot tell which the upstream takes.
	defaults []schemaDefault
	// choices are the anyOf and oneOf (and if/then/else, dependentSchemas) of the schema: which
	// of their branches the upstream applies depends on the value.
	choices []choice
	// required are the keys the parts that always apply require, sorted: a call without one
	// of the top-level ones the upstream refuses, once admitted and sent
	// (toolcall.ArgumentMap.Present); an object without one below is not created with defaults.
	required []string
	// nulls are the keys given a null default: none, which the upstream runs as left out.
	nulls map[string]bool
	// consts are the keys the schema requires a value of (const, or an enum of one value: a
	// discriminator), by key, as canonical JSON. An object giving such a key another value does
	// not match it, as a branch.
	consts map[string]string
	// noObject and noArray: its "type" takes no object, or no array (a branch a value of that
	// type cannot match: pydantic's {"type": "null"} beside a model).
	noObject, noArray bool
	// props are the nodes of the values of the keys the parts that always apply declare (nil
	// for one declared without a schema); others is that of every other key's
	// (additionalProperties, a map's values), items that of an array's elements.
	props         map[string]*schemaNode
	others, items *schemaNode
	// prefix are the nodes of a tuple's elements, by place; items is then that of the rest.
	prefix []*schemaNode
	// patterns are the nodes of the values of the keys that regular expressions match
	// (patternProperties), sorted by expression; others is then that of the keys none matches.
	patterns []patternNode
	// unread: the schema is nested or branched beyond the bounds here, and its defaults unseen.
	unread bool
	// fills: the node writes something into some value (or, unread, cannot tell), at some
	// depth; fillsEmpty: into an empty object. Computed once the graph is built (compiler.settle).
	fills, fillsEmpty bool
	// cyclic: the node's object, left out, would be created inside itself (a key of it, left
	// out, whose object is created, and so on, leads back to it), without end: no upstream
	// creates it (the Go SDK's server follows no $ref to create one, and a pydantic model whose
	// default_factory builds itself never ends), and a call could never name every one.
	cyclic bool
}

// patternNode is the node of the values of the keys pattern matches; re is nil where Go's
// regexp cannot read it (it is ECMAScript's).
type patternNode struct {
	pattern string
	re      *regexp.Regexp
	node    *schemaNode
}

// valueNode is the node of the value of key in an object of n, and whether the gateway can tell
// it: the key's property, the patterns' it matches and, where it is none of those, every other
// key's (additionalProperties) all apply, as JSON Schema applies them; of those that fill
// something in, there must be at most one (two are not merged per key), and none that may or may
// not apply (a pattern Go's regexp cannot read).
func (n *schemaNode) valueNode(key string) (*schemaNode, bool) {
	child, declared := n.props[key]
	var surely, maybe []*schemaNode
	if declared {
		surely = append(surely, child)
	}
	matched := false
	for _, p := range n.patterns {
		switch {
		case p.re == nil:
			maybe = append(maybe, p.node)
		case p.re.MatchString(key):
			surely, matched = append(surely, p.node), true
		}
	}
	if !declared && !matched {
		if len(maybe) == 0 {
			surely = append(surely, n.others)
		} else {
			maybe = append(maybe, n.others)
		}
	}
	fills := func(n *schemaNode) bool { return n != nil && n.fills }
	if slices.ContainsFunc(maybe, fills) {
		return nil, false
	}
	surely = slices.DeleteFunc(surely, func(n *schemaNode) bool { return !fills(n) })
	switch len(surely) {
	case 0:
		return nil, true
	case 1:
		return surely[0], true
	}
	return nil, false
}

// schemaDefault is one argument an upstream tool's input schema gives a default: what the tool
// takes when the agent leaves the argument out.
type schemaDefault struct {
	key   string
	value json.RawMessage // nil: more than one, see schemaNode.defaults
}

// choice is one set of alternatives (anyOf, oneOf, a condition's then and else, a dependent
// schema and none) of which the upstream applies the one the value matches.
type choice struct {
	keyword  string
	branches []branch
}

// branch is one alternative of a choice.
type branch struct {
	*schemaNode
	// when, if not empty, is the key whose presence in the object (or, with whenAbsent,
	// absence) the branch applies by: a dependent schema's.
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
	p := r.read(schema, 0, "#", []string{"#"})
	s := toolSchema{schemaNode: &schemaNode{}, unread: p.cut}
	if p.says && !p.open {
		s.declared = p.keys
		if s.declared == nil {
			s.declared = map[string]bool{}
		}
		s.known = slices.Sorted(maps.Keys(s.declared))
	}
	c := compiler{r: r, nodes: map[string]*schemaNode{"#": s.schemaNode}}
	c.build(s.schemaNode, p, true)
	c.settle()
	return s
}

// schemaReader reads one schema, within the bounds.
type schemaReader struct {
	root  any
	nodes int
}

// part is what one (sub)schema says of the value it describes.
type part struct {
	keys     map[string]bool
	open     bool // takes keys beyond keys
	says     bool // says which keys it takes: lists properties, or closes itself
	cut      bool // read only in part: beyond the bounds
	consts   map[string]string
	defaults map[string]json.RawMessage
	nulls    map[string]bool
	required map[string]bool
	// noObject and noArray: its type takes no object, no array.
	noObject, noArray bool
	// props are the schemas of each key's value (none for a key declared without one), others
	// those of every other key's, items those of an array's elements: below this value.
	props         map[string][]located
	others, items []located
	// prefix are those of a tuple's elements, by place (prefixItems, or items as a list): items
	// are then those of the elements past them (additionalItems, where items is a list).
	prefix [][]located
	// patterns are those of the values of the keys each regular expression matches
	// (patternProperties), by expression.
	patterns map[string][]located
	alts     []alternatives
}

// located is a schema and where it is in the tool's schema, a JSON pointer: what names its node.
type located struct {
	at     string
	schema any
}

// alternatives are the branches of one choice, as read.
type alternatives struct {
	keyword  string
	branches []part
	when     string
}

// beyond is what a schema past the bounds is read as: taking any key, giving no default the
// gateway can see, and cut: below the top level an object or array there is refused (see
// schemaNode.unread), at the top level every call of the tool (toolSchema.unseen).
var beyond = part{open: true, says: true, cut: true}

// read reads node, found at at (a JSON pointer), depth levels below the (sub)schema being read,
// reached through the $refs in refs (to stop at a cycle).
//
// The keys a schema declares are the union of what its composition declares: its properties,
// those of its allOf, anyOf and oneOf branches, of its if, then and else, of its dependentSchemas
// and of its $ref's target (one within the schema itself, as pydantic's $defs and
// zod-to-json-schema's definitions). A part that takes more (additionalProperties or
// unevaluatedProperties true or a schema, patternProperties, the schema true, a $ref the gateway
// cannot resolve within the schema) makes the whole take any key. Defaults come from the parts
// the upstream applies whatever the value holds (the schema's properties, allOf branches, a $ref's
// target); those of the alternatives are choices, applied per value (schemaNode.fill).
func (r *schemaReader) read(node any, depth int, at string, refs []string) part {
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
	p := ownPart(m, at)
	r.compose(&p, m, depth, at, refs)
	return p
}

// ownPart is what the schema m, found at at, says of the value itself, without its composition.
func ownPart(m map[string]any, at string) part {
	var p part
	if props, ok := m["properties"].(map[string]any); ok {
		// Listing none is saying nothing: pydantic writes "properties": {} for a tool without
		// arguments, which takes any key as it always did; additionalProperties false closes it.
		p.says = len(props) > 0
		p.keys = make(map[string]bool, len(props))
		p.props = make(map[string][]located, len(props))
		for key, prop := range props {
			p.keys[key] = true
			p.props[key] = nil
			pm, isSchema := prop.(map[string]any)
			if isSchema {
				p.props[key] = []located{{at + "/properties/" + pointerToken(key), pm}}
			}
			// A null default is no value: pydantic writes "default": null for every optional
			// parameter (x: str | None = None), and the tool then runs as if the argument were
			// absent, which is how the call is judged without it.
			if d, ok := pm["default"]; ok && d != nil {
				p.addDefault(key, canonical(d))
			} else if ok {
				p.addNull(key)
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
	if v, ok := m["additionalProperties"].(map[string]any); ok {
		p.others = []located{{at + "/additionalProperties", v}}
	}
	p.items, p.prefix = elements(m, at)
	if patterns, ok := m["patternProperties"]; ok {
		p.says, p.open = true, true
		p.patterns = patternSchemas(patterns, at)
	}
	p.noObject, p.noArray = !takesType(m["type"], "object"), !takesType(m["type"], "array")
	return p
}

// elements are the schemas of an array's elements that m, found at at, gives: by place, of a
// tuple (prefix: prefixItems, or, in draft-07 and before, items as a list), and of the others
// (items; additionalItems where items is a list).
func elements(m map[string]any, at string) (items []located, prefix [][]located) {
	if v, ok := m["items"].(map[string]any); ok {
		items = []located{{at + "/items", v}}
	}
	tuple, _ := m["prefixItems"].([]any)
	kw := "/prefixItems/"
	if list, ok := m["items"].([]any); ok && tuple == nil {
		tuple, kw = list, "/items/"
		if v, ok := m["additionalItems"].(map[string]any); ok {
			items = []located{{at + "/additionalItems", v}}
		}
	}
	prefix = make([][]located, len(tuple))
	for i, e := range tuple {
		if v, ok := e.(map[string]any); ok {
			prefix[i] = []located{{at + kw + strconv.Itoa(i), v}}
		}
	}
	return items, prefix
}

// patternSchemas are the schemas of patternProperties, found at at, by pattern; nil for none.
func patternSchemas(patterns any, at string) map[string][]located {
	var out map[string][]located
	pm, _ := patterns.(map[string]any)
	for pattern, v := range pm {
		if v, ok := v.(map[string]any); ok {
			if out == nil {
				out = map[string][]located{}
			}
			out[pattern] = []located{{at + "/patternProperties/" + pointerToken(pattern), v}}
		}
	}
	return out
}

// takesType says whether t, a schema's "type", takes values of the type name: no type takes all.
func takesType(t any, name string) bool {
	switch t := t.(type) {
	case string:
		return t == name
	case []any:
		return slices.Contains(t, any(name))
	}
	return true
}

// pointerToken is key as one token of a JSON pointer.
func pointerToken(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// compose adds to p what the composition of m, found at at, depth levels below the (sub)schema
// being read, says.
func (r *schemaReader) compose(p *part, m map[string]any, depth int, at string, refs []string) {
	if ref, ok := m["$ref"].(string); ok {
		p.merge(r.ref(ref, depth, refs))
	}
	if all, ok := m["allOf"].([]any); ok {
		for i, b := range all {
			p.merge(r.read(b, depth+1, at+"/allOf/"+strconv.Itoa(i), refs))
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if alts, ok := m[kw].([]any); ok {
			p.alternatives(kw, r.branches(alts, depth, at+"/"+kw, refs), "")
		}
	}
	// A condition's then applies when its if holds, its else when it does not: alternatives too.
	// The if itself only tests the call, but the keys it names are ones the tool reads.
	if _, ok := m["if"]; ok {
		p.merge(r.read(m["if"], depth+1, at+"/if", refs).keysOnly())
		then := r.branches([]any{m["then"]}, depth, at+"/then", refs)
		otherwise := r.branches([]any{m["else"]}, depth, at+"/else", refs)
		p.alternatives("if/then/else", append(then, otherwise...), "")
	}
	// Each of dependentSchemas (draft-07's dependencies, where a value is a schema and not a list
	// of keys) applies or not, as the value holds its key: an alternative to an empty one.
	for _, kw := range []string{"dependentSchemas", "dependencies"} {
		deps, _ := m[kw].(map[string]any)
		for _, key := range slices.Sorted(maps.Keys(deps)) {
			if _, isList := deps[key].([]any); !isList {
				p.alternatives(kw, r.branches([]any{deps[key], nil}, depth, at+"/"+kw+"/"+pointerToken(key), refs), key)
			}
		}
	}
}

// ref reads the target of the $ref ref.
func (r *schemaReader) ref(ref string, depth int, refs []string) part {
	at, target, ok := r.resolve(ref)
	if !ok {
		return part{open: true, says: true} // not within the schema: the gateway cannot see what it declares
	}
	if slices.Contains(refs, at) {
		return part{} // a cycle: the target is being read already, and adds nothing new
	}
	return r.read(target, depth+1, at, append(slices.Clip(refs), at))
}

// resolve finds the target of ref, a JSON pointer into the schema itself ("#", "#/$defs/Name"),
// the only kind the generators write, and where it is ("#" and the pointer unescaped); false for
// any other.
func (r *schemaReader) resolve(ref string) (string, any, bool) {
	pointer, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "", nil, false
	}
	pointer, err := url.PathUnescape(pointer)
	if err != nil || (pointer != "" && pointer[0] != '/') {
		return "", nil, false
	}
	node := r.root
	if pointer == "" {
		return "#", node, true
	}
	for token := range strings.SplitSeq(pointer[1:], "/") {
		token = strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
		switch n := node.(type) {
		case map[string]any:
			if node, ok = n[token]; !ok {
				return "", nil, false
			}
		case []any:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(n) {
				return "", nil, false
			}
			node = n[i]
		default:
			return "", nil, false
		}
	}
	return "#" + pointer, node, true
}

// branches reads each of alts, found at at (with its index, when there is more than one), one
// alternative each; nil (an absent else) is an alternative that declares and gives nothing.
func (r *schemaReader) branches(alts []any, depth int, at string, refs []string) []part {
	out := make([]part, 0, len(alts))
	for i, alt := range alts {
		if alt == nil {
			out = append(out, part{})
			continue
		}
		where := at
		if len(alts) > 1 {
			where += "/" + strconv.Itoa(i)
		}
		out = append(out, r.read(alt, depth+1, where, refs))
	}
	return out
}

// merge adds q, a part that applies whenever p does (allOf, $ref), to p.
func (p *part) merge(q part) {
	p.open, p.says, p.cut = p.open || q.open, p.says || q.says, p.cut || q.cut
	p.noObject, p.noArray = p.noObject || q.noObject, p.noArray || q.noArray
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
	for key := range q.nulls {
		p.addNull(key)
	}
	for key := range q.required {
		p.require(key)
	}
	for key, schemas := range q.props {
		if p.props == nil {
			p.props = map[string][]located{}
		}
		p.props[key] = append(p.props[key], schemas...)
	}
	p.others = append(p.others, q.others...)
	p.items = append(p.items, q.items...)
	for pattern, schemas := range q.patterns {
		if p.patterns == nil {
			p.patterns = map[string][]located{}
		}
		p.patterns[pattern] = append(p.patterns[pattern], schemas...)
	}
	for i, schemas := range q.prefix {
		if i == len(p.prefix) {
			p.prefix = append(p.prefix, nil)
		}
		p.prefix[i] = append(p.prefix[i], schemas...)
	}
	p.alts = append(p.alts, q.alts...)
}

// keysOnly is what an alternative, which may not apply, adds to the whole of the keys it takes.
func (p part) keysOnly() part { return part{keys: p.keys, open: p.open, says: p.says, cut: p.cut} }

// alternatives adds alts, of which the upstream applies one (the value's match), to p: their keys
// all, the rest as a choice. With when, alts are a dependent schema and an empty one: the first
// applies when the object holds the key when, the second when not.
func (p *part) alternatives(keyword string, alts []part, when string) {
	for _, alt := range alts {
		p.merge(alt.keysOnly())
	}
	p.alts = append(p.alts, alternatives{keyword: keyword, branches: alts, when: when})
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

func (p *part) addNull(key string) {
	if p.nulls == nil {
		p.nulls = map[string]bool{}
	}
	p.nulls[key] = true
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

// compiler builds the nodes of one tool's schema from what its reader reads: each value's once,
// by where its schemas are, so that a schema referring to itself for a value below it is a
// cycle of the graph and not a tree read without end.
type compiler struct {
	r     *schemaReader
	nodes map[string]*schemaNode
	all   []*schemaNode
}

// node is the node of a value that all of schemas apply to; nil for none.
func (c *compiler) node(schemas []located) *schemaNode {
	if len(schemas) == 0 {
		return nil
	}
	schemas = slices.Clone(schemas)
	slices.SortFunc(schemas, func(a, b located) int { return strings.Compare(a.at, b.at) })
	schemas = slices.CompactFunc(schemas, func(a, b located) bool { return a.at == b.at })
	ats := make([]string, len(schemas))
	for i, s := range schemas {
		ats[i] = strconv.Quote(s.at)
	}
	key := strings.Join(ats, ",")
	if n, ok := c.nodes[key]; ok {
		return n
	}
	n := &schemaNode{}
	c.nodes[key] = n
	var p part
	for _, s := range schemas {
		p.merge(c.r.read(s.schema, 0, s.at, []string{s.at}))
	}
	c.build(n, p, false)
	return n
}

// build makes n what p says, and the nodes below it. A node of the top-level object (top), or
// of one of its branches, read beyond the bounds takes any key and gives the defaults read, and
// its tool is sent no call (toolSchema.unseen); one below it is unread, see schemaNode.fill.
func (c *compiler) build(n *schemaNode, p part, top bool) {
	c.all = append(c.all, n)
	for _, key := range slices.Sorted(maps.Keys(p.defaults)) {
		n.defaults = append(n.defaults, schemaDefault{key: key, value: p.defaults[key]})
	}
	n.required = slices.Sorted(maps.Keys(p.required))
	n.nulls, n.consts, n.noObject, n.noArray, n.unread = p.nulls, p.consts, p.noObject, p.noArray, p.cut && !top
	if len(p.props) > 0 {
		n.props = make(map[string]*schemaNode, len(p.props))
		for _, key := range slices.Sorted(maps.Keys(p.props)) {
			n.props[key] = c.node(p.props[key])
		}
	}
	n.others, n.items = c.node(p.others), c.node(p.items)
	for _, schemas := range p.prefix {
		n.prefix = append(n.prefix, c.node(schemas))
	}
	for _, pattern := range slices.Sorted(maps.Keys(p.patterns)) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			re = nil // ECMAScript's, which RE2 does not read (a lookahead): it may match any key
		}
		n.patterns = append(n.patterns, patternNode{pattern: pattern, re: re, node: c.node(p.patterns[pattern])})
	}
	for _, a := range p.alts {
		ch := choice{keyword: a.keyword}
		for i, b := range a.branches {
			bn := &schemaNode{}
			c.build(bn, b, top)
			ch.branches = append(ch.branches, branch{schemaNode: bn, when: a.when, whenAbsent: a.when != "" && i > 0})
		}
		n.choices = append(n.choices, ch)
	}
}

// settle works out, for every node, whether it fills anything in (the graph may have cycles:
// each starts at no and turns yes at most once), and drops the choices none of whose branches
// does, which change no value.
func (c *compiler) settle() {
	for _, n := range c.all {
		n.cyclic = n.createdWithin(n, map[*schemaNode]bool{})
	}
	for changed := true; changed; {
		changed = false
		for _, n := range c.all {
			empty := n.fillsEmpty || n.writesIntoEmpty()
			fills := n.fills || empty || n.unread || n.writesBelow()
			if empty != n.fillsEmpty || fills != n.fills {
				n.fillsEmpty, n.fills, changed = empty, fills, true
			}
		}
	}
	for _, n := range c.all {
		n.choices = slices.DeleteFunc(n.choices, func(ch choice) bool {
			return !slices.ContainsFunc(ch.branches, func(b branch) bool { return b.fills })
		})
	}
}

// writesIntoEmpty says whether n, as far as settled, writes something into an empty object (or
// refuses it, unsure what to write).
func (n *schemaNode) writesIntoEmpty() bool {
	if len(n.defaults) > 0 {
		return true
	}
	for key := range n.props {
		if n.creates(key) {
			return true
		}
	}
	for _, ch := range n.choices {
		for _, b := range ch.branches {
			if b.fillsEmpty && b.liveInEmpty() {
				return true
			}
		}
	}
	return false
}

// liveInEmpty says whether an empty object can match b.
func (b branch) liveInEmpty() bool { return !b.noObject && (b.when == "" || b.whenAbsent) }

// createdWithin says whether an object of n, created, would hold one of target, created too, at
// some depth: through the keys whose objects an upstream may create when they are left out, and
// the alternatives an empty object can match. seen are the nodes already followed.
func (n *schemaNode) createdWithin(target *schemaNode, seen map[*schemaNode]bool) bool {
	if seen[n] {
		return false
	}
	seen[n] = true
	for key, child := range n.props {
		if child != nil && !child.noObject && n.mayCreate(key) && (child == target || child.createdWithin(target, seen)) {
			return true
		}
	}
	for _, ch := range n.choices {
		for _, b := range ch.branches {
			if b.liveInEmpty() && (b.schemaNode == target || b.createdWithin(target, seen)) {
				return true
			}
		}
	}
	return false
}

// writesBelow says whether n, as far as settled, writes something into a value below an object
// or an array, or into one of its alternatives.
func (n *schemaNode) writesBelow() bool {
	for _, child := range n.props {
		if child != nil && child.fills {
			return true
		}
	}
	if (n.others != nil && n.others.fills) || (n.items != nil && n.items.fills) {
		return true
	}
	for _, child := range n.prefix {
		if child != nil && child.fills {
			return true
		}
	}
	for _, p := range n.patterns {
		if p.node != nil && p.node.fills {
			return true
		}
	}
	for _, ch := range n.choices {
		for _, b := range ch.branches {
			if b.fills {
				return true
			}
		}
	}
	return false
}

// mayCreate says whether an upstream may create the object key when it is left out: it is
// neither required (the upstream refuses an object without it) nor given a null default (the
// upstream takes it as left out).
func (n *schemaNode) mayCreate(key string) bool {
	return !slices.Contains(n.required, key) && !n.nulls[key]
}

// creates says whether an upstream may create the object key, left out, with defaults in it
// (see schemaNode.fill), as far as settled.
func (n *schemaNode) creates(key string) bool {
	child := n.props[key]
	return child != nil && child.fillsEmpty && !child.cyclic && n.mayCreate(key)
}
