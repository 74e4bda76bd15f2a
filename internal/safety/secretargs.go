package safety

import (
	"regexp"
	"slices"
	"strings"
)

// givesSecret is secret-in-arguments' check: a command is given a credential variable's value
// (or a copy's) as an argument, which any program may print back, in an error message if nothing
// else (cd "$GITHUB_TOKEN", type, kill, [ "$NPM_TOKEN" -gt 0 ], awk -v t="$API_KEY"). Presence
// checks ([ -n "$X_TOKEN" ], test -z) and a declaration's NAME=VALUE (export GH_TOKEN=$X, one of
// declarationWords) do not print it.
func givesSecret(s *segment) bool {
	if !strings.Contains(s.text, "$") && !s.secretCopy {
		return false
	}
	declares := slices.Contains(declarationWords, s.name)
	for i, w := range s.words[1:] {
		// Which word expands the copy is not kept: any word with an expansion may be it.
		if !namesCredentialValue(w.s) && (!s.secretCopy || !strings.Contains(w.s, "$")) {
			continue
		}
		switch {
		case declares && isAssignment(w.s):
		case presenceTests[s.name] && i > 0 && (s.words[i].s == "-n" || s.words[i].s == "-z"):
		default:
			return true
		}
	}
	return false
}

// presenceTests are the test builtins whose -n and -z only say whether a value is empty.
//
//nolint:goconst // builtin names read best literally, next to their neighbours
var presenceTests = map[string]bool{"[": true, "test": true}

// credentialPointer matches the name of a variable that names where a credential is rather than
// holding it (SECRET_FILE, TOKEN_PATH, API_KEY_NAME): given as an argument, it prints no secret.
var credentialPointer = regexp.MustCompile(`(?i)^\$\{?[a-z0-9_]*_(file|path|name|dir)\}?$`)

// namesCredentialValue reports whether a word expands a credential variable's value.
func namesCredentialValue(w string) bool {
	return credentialVar.MatchString(w) && !credentialPointer.MatchString(w)
}
