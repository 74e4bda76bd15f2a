// Package toolcall is the one mapping every front door shares (pkg/agent, the MCP gateway, the
// coding-agent hook): it turns a tool invocation — a tool name and JSON arguments, plus which of
// their keys are the command, the paths and the working directory — into an AgentToolCall, and
// the API server's answer to creating it into a typed Result.
package toolcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/internal/jsonobject"
	"github.com/toolgate/toolgate/internal/policy"
)

// MaxArgumentBytes bounds the JSON arguments of one invocation. Larger arguments are refused
// before anything is written.
const MaxArgumentBytes = 64 << 10

// ArgumentMap names the argument keys whose values the engine's command and path rules check.
// A key that is absent from an invocation is skipped; a key that is present with the wrong type
// is an error, so an agent cannot hide a path by respelling its type.
type ArgumentMap struct {
	// Command is the key of a string holding a shell command.
	Command string `json:"command,omitempty"`
	// Paths are keys of a string or an array of strings holding paths.
	Paths []string `json:"paths,omitempty"`
	// Cwd is the key of a string holding the working directory.
	Cwd string `json:"cwd,omitempty"`
	// TreePaths are keys of a string or an array of strings holding directory roots the tool
	// searches recursively (every file below them). The call's command is then their
	// SearchCommand, which the engine judges as the whole trees read, and the roots are among its
	// paths too. A map with TreePaths names no Command: a call has one command.
	TreePaths []string `json:"treePaths,omitempty"`
	// SearchPattern and SearchInclude are the keys of the strings a search of TreePaths looks
	// for and narrows its files by (Search); absent, it looks for anything in every file. They
	// stay in spec.arguments.extra, for argument rules.
	SearchPattern string `json:"searchPattern,omitempty"`
	SearchInclude string `json:"searchInclude,omitempty"`
	// Required are keys an invocation must name, each with a string: what the tool cannot run
	// without and the engine judges (a shell tool's command, a file tool's path). Without it the
	// call names nothing the engine checks, and a tool that takes its target under another key (a
	// field renamed in another version of the tool) would run it unchecked; such an invocation is
	// refused, naming the key.
	Required []string `json:"required,omitempty"`
	// Present are keys an invocation must name, with a value of any type: those a tool's input
	// schema requires (the gateway reads them from the upstream's schema). Without one the tool
	// refuses the call, but only after it was admitted, stored and sent, with the plan's budget
	// and a step attempt spent on it; such an invocation is refused first, naming the key.
	Present []string `json:"present,omitempty"`
	// Omit are keys not carried to the engine, nor in spec.arguments.extra but as their digest
	// (OmittedKey): bulk content such as a file's new text, which the path rules already cover and
	// which would make every call too large for the extra arguments' bound. Every other key goes
	// to spec.arguments.extra.
	Omit []string `json:"omit,omitempty"`
}

// Invocation is one request to run one tool, as a front door receives it.
type Invocation struct {
	Namespace string
	Plan      string
	Tool      string
	// Step is the plan step the call serves; empty means StepFor(Tool, Arguments).
	Step      string
	SandboxID string
	// Arguments is a JSON object, or empty.
	Arguments json.RawMessage
	Map       ArgumentMap
	// Cwd is the working directory when the arguments name none, and what a relative one they
	// name is resolved from: a coding agent's session directory, which its hook payload carries
	// beside the tool's input, or the directory an upstream MCP server resolves paths from.
	Cwd string
	// ProjectDir is the agent's project directory as the front door knows it, whatever the
	// agent's cd did (a coding agent's hook: CLAUDE_PROJECT_DIR): spec.arguments.projectDir, which
	// the engine takes to hold the project's protected files wherever the call runs from. It can
	// only add protection. Empty: none; otherwise absolute, at most MaxCwdLength characters.
	ProjectDir string
}

// BadInvocationError is an invocation that cannot become an AgentToolCall.
type BadInvocationError struct{ Message string }

func (e *BadInvocationError) Error() string { return "invalid tool invocation: " + e.Message }

