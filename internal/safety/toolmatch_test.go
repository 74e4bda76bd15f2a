package safety

import (
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// referenceToolMatch is the tool-list match as the engine first wrote it, every glob through
// doublestar: literal names first, then the globs in the profile's order.
func referenceToolMatch(patterns []string, name string) (string, bool) {
	for _, p := range patterns {
		if !strings.ContainsAny(p, globMeta) && p == name {
			return p, true
		}
	}
	for _, p := range patterns {
		if strings.ContainsAny(p, globMeta) && doublestar.MatchUnvalidated(p, name) {
			return p, true
		}
	}
	return "", false
}

var toolMatchSeeds = []struct{ pattern, name string }{
	{"fs/*", "fs/edit"}, {"fs/*", "fs/"}, {"fs/*", "fs"}, {"fs/*", "fs/a/b"}, {"fs/*", "fsx/edit"},
	{"*", ""}, {"*", "a"}, {"*", "a/b"}, {"*", "/"}, {"fs*", "fs/x"}, {"fs*", "fsx"},
	{"fs/**", "fs"}, {"fs/**", "fs/a/b"}, {"f?/*", "fs/x"}, {"fs/\\*", "fs/*"}, {"fs/\\*", "fs/x"},
	{"fs/[ab]*", "fs/a"}, {"fs/{a,b}*", "fs/bx"}, {"fs]/*", "fs]/x"}, {"fs}/*", "fs}/x"},
	{"fs,a/*", "fs,a/x"}, {"net/*", "fs/edit"}, {"test/unsafe-tool", "test/unsafe-tool"},
	{"fs/*", "fs/\xff"}, {"\xff/*", "\xff/x"}, {"fs/*", "fs/é"}, {"é*", "éa"}, {"fs/*", "FS/edit"},
	{"\xc7*", "\xbe"}, {"\uFFFD*", "\xbe"}, {"**", "a/b"}, {"a/*/*", "a/b/c"}, {"*/x", "a/x"},
}

// FuzzToolMatcher checks that the compiled tool-list matcher (binary search over literals, "*"
// suffixes as prefixes) agrees with doublestar on every valid pattern list and name, including the
// pattern it reports.
func FuzzToolMatcher(f *testing.F) {
	for _, s := range toolMatchSeeds {
		f.Add(s.pattern, s.name)
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if !doublestar.ValidatePattern(pattern) {
			t.Skip("Compile refuses an invalid pattern")
		}
		lists := [][]string{
			{pattern},
			{"other/*", pattern, name},
			{pattern, "*", pattern},
			{name, pattern, "fs/**"},
		}
		for _, patterns := range lists {
			m := newToolMatcher(patterns)
			got, gotOK := m.match(name)
			want, wantOK := referenceToolMatch(patterns, name)
			if got != want || gotOK != wantOK {
				t.Fatalf("patterns %q, name %q: matched %q %v, doublestar %q %v", patterns, name, got, gotOK, want, wantOK)
			}
		}
	})
}

// The prefix form is taken only for a pattern that is a literal prefix and one final "*".
func TestToolMatcherPrefixForm(t *testing.T) {
	simple := map[string]string{"fs/*": "fs/", "*": "", "fs*": "fs"}
	for p, prefix := range simple {
		m := newToolMatcher([]string{p})
		if len(m.globs) != 1 || !m.globs[0].simple || m.globs[0].prefix != prefix {
			t.Errorf("%q: compiled %+v, want the prefix form with prefix %q", p, m.globs, prefix)
		}
	}
	for _, p := range []string{"\xc7*", "é*", "fs/**", "f?/*", "fs/\\*", "fs/[ab]*", "fs/{a,b}*", "fs]/*", "fs}/*", "*/x"} {
		m := newToolMatcher([]string{p})
		if len(m.globs) != 1 || m.globs[0].simple {
			t.Errorf("%q: compiled %+v, want it left to doublestar", p, m.globs)
		}
	}
}
