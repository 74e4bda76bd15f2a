package toolcall

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// The bounds the AgentToolCall CRD sets on what Build writes (its kubebuilder markers in
// api/v1alpha1/agenttoolcall_types.go; bounds_test.go checks these against the CRD). Build
// refuses an invocation over one, naming the argument or claim that is too large, before
// anything is sent. The API server would refuse the call too, but as a schema error of spec
// fields the agent never named (spec.arguments.paths[0]), which a front door cannot tell from
// an API server that failed: the gateway answered such arguments with an internal error.
// Lengths are counted in characters, as the API server counts them.
const (
	MaxToolLength      = 253
	MaxStepLength      = 63
	MaxSandboxIDLength = 253
	MaxCommandLength   = 8192
	MaxPaths           = 32
	MaxPathLength      = 1024
	MaxCwdLength       = 1024
	MaxExtraKeys       = 256
)

// stepPattern is what the CRD requires of spec.step: a DNS label.
var stepPattern = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// checkClaims refuses an invocation whose tool name, step or sandbox claim the CRD would refuse.
func checkClaims(inv Invocation) error {
	if n := utf8.RuneCountInString(inv.Tool); n > MaxToolLength {
		return bad("the tool's name is %d characters, more than %d", n, MaxToolLength)
	}
	if inv.Step != "" && (len(inv.Step) > MaxStepLength || !stepPattern.MatchString(inv.Step)) {
		return bad("step %q is not a DNS label (at most %d lower-case letters, digits and '-', "+
			"starting and ending with a letter or digit)", Shortened(inv.Step), MaxStepLength)
	}
	if n := utf8.RuneCountInString(inv.SandboxID); n > MaxSandboxIDLength {
		return bad("the sandbox id is %d characters, more than %d", n, MaxSandboxIDLength)
	}
	return nil
}

// checkString refuses the value of argument key when it is longer than most characters; what
// names what the value is ("command", "working directory").
func checkString(key, what, value string, most int) error {
	if n := utf8.RuneCountInString(value); n > most {
		return bad("argument %q (the %s) is %d characters, more than %d", key, what, n, most)
	}
	return nil
}

// checkPaths refuses paths, those of argument key, when one is longer than MaxPathLength or they
// bring the call's paths (had before them) past MaxPaths.
func checkPaths(key string, had int, paths []string) error {
	if had+len(paths) > MaxPaths {
		return bad("the arguments name %d paths (argument %q brings them past the limit), more than %d",
			had+len(paths), key, MaxPaths)
	}
	for _, p := range paths {
		if n := utf8.RuneCountInString(p); n > MaxPathLength {
			return bad("argument %q holds a path of %d characters, more than %d", key, n, MaxPathLength)
		}
	}
	return nil
}

// checkArguments refuses the built arguments where the CRD would and the checks of each
// argument could not: the command a map's tree paths make, and the working directory resolved
// from the invocation's.
func checkArguments(ta *safetyv1alpha1.ToolArguments, m ArgumentMap) error {
	if n := utf8.RuneCountInString(ta.Command); len(m.TreePaths) > 0 && n > MaxCommandLength {
		return bad("the search of arguments %q is %d characters as a command, more than %d",
			m.TreePaths, n, MaxCommandLength)
	}
	if n := utf8.RuneCountInString(ta.Cwd); n > MaxCwdLength {
		named := ""
		if m.Cwd != "" {
			named = fmt.Sprintf(" (argument %q, resolved from the tool's own)", m.Cwd)
		}
		return bad("the working directory%s is %d characters, more than %d", named, n, MaxCwdLength)
	}
	return nil
}

// projectDir is an invocation's project directory as spec.arguments.projectDir takes it:
// absolute and bounded, as the CRD requires, and clean.
func projectDir(dir string) (string, error) {
	switch {
	case dir == "":
		return "", nil
	case !strings.HasPrefix(dir, "/"):
		return "", bad("the project directory %q is not an absolute path", Shortened(dir))
	case utf8.RuneCountInString(dir) > MaxCwdLength:
		return "", bad("the project directory is %d characters, more than %d", utf8.RuneCountInString(dir), MaxCwdLength)
	}
	return path.Clean(dir), nil
}

// Shortened is s cut to a length a message can quote (80 bytes, on a character's boundary, then
// "..."), for text the agent chose.
func Shortened(s string) string {
	if len(s) <= 80 {
		return s
	}
	cut := 80
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.ToValidUTF8(s[:cut], "") + "..."
}
