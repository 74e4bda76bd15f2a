package argrules

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Respells says whether key is another spelling of want that a tool's decoder may take for it:
// equal but for case and the separators '_' and '-' ("Force" or "FORCE" for "force", "dryRun"
// or "dry-run" for "dry_run"). Go's encoding/json matches keys regardless of case, and Python
// servers commonly take a field's camelCase alias as well as its name (pydantic's
// populate_by_name). pkg/toolcall refuses such keys for the keys a tool's map names; argument
// rules refuse them for the keys a rule names.
func Respells(key, want string) bool {
	return key != want && spelling(key) == spelling(want)
}

// spelling is the form two keys share when one respells the other: without separators, case
// folded (fold).
func spelling(key string) string { return fold(unseparated(key)) }

// unseparated is key without the separators a tool's decoder may ignore or add.
func unseparated(key string) string {
	if !strings.ContainsAny(key, "_-") {
		return key
	}
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return r
	}, key)
}

// keyIndex is one object of the arguments indexed by spelling: a key of each spelling (and,
// rarely, another key of the same spelling), and its keys that are dotted or bracketed paths by
// the spelling of their first key. Built once per object a call's rules look into, so that
// checking n named keys against an object of m keys costs n+m lookups, not n×m comparisons.
type keyIndex struct {
	bySpelling map[string]string
	another    map[string]string // a second key of a spelling; two keys of one spelling differ
	paths      map[string][]pathKey
}

// respelling is a key of the object, other than want, spelled as want is (sp), or "".
func (idx *keyIndex) respelling(sp, want string) string {
	if k, ok := idx.bySpelling[sp]; ok && k != want {
		return k
	}
	return idx.another[sp] // differs from the first, which is want
}

// pathKey is a key that is a path of several keys ("opts.force"), with their spellings.
type pathKey struct {
	key       string
	spellings []string
}

func newKeyIndex(m map[string]any) *keyIndex {
	idx := &keyIndex{bySpelling: make(map[string]string, len(m))}
	for k := range m {
		sp := spelling(k)
		if _, ok := idx.bySpelling[sp]; !ok {
			idx.bySpelling[sp] = k
		} else {
			if idx.another == nil {
				idx.another = map[string]string{}
			}
			idx.another[sp] = k
		}
		if !strings.ContainsAny(k, ".[") {
			continue
		}
		if segs := pathSegments(k); len(segs) > 1 {
			pk := pathKey{key: k, spellings: make([]string, len(segs))}
			for i, seg := range segs {
				pk.spellings[i] = spelling(seg)
			}
			if idx.paths == nil {
				idx.paths = map[string][]pathKey{}
			}
			idx.paths[pk.spellings[0]] = append(idx.paths[pk.spellings[0]], pk)
		}
	}
	return idx
}

// keyIndexes are the indexes of the objects one call's rules look into, by their path from args
// (its keys joined by NUL, which no key holds; "" for args itself): the named keys are followed
// by exact key, so a path names one object.
type keyIndexes map[string]*keyIndex

func (x keyIndexes) of(prefix string, m map[string]any) *keyIndex {
	idx, ok := x[prefix]
	if !ok {
		idx = newKeyIndex(m)
		x[prefix] = idx
	}
	return idx
}

// respelled is the first key of args along one of the named keys that another decoder may read
// as the key named there: a respelling of it (Respells), or a dotted or bracketed path through it
// and the keys below ("opts.force", `opts["Force"]`), which a JavaScript tool setting options by
// path follows; or a string holding JSON text where the rule reads below it (jsonTextBelow). It
// is returned dotted from args with the key it stands for, and how ("respells", "is a path to" or
// holdsJSONText); "" when there is none. Each named key is followed through the maps the
// arguments hold, and at anyElement through every element of a list or value of a map (at
// anyIterated a map is refused where the rule reads below its keys, iteratesKeys); where it
// leaves them, there is nothing below to check.
func respelled(args map[string]any, named []namedKey, indexes keyIndexes) (key, want, how string) {
	for _, nk := range named {
		if key, want, how = respelledIn(args, nk, 0, nil, indexes); key != "" {
			return key, want, how
		}
	}
	return "", "", ""
}

