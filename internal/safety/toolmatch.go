package safety

import (
	"slices"
	"strings"
)

// toolMatcher matches tool names against a profile's allow- or deny-list: literal names and glob
// patterns. It is built once, by Compile, and runs on every call, so it keeps the hot path free of
// hashing and of the general glob matcher where it can: the literals are sorted for a binary
// search, and the common "prefix/*" pattern is matched as a prefix.
type toolMatcher struct {
	literal []string   // sorted and deduplicated
	globs   []toolGlob // in the profile's order, so the first matching pattern is the one reported
}

// toolGlob is one glob pattern of a tool list.
type toolGlob struct {
	pattern string
	// prefix is set for a pattern that is an ASCII literal prefix and one final "*" ("fs/*", "*"):
	// it matches exactly the names that start with prefix and have no "/" after it, since "*"
	// stays within one "/"-separated part of the name. ASCII only, because doublestar compares
	// runes and reads every invalid UTF-8 byte as the same U+FFFD ("\xc7*" matches "\xbe"); an
	// ASCII byte is the same rune in either reading. Every other pattern goes to globMatch.
	prefix string
	simple bool
}

// globMeta are the characters that make a tool-list entry a glob.
const globMeta = "*?[{\\"

func newToolMatcher(patterns []string) toolMatcher {
	m := toolMatcher{}
	for _, p := range patterns {
		if !strings.ContainsAny(p, globMeta) {
			m.literal = append(m.literal, p)
			continue
		}
		g := toolGlob{pattern: p}
		if prefix, ok := strings.CutSuffix(p, "*"); ok && isASCII(prefix) && !strings.ContainsAny(prefix, globMeta+"]}") {
			g.prefix, g.simple = prefix, true
		}
		m.globs = append(m.globs, g)
	}
	slices.Sort(m.literal)
	m.literal = slices.Compact(m.literal)
	return m
}

func (m *toolMatcher) empty() bool { return len(m.literal) == 0 && len(m.globs) == 0 }

// match returns the pattern that matches name, if any: the name itself when it is listed
// literally, else the first matching glob.
func (m *toolMatcher) match(name string) (string, bool) {
	if _, ok := slices.BinarySearch(m.literal, name); ok {
		return name, true
	}
	for i := range m.globs {
		if m.globs[i].matches(name) {
			return m.globs[i].pattern, true
		}
	}
	return "", false
}

func (g *toolGlob) matches(name string) bool {
	if g.simple {
		return strings.HasPrefix(name, g.prefix) && strings.IndexByte(name[len(g.prefix):], '/') < 0
	}
	return globMatch(g.pattern, name)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
