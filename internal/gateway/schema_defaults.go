package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/internal/jsonobject"
)

// maxFillSteps bounds the nodes one call's arguments are filled by (schemaNode.fill), each
// value by each node that applies to it: an array of many objects, alternatives that each must
// be tried, cost no more than this.
const maxFillSteps = 1 << 14

// arguments are args as the upstream takes them, walked once: refused (-32602) when they hold a
// top-level key the tool's schema does not declare (undeclared), and otherwise with every default
// the schema gives a key they leave out written in, explicitly, at every depth (fill).
//
// An upstream fills those in itself (the Go SDK's server and zod apply a schema's defaults,
// pydantic a parameter's and a model's fields'), so without them the engine and the argument
// rules would judge a call that names no path (nothing to check) while the tool reads the path
// its schema names: a read whose default is .env, a command run in a default directory of "/",
// an {"opts": {}} run with the default force of its model. With them the call is judged as the
// tool takes it, and the tool is sent what was judged.
// Arguments that are not one JSON object are left as they are, for toolcall.Build to refuse.
func (s *toolSchema) arguments(args json.RawMessage, tool string) (json.RawMessage, error) {
	if s == nil || (s.declared == nil && !s.fills) {
		return args, nil
	}
	obj := bytes.TrimSpace(args)
	if len(obj) == 0 || bytes.Equal(obj, []byte("null")) {
		obj = []byte("{}")
	}
	v := &jsonValue{raw: obj}
	if v.open() != nil || v.kind != '{' {
		return args, nil
	}
	if err := s.undeclared(v.members, tool); err != nil {
		return nil, err
	}
	f := &filler{tool: tool}
	if err := s.fill(v, f, "", 1); err != nil {
		return nil, err
	}
	if !v.edited {
		return args, nil
	}
	return v.encode(), nil
}

// filler is one call's filling in: the tool named in its refusals, and the steps taken.
type filler struct {
	tool  string
	steps int
}

// fill writes into v, found at at (the path of the argument it is, "" for the arguments
// themselves) and depth levels deep, what n says the upstream writes into it:
//
//   - into an object, the defaults of the keys it leaves out, then, into each value it holds
//     (those just written included), what that key's node says; an absent key whose object the
//     upstream may create with defaults in it (its node writes into an empty one) refuses the
//     value, unsure, since pydantic (a default_factory) and the Go SDK's server create it while
//     zod leaves it out: the call must name it;
//   - into an array, into each element what the node of its items says;
//   - of each choice, what the branches the value can still match write: their one result when
//     they agree, and where they differ (some give a key one default, others another or none),
//     a refusal unless the call names that key, since the gateway cannot tell which the
//     upstream applies.
//
// A node read beyond the bounds (unread) refuses an object or array below the top level, whose
// defaults it cannot see. Values nested deeper than argrules.MaxDepth are left as they are:
// toolcall.Build refuses them.
func (n *schemaNode) fill(v *jsonValue, f *filler, at string, depth int) error {
	if n == nil || !n.fills || depth > argrules.MaxDepth {
		return nil
	}
	if err := v.open(); err != nil || (v.kind != '{' && v.kind != '[') {
		return nil // a scalar takes no default within, and the value was read as JSON once already
	}
	if f.steps++; f.steps > maxFillSteps {
		return invalidParams("writing the defaults of tool %q's input schema into its arguments takes more than %d "+
			"steps; the call cannot be judged as the tool takes it", f.tool, maxFillSteps)
	}
	if n.unread {
		return invalidParams("tool %q's input schema is nested or composed beyond what the gateway reads at the "+
			"argument %q, so the defaults the tool may fill in there are unseen; leave it out, or give it no object "+
			"or array", f.tool, at)
	}
	if v.kind == '{' {
		if err := n.fillObject(v, f, at, depth); err != nil {
			return err
		}
	} else if err := n.fillElems(v, f, at, depth); err != nil {
		return err
	}
	held := len(v.members)
	for _, ch := range n.choices {
		if err := ch.fill(v, f, at, depth); err != nil {
			return err
		}
	}
	if v.kind != '{' {
		return nil
	}
	// The members a branch wrote in take what n says of their keys too, and only now is it
	// known which keys the object leaves out.
	if err := n.fillMembers(v, held, f, at, depth); err != nil {
		return err
	}
	return n.created(v, f.tool, at)
}

