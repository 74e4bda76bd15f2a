package argrules

import "strings"

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