// respelledIn is respelled for the named key nk from its i-th key on, in v, which is at the
// path where from args.
func respelledIn(v any, nk namedKey, i int, where []string, indexes keyIndexes) (key, want, how string) {
	if i == len(nk.path) {
		return "", "", ""
	}
	seg := nk.path[i]
	switch seg {
	case anyObject: // here, and in every object below
		if key, want, how = respelledIn(v, nk, i+1, where, indexes); key != "" {
			return key, want, how
		}
		return respelledInEach(v, nk, i, where, indexes)
	case anyElement, anyIterated:
		if key, want, how = jsonTextBelow(v, nk, i, where); key != "" {
			return key, want, how
		}
		if _, isMap := v.(map[string]any); isMap && seg == anyIterated && i+1 < len(nk.path) {
			// The rule's variable is each key of the map, a string: every key it reads below
			// is absent there, whatever the values the tool takes hold.
			prefix := strings.Join(where, ".")
			return prefix, dotted(prefix, strings.Join(readable(nk.path[i:]), ".")), iteratesKeys
		}
		return respelledInEach(v, nk, i+1, where, indexes)
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		return jsonTextBelow(v, nk, i, where)
	}
	prefix := strings.Join(where, ".")
	idx := indexes.of(strings.Join(where, "\x00"), m)
	if k := idx.respelling(nk.spellings[i], seg); k != "" {
		return dotted(prefix, k), dotted(prefix, seg), "respells"
	}
	for _, pk := range idx.paths[nk.spellings[i]] {
		if n := len(pk.spellings); n <= len(nk.path)-i && slices.Equal(pk.spellings, nk.spellings[i:i+n]) {
			return dotted(prefix, pk.key), dotted(prefix, strings.Join(nk.path[i:i+n], ".")), "is a path to"
		}
	}
	return respelledIn(m[seg], nk, i+1, append(slices.Clip(where), seg), indexes)
}

// holdsJSONText is how a string of JSON text stands for what a rule reads below it.
const holdsJSONText = "holds JSON text"

// jsonTextBelow is v, at where, when it is a string holding JSON text of an array or object
// (JSONText) and the rule reads the i-th key of nk, or an element, below it: has() of a key of a
// string is false, so a rule allowing the key to be absent (!has(args.opts.force) || ...) judges
// the string as holding none, while a tool that decodes the text (the Python MCP SDK does, for an
// argument not typed as a string) reads the key it holds. It is returned with what the rule reads
// below it and holdsJSONText; "" when v is anything else.
func jsonTextBelow(v any, nk namedKey, i int, where []string) (key, want, how string) {
	s, isString := v.(string)
	if !isString {
		return "", "", ""
	}
	if _, isText := JSONText(s); !isText {
		return "", "", ""
	}
	prefix := strings.Join(where, ".")
	return prefix, dotted(prefix, strings.Join(readable(nk.path[i:]), ".")), holdsJSONText
}

// iteratesKeys is how a map stands where a rule reads keys of each element it iterates.
const iteratesKeys = "iterates keys"

// readable is a named key's path as a message shows it: "*" for any element or object.
func readable(path []string) []string {
	out := make([]string, len(path))
	for i, seg := range path {
		if seg == anyElement || seg == anyIterated || seg == anyObject {
			seg = "*"
		}
		out[i] = seg
	}
	return out
}

// respelledInEach is respelledIn for each element of v, a list, or each value of v, a map.
func respelledInEach(v any, nk namedKey, i int, where []string, indexes keyIndexes) (key, want, how string) {
	switch c := v.(type) {
	case []any:
		for n, el := range c {
			if key, want, how = respelledIn(el, nk, i, append(slices.Clip(where), strconv.Itoa(n)), indexes); key != "" {
				return key, want, how
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(c)) {
			if key, want, how = respelledIn(c[k], nk, i, append(slices.Clip(where), k), indexes); key != "" {
				return key, want, how
			}
		}
	}
	return "", "", ""
}

func dotted(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// respellingMessage is the denial of a call holding key where the rule reads want.
func respellingMessage(rule, key, how, want string) string {
	if how == iteratesKeys {
		return "argument rule " + rule + ": " + strconv.Quote(key) + " is an object, whose keys (strings) the rule " +
			"iterates while it reads " + strconv.Quote(want) + " off each, so it judges none of the values a tool " +
			"taking the object reads; send a list"
	}
	if how == holdsJSONText {
		return "argument rule " + rule + ": " + strconv.Quote(key) + " is a string holding JSON text of an array or " +
			"object, which a tool may decode and read in its place, while the rule reads " + strconv.Quote(want) +
			" below it; send the value itself, not its JSON text"
	}
	return "argument rule " + rule + ": " + strconv.Quote(key) + " " + how + " " + strconv.Quote(want) +
		", which the rule reads; a tool may take either for the other, so spell it exactly"
}