func bad(format string, args ...any) error {
	return &BadInvocationError{Message: fmt.Sprintf(format, args...)}
}

// StepFor is the step of an invocation that names none: the tool and a digest of its name and
// canonical arguments, so that repeating the same call counts as a retry of the same step. A step is a DNS
// label (63 characters, lower-case letters, digits and '-'), so the tool's name is folded into one.
func StepFor(tool string, args json.RawMessage) string {
	d := digest(tool, args)
	prefix := strings.Trim(strings.Map(func(r rune) rune {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			return r
		}
		return '-'
	}, strings.ToLower(tool)), "-")
	if max := 63 - len(d) - 1; len(prefix) > max {
		prefix = strings.TrimRight(prefix[:max], "-")
	}
	if prefix == "" {
		return "t-" + d
	}
	return prefix + "-" + d
}

// Build returns the AgentToolCall (not yet created) for inv. The arguments are decoded once,
// strictly (argrules.ParseObject: no repeated or respelled keys, bounded depth and size), so the
// engine checks exactly what the tool receives; the command, paths and working directory go to
// their fields, the rest (but Map.Omit) to spec.arguments.extra as canonical JSON.
func Build(inv Invocation) (*safetyv1alpha1.AgentToolCall, error) {
	if inv.Tool == "" {
		return nil, bad("no tool named")
	}
	if err := checkClaims(inv); err != nil {
		return nil, err
	}
	args, omitted, err := decodeArguments(inv)
	if err != nil {
		return nil, err
	}
	ta, err := mappedArguments(args, omitted, inv)
	if err != nil {
		return nil, err
	}
	if ta.ProjectDir, err = projectDir(inv.ProjectDir); err != nil {
		return nil, err
	}
	step := inv.Step
	if step == "" {
		step = StepFor(inv.Tool, inv.Arguments)
	}
	return &safetyv1alpha1.AgentToolCall{
		ObjectMeta: metav1.ObjectMeta{Namespace: inv.Namespace, GenerateName: "call-"},
		Spec: safetyv1alpha1.AgentToolCallSpec{
			Plan: inv.Plan, Tool: inv.Tool, Step: step, SandboxID: inv.SandboxID, Arguments: ta,
		},
	}, nil
}

// decodeArguments decodes the invocation's arguments object (without its omitted keys), bounded,
// and refuses one whose keys are respelled or that lacks a key its mapping requires. omitted
// are the digests of the omitted values it held (omittedDigests).
func decodeArguments(inv Invocation) (args map[string]any, omitted map[string]any, _ error) {
	if err := judgedNotOmitted(inv.Map); err != nil {
		return nil, nil, err
	}
	kept, omitted, err := withoutOmitted(inv.Arguments, inv.Map.Omit)
	if err != nil {
		return nil, nil, err
	}
	if len(kept) > MaxArgumentBytes {
		return nil, nil, bad("arguments are %d bytes, more than %d", len(kept), MaxArgumentBytes)
	}
	if args, err = argrules.ParseObject(kept, MaxArgumentBytes); err != nil {
		return nil, nil, bad("%v", err) // "argument path holds a NUL character ...", "arguments repeat the key ..."
	}
	if err := respelledKeys(args, inv.Map); err != nil {
		return nil, nil, err
	}
	if err := requiredKeys(args, omitted, inv.Map); err != nil {
		return nil, nil, err
	}
	if err := omittedKeyFree(args, inv.Map); err != nil {
		return nil, nil, err
	}
	return args, omitted, nil
}

// omittedKeyFree refuses, beside a map that omits any key, an argument named OmittedKey, where the
// digests of the omitted values go, or a respelling of it, which the extra arguments' strict parse
// refuses beside it ("Omitted" and "omitted"): the call would be refused by the API server, naming
// a key the agent never sent.
func omittedKeyFree(args map[string]any, m ArgumentMap) error {
	if len(m.Omit) == 0 {
		return nil
	}
	for key := range args {
		if key == OmittedKey || argrules.Respells(key, OmittedKey) {
			return bad("argument %q is (or respells) %q, where the digests of the arguments left out of the call "+
				"(%q) go; a tool whose map omits any takes no argument of that name", key, OmittedKey, m.Omit)
		}
	}
	return nil
}