// fillElems writes into each element of v, an array of n, what the node of its elements says:
// that of its place in a tuple (n.prefix), past them that of the rest (n.items).
func (n *schemaNode) fillElems(v *jsonValue, f *filler, at string, depth int) error {
	for i, e := range v.elems {
		child := n.items
		if i < len(n.prefix) {
			child = n.prefix[i]
		}
		if err := child.fill(e, f, at+"["+strconv.Itoa(i)+"]", depth+1); err != nil {
			return err
		}
		v.edited = v.edited || e.edited
	}
	return nil
}

// created refuses v, an object filled in, when it leaves out a key whose object an upstream may
// create with defaults in it (see fill).
func (n *schemaNode) created(v *jsonValue, tool, at string) error {
	for _, key := range slices.Sorted(maps.Keys(n.props)) {
		if n.creates(key) && v.member(key) == nil {
			return invalidParams("tool %q's input schema gives defaults inside the argument %q, and none to the "+
				"argument itself: some servers create it with them (pydantic's default_factory, the Go SDK's), others "+
				"leave it out (zod's optional), which the gateway cannot tell; name %q in the call (an empty object "+
				"takes its defaults), so that what the tool takes is judged", tool, path(at, key), path(at, key))
		}
	}
	return nil
}

// fillObject writes into v, an object, n's defaults of the keys it leaves out, then into each of
// its values what n says of its key (see fill).
func (n *schemaNode) fillObject(v *jsonValue, f *filler, at string, depth int) error {
	for _, d := range n.defaults {
		if v.member(d.key) != nil {
			continue
		}
		if d.value == nil {
			return unsureDefault(f.tool, path(at, d.key), "allOf")
		}
		v.add(d.key, d.value)
	}
	return n.fillMembers(v, 0, f, at, depth)
}

// fillMembers writes into the values of v's members from the first on what n says of their keys.
func (n *schemaNode) fillMembers(v *jsonValue, first int, f *filler, at string, depth int) error {
	for _, m := range v.members[first:] {
		child, sure := n.valueNode(m.key)
		if !sure {
			if err := m.value.open(); err == nil && (m.value.kind == '{' || m.value.kind == '[') {
				return invalidParams("tool %q's input schema gives the value of the argument %q defaults by more than "+
					"one of its properties and patternProperties, or by a pattern the gateway cannot read, so the "+
					"defaults the tool fills in there are unseen; give it no object or array", f.tool, path(at, m.key))
			}
			continue
		}
		if err := child.fill(m.value, f, path(at, m.key), depth+1); err != nil {
			return err
		}
		v.edited = v.edited || m.value.edited
	}
	return nil
}

// fill writes into v what the branches of ch that v can match write, when they agree (see
// schemaNode.fill).
func (ch choice) fill(v *jsonValue, f *filler, at string, depth int) error {
	var live []branch
	for _, b := range ch.branches {
		if b.matches(v) {
			live = append(live, b)
		}
	}
	if !slices.ContainsFunc(live, func(b branch) bool { return b.fills }) {
		return nil
	}
	if len(live) == 1 {
		return live[0].fill(v, f, at, depth)
	}
	var first json.RawMessage
	var filled *jsonValue
	for _, b := range live {
		w := v.clone()
		if err := b.fill(w, f, at, depth); err != nil {
			return err
		}
		got := w.encode()
		if filled == nil {
			first, filled = got, w
		} else if key, differ := difference(first, got, at); differ {
			return unsureDefault(f.tool, key, ch.keyword)
		}
	}
	*v = *filled
	return nil
}

// matches says whether v can match b: an object that gives none of b's consts another value, and
// holds b's when key (or, whenAbsent, does not), or an array, unless b's type takes none.
func (b branch) matches(v *jsonValue) bool {
	switch v.kind {
	case '[':
		return !b.noArray
	case '{':
	default:
		return true
	}
	if b.noObject {
		return false
	}
	if b.when != "" && (v.member(b.when) != nil) == b.whenAbsent {
		return false
	}
	for key, c := range b.consts {
		m := v.member(key)
		if m == nil {
			continue
		}
		var decoded any
		if json.Unmarshal(m.value.encode(), &decoded) != nil || string(canonical(decoded)) != c {
			return false
		}
	}
	return true
}

// difference is the path below at of the first key (in sorted order) at which a and b, two
// results of filling in one value, differ, and whether they do.
func difference(a, b json.RawMessage, at string) (string, bool) {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return at, !bytes.Equal(a, b)
	}
	return differenceOf(x, y, at)
}

