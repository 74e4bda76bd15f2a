package safety

import "testing"

// TestAllPositionalParameters: "$@" in a child shell whose positional parameters are all known is
// each of them: find -exec sh -c 'cat "$@"' _ {} + cats the files find matched, and asked
// before as a computed path. A parameter computed, more than nine, or moved by shift or set --
// leave it computed.
func TestAllPositionalParameters(t *testing.T) {
	expectRefusedAtEveryAutonomy(t, []string{
		`find . -name .env -exec sh -c 'cat "$@"' _ {} +`,
		`sh -c 'cat "$@"' _ README.md .env`,
		`sh -c 'set -- .env; cat "$@"' _ README.md`,
		`sh -c 'shift; cat "$@"' _ README.md .env`,
		`sh -c 'f() { cat "$@"; }; f README.md' _ .env`,
		`sh -c 'cat "$@"' _ "$X"`,
		`sh -c 'cat "$@"' _ 1 2 3 4 5 6 7 8 9 .env`,
	}, []string{
		`find . -name '*.md' -exec sh -c 'cat "$@"' _ {} +`,
		`sh -c 'cat "$@"' _ README.md`,
	})
}