// mappedArguments takes the command, working directory and paths from the arguments as the
// mapping names them, each checked against the AgentToolCall's bounds, and the rest as extra.
func mappedArguments(args, omitted map[string]any, inv Invocation) (safetyv1alpha1.ToolArguments, error) {
	var err error
	var ta safetyv1alpha1.ToolArguments
	if ta.Command, err = stringArg(args, inv.Map.Command); err != nil {
		return ta, err
	}
	if err := checkString(inv.Map.Command, "command", ta.Command, MaxCommandLength); err != nil {
		return ta, err
	}
	if ta.Cwd, err = stringArg(args, inv.Map.Cwd); err != nil {
		return ta, err
	}
	if err := notJSONText(inv.Map.Command, ta.Command); err != nil {
		return ta, err
	}
	if err := notJSONText(inv.Map.Cwd, ta.Cwd); err != nil {
		return ta, err
	}
	if ta.Cwd, err = workingDirectory(inv.Map.Cwd, ta.Cwd, inv.Cwd); err != nil {
		return ta, err
	}
	for _, key := range inv.Map.Paths {
		paths, err := PathsArgument(args, key)
		if err != nil {
			return ta, err
		}
		if err := checkPaths(key, len(ta.Paths), paths); err != nil {
			return ta, err
		}
		ta.Paths = append(ta.Paths, paths...)
	}
	if len(inv.Map.TreePaths) > 0 {
		var roots []string
		if ta.Command, roots, err = searchArgs(args, inv.Map); err != nil {
			return ta, err
		}
		if err := checkPaths(strings.Join(inv.Map.TreePaths, `", "`), len(ta.Paths), roots); err != nil {
			return ta, err
		}
		ta.Paths = append(ta.Paths, roots...)
	}
	if err := checkArguments(&ta, inv.Map); err != nil {
		return ta, err
	}
	if ta.Extra, err = extraArgs(args, omitted, inv.Map); err != nil {
		return ta, err
	}
	return ta, nil
}