func differenceOf(x, y any, at string) (string, bool) {
	switch x := x.(type) {
	case map[string]any:
		if y, ok := y.(map[string]any); ok {
			keys := slices.Collect(maps.Keys(x))
			for key := range y {
				if _, both := x[key]; !both {
					keys = append(keys, key)
				}
			}
			slices.Sort(keys)
			for _, key := range keys {
				if key, differ := differenceOf(x[key], y[key], path(at, key)); differ {
					return key, true
				}
			}
			return "", false
		}
	case []any:
		if y, ok := y.([]any); ok && len(x) == len(y) {
			for i := range x {
				if key, differ := differenceOf(x[i], y[i], at+"["+strconv.Itoa(i)+"]"); differ {
					return key, true
				}
			}
			return "", false
		}
	}
	return at, !bytes.Equal(canonical(x), canonical(y))
}

// path is the argument key within the one at at ("" for the arguments themselves).
func path(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

// unsureDefault refuses a call that leaves out key, to which the tool's schema gives defaults the
// gateway cannot choose between (in its keyword).
func unsureDefault(tool, key, keyword string) error {
	return invalidParams("tool %q's input schema gives the argument %q a default that depends on which of its %s "+
		"the tool matches, which the gateway cannot tell; name %q in the call, so that what the tool takes is judged",
		tool, key, keyword, key)
}

func invalidParams(format string, a ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, a...)}
}

// jsonValue is one value of a call's arguments while defaults are written in: the JSON the agent
// wrote (raw) until it is opened, then an object's members (the agent's, in order, then those
// written in) or an array's elements.
type jsonValue struct {
	raw     json.RawMessage
	opened  bool
	kind    byte // '{', '[', or another value's first byte
	members []member
	written int // how many of members were written in, at their end
	elems   []*jsonValue
	edited  bool // something was written into it or below it: encode builds it anew
}

type member struct {
	key   string
	value *jsonValue
}

// open reads v's members or elements, once.
func (v *jsonValue) open() error {
	if v.opened {
		return nil
	}
	v.opened = true
	v.raw = bytes.TrimSpace(v.raw)
	if len(v.raw) == 0 {
		return jsonobject.ErrNotOneObject
	}
	v.kind = v.raw[0]
	switch v.kind {
	case '{':
		for m, err := range jsonobject.Fields(v.raw) {
			if err != nil {
				return err
			}
			v.members = append(v.members, member{key: m.Key, value: &jsonValue{raw: m.Value}})
		}
	case '[':
		var elems []json.RawMessage
		if err := json.Unmarshal(v.raw, &elems); err != nil {
			return err
		}
		for _, e := range elems {
			v.elems = append(v.elems, &jsonValue{raw: e})
		}
	}
	return nil
}

// member is the member key of the object v; nil when it holds none.
func (v *jsonValue) member(key string) *member {
	for i := range v.members {
		if v.members[i].key == key {
			return &v.members[i]
		}
	}
	return nil
}

// add writes key into the object v at value, a default.
func (v *jsonValue) add(key string, value json.RawMessage) {
	v.members = append(v.members, member{key: key, value: &jsonValue{raw: value}})
	v.written++
	v.edited = true
}

// clone is v, for a branch to write into without writing into v.
func (v *jsonValue) clone() *jsonValue {
	c := *v
	c.members = make([]member, len(v.members))
	for i, m := range v.members {
		c.members[i] = member{key: m.key, value: m.value.clone()}
	}
	c.elems = make([]*jsonValue, len(v.elems))
	for i, e := range v.elems {
		c.elems[i] = e.clone()
	}
	return &c
}

// encode is v as JSON: as the agent wrote it where nothing was written into it; the agent's
// object with the members written in appended where nothing was written below it; built anew
// otherwise (its keys then as encoding/json writes them).
func (v *jsonValue) encode() json.RawMessage {
	if !v.edited {
		return v.raw
	}
	if v.kind == '[' {
		out := []byte{'['}
		for i, e := range v.elems {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, e.encode()...)
		}
		return append(out, ']')
	}
	own := v.members[:len(v.members)-v.written]
	below := slices.ContainsFunc(own, func(m member) bool { return m.value.edited })
	var out []byte
	if below {
		out, own = []byte{'{'}, nil
	} else {
		out = append([]byte(nil), v.raw[:len(v.raw)-1]...) // without its closing brace
	}
	for i, m := range v.members[len(own):] {
		if i > 0 || len(own) > 0 {
			out = append(out, ',')
		}
		key, _ := json.Marshal(m.key) // a string always marshals
		out = append(append(append(out, key...), ':'), m.value.encode()...)
	}
	return append(out, '}')
}
