package argrules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// prototypeKey says whether key, in the object that is the value of parent ("" at the top level
// and in an array), reaches a JavaScript object's prototype: __proto__ anywhere, or prototype
// right after constructor. Upstream MCP servers are often JavaScript, and a tool that merges its
// arguments into an object (a deep merge, lodash's set, a config loader) would change
// Object.prototype, which every object of the server inherits: a flag no call may set becomes
// set for every call. A key is also split where such libraries split a path ("a.__proto__.x",
// "constructor[prototype]", `a["__proto__"]`), since they would follow it. JavaScript names are
// case-sensitive, and checkKey has refused the keys that only look like these (full-width, with
// invisible characters), so the match is exact.
func prototypeKey(parent, key string) bool {
	prev := lastSegment(parent)
	for _, seg := range pathSegments(key) {
		if seg == "__proto__" || prev == "constructor" && seg == "prototype" {
			return true
		}
		prev = seg
	}
	return false
}

func pathSegments(key string) []string {
	return strings.FieldsFunc(key, func(r rune) bool { return strings.ContainsRune(`.[]"'`, r) })
}

func lastSegment(key string) string {
	segs := pathSegments(key)
	if len(segs) == 0 {
		return ""
	}
	return segs[len(segs)-1]
}

// PrototypeFree refuses a JSON value holding, at any depth, an object key that reaches a
// JavaScript object's prototype (prototypeKey), naming it and where it is (at is the value's own
// key). It is for values the gateway forwards without parsing them as arguments (a ToolServer's
// omitted keys: data to the tool, but data a JavaScript server may still merge into an object).
// A string, the usual omitted value, is not read at all; anything else is read once, as tokens.
func PrototypeFree(raw json.RawMessage, at string) error {
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' && trimmed[0] != '[' {
		return nil
	}
	type frame struct {
		path, key string // where the container is, and its last key ("" in an array, as extra's parser)
		object    bool
		wantKey   bool
	}
	stack := []frame{}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	path, key := at, at // of the value the next token opens
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("argument %s is not JSON: %w", at, err)
		}
		if top := len(stack) - 1; top >= 0 && stack[top].wantKey {
			name, _ := tok.(string) // an object's next token is a key or its closing brace
			if prototypeKey(stack[top].key, name) {
				return fmt.Errorf("argument key %s (at %s.%s) reaches a JavaScript object's prototype "+
					"(__proto__, constructor.prototype); a JavaScript tool merging it would change every object it has",
					strconv.Quote(name), stack[top].path, name)
			}
			if tok != json.Delim('}') {
				stack[top].wantKey, path, key = false, stack[top].path+"."+name, name
				continue
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, frame{path: path, key: key, object: tok == json.Delim('{')})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if top := len(stack) - 1; top >= 0 {
			stack[top].wantKey = stack[top].object
			path, key = stack[top].path, ""
			if stack[top].object {
				key = stack[top].key
			}
		}
	}
}