// withoutOmitted is the arguments object without the values of its omitted keys, which are
// bulk content of any size (a file a coding agent writes): only the rest is decoded, bounded and
// judged. The rest keeps its bytes, and a key that appears twice appears twice, for
// argrules.ParseObject to refuse; an omitted key that appears twice is refused here (the tool
// takes one of them, the digest would cover the other). omitted are the digests of the omitted
// values the object holds, by key (omittedDigest).
func withoutOmitted(raw json.RawMessage, omit []string) (kept json.RawMessage, omitted map[string]any, _ error) {
	if len(omit) == 0 || len(bytes.TrimSpace(raw)) == 0 {
		return raw, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return raw, nil, nil // not an object: argrules.ParseObject says what it is
	}
	out := []byte{'{'}
	for key, err := range jsonobject.Members(dec) {
		if err != nil {
			return nil, nil, bad("arguments: %v", err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, bad("arguments: %v", err)
		}
		if slices.Contains(omit, key) {
			if _, repeated := omitted[key]; repeated {
				return nil, nil, bad("arguments repeat the key %q", key)
			}
			if err := argrules.PrototypeFree(v, key); err != nil {
				return nil, nil, bad("%v", err)
			}
			if omitted == nil {
				omitted = map[string]any{}
			}
			omitted[key] = omittedDigest(v)
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		k, _ := json.Marshal(key)
		out = append(append(append(out, k...), ':'), v...)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, bad("arguments are not one JSON object")
	}
	return append(out, '}'), omitted, nil
}

// judgedNotOmitted refuses a map that omits a key it also judges (or searches for), or a
// respelling of one (argrules.Respells, the one normalisation respelledKeys refuses arguments by):
// left out before anything is decoded, its value would reach the tool unchecked. Omitting
// "filePath" beside the path "file_path" left {"filePath": ".env"} unjudged, to a tool that reads
// either spelling, while every call naming "file_path" was refused as a respelling of the omitted
// key. The ToolServer's CEL rule compares the keys exactly (CEL has no Unicode case folding), so a
// respelled overlap is refused here, on every call of the tool.
func judgedNotOmitted(m ArgumentMap) error {
	judged := append(m.Judged(), m.SearchPattern, m.SearchInclude)
	judged = append(judged, m.Required...)
	for _, key := range m.Omit {
		for _, j := range judged {
			switch {
			case j == "":
			case j == key:
				return bad("the argument map leaves %q out of the call and also names it as judged; "+
					"the engine would not see it", key)
			case argrules.Respells(key, j):
				return bad("the argument map leaves %q out of the call and judges %q, a respelling of it (case, "+
					"'_' or '-'); a tool that takes either spelling would read the omitted one unjudged, so the engine "+
					"would not see it: spell the two keys apart, or judge the key the tool reads", key, j)
			}
		}
	}
	return nil
}

// Judged are the keys whose values the engine judges: the command, the working directory, the
// paths and the tree paths (empty ones are in it too: no key).
func (m ArgumentMap) Judged() []string {
	keys := append([]string{m.Command, m.Cwd}, m.Paths...)
	return append(keys, m.TreePaths...)
}

// mapped is every key the map takes out of spec.arguments.extra.
func (m ArgumentMap) mapped() []string { return append(m.Judged(), m.Omit...) }

// searchArgs is the SearchCommand of a call whose map names TreePaths, and the roots it searches:
// those its TreePaths name, searched for its SearchPattern, narrowed by its SearchInclude.
func searchArgs(args map[string]any, m ArgumentMap) (string, []string, error) {
	if m.Command != "" {
		return "", nil, bad("the argument map names both a command (%q) and tree paths %q; a call has one command",
			m.Command, m.TreePaths)
	}
	var s Search
	for _, key := range m.TreePaths {
		roots, err := PathsArgument(args, key)
		if err != nil {
			return "", nil, err
		}
		for _, root := range roots {
			s.Roots = append(s.Roots, treeRoot(root))
		}
	}
	var err error
	if s.Pattern, err = stringArg(args, m.SearchPattern); err != nil {
		return "", nil, err
	}
	if s.Include, err = stringArg(args, m.SearchInclude); err != nil {
		return "", nil, err
	}
	return SearchCommand(s), s.Roots, nil
}

// respelledKeys refuses a key that respells a mapped key (argrules.Respells: "Path" or "PATH"
// when the map names "path", "filePath" or "file-path" when it names "file_path"): the engine
// would not check it, and a lenient tool might read it.
func respelledKeys(args map[string]any, m ArgumentMap) error {
	for key := range args {
		for _, want := range m.mapped() {
			if want != "" && argrules.Respells(key, want) {
				return bad("argument %q is a respelling of %q; spell it exactly", key, want)
			}
		}
	}
	return nil
}

// requiredKeys refuses arguments that lack one of the map's required or present keys, or hold a
// required one as anything but a string. A present key the map omits is there if the arguments
// held it (omitted).
func requiredKeys(args, omitted map[string]any, m ArgumentMap) error {
	for _, key := range append(slices.Clip(m.Required), m.Present...) {
		_, wasOmitted := omitted[key]
		if _, ok := args[key]; !ok && !wasOmitted {
			return bad("argument %q is required and missing", key)
		}
	}
	for _, key := range m.Required {
		if _, isString := args[key].(string); !isString {
			return bad("argument %q must be a string", key)
		}
	}
	return nil
}

// extraArgs is the canonical JSON of the arguments the map does not name, and under OmittedKey
// the digests of those it omits; nil when there are none.
func extraArgs(args, omitted map[string]any, m ArgumentMap) (*runtime.RawExtension, error) {
	rest := map[string]any{}
	for key, v := range args {
		if !slices.Contains(m.mapped(), key) {
			rest[key] = v
		}
	}
	if len(omitted) > 0 {
		rest[OmittedKey] = omitted
	}
	if len(rest) == 0 {
		return nil, nil
	}
	if len(rest) > MaxExtraKeys {
		return nil, bad("the arguments other than the command, paths and working directory hold %d keys, more than %d",
			len(rest), MaxExtraKeys)
	}
	b := argrules.Canonical(rest)
	if len(b) > argrules.MaxExtraBytes {
		return nil, bad("the arguments other than the command, paths and working directory are %d bytes "+
			"as canonical JSON, more than %d", len(b), argrules.MaxExtraBytes)
	}
	return &runtime.RawExtension{Raw: b}, nil
}

func stringArg(args map[string]any, key string) (string, error) {
	v, ok := args[key]
	if key == "" || !ok {
		return "", nil
	}
	s, isString := v.(string)
	if !isString {
		return "", bad("argument %q must be a string", key)
	}
	return s, nil
}

// PathsArgument is what args[key] names as paths: one (a string) or several (an array of
// strings), each string with the paths it holds as JSON text (textPaths); none when key is empty
// or absent. Any other value is a BadInvocationError naming key.
func PathsArgument(args map[string]any, key string) ([]string, error) {
	v, ok := args[key]
	if key == "" || !ok {
		return nil, nil
	}
	if one, isString := v.(string); isString {
		return textPaths(key, one)
	}
	many, isList := v.([]any)
	if !isList {
		return nil, bad("argument %q must be a string or an array of strings", key)
	}
	paths := make([]string, 0, len(many))
	for _, p := range many {
		s, isString := p.(string)
		if !isString {
			return nil, bad("argument %q must be a string or an array of strings", key)
		}
		named, err := textPaths(key, s)
		if err != nil {
			return nil, err
		}
		paths = append(paths, named...)
	}
	return paths, nil
}

// Result is the answer to one invocation.
type Result struct {
	// Allowed is true when toolgate admitted the call.
	Allowed bool `json:"allowed"`
	// Reason is the typed reason code of a denial ("ToolAccessDenied", "PlanNotLocked", ...).
	Reason string `json:"reason,omitempty"`
	// Field is the field the denial points at, if any.
	Field string `json:"field,omitempty"`
	// Message explains the denial.
	Message string `json:"message,omitempty"`
}

// Text is the denial as toolgate words it everywhere: "[Reason] message". A model reads it, and so
// does a person in the terminal that shows the model's tool results: the message may hold the
// agent's text, so every character in it that would not show as itself is written as an escape
// (policy.Visible).
func (r Result) Text() string {
	if r.Allowed {
		return "admitted"
	}
	return "[" + policy.Visible(r.Reason) + "] " + policy.Visible(r.Message)
}

// Denial extracts a toolgate denial from an API error: the 403 the admission webhook returns,
// with "[Reason] ..." in its message and the reason as its first cause's type. ok is false for
// nil and for any other error (a transport error, a schema error, an expired token).
func Denial(err error) (Result, bool) {
	var status apierrors.APIStatus
	if err == nil || !errors.As(err, &status) {
		return Result{}, false
	}
	st := status.Status()
	// Only the webhook's denial is 403 with a cause: a schema error (422) quotes the agent's
	// values, which may spell "[Reason]".
	if st.Code != http.StatusForbidden || st.Details == nil || len(st.Details.Causes) == 0 {
		return Result{}, false
	}
	cause := st.Details.Causes[0]
	reason := string(cause.Type)
	if reason == "" || !strings.Contains(st.Message, "["+reason+"]") {
		return Result{}, false
	}
	return Result{Reason: reason, Field: cause.Field, Message: cause.Message}, true
}

// Decide turns the error of creating an AgentToolCall into a Result: admitted for nil, the
// denial for a toolgate denial, and the error itself for anything else.
func Decide(err error) (Result, error) {
	if err == nil {
		return Result{Allowed: true}, nil
	}
	if r, ok := Denial(err); ok {
		return r, nil
	}
	return Result{}, err
}
