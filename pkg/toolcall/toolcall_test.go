package toolcall_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// sha is the digest Build carries for an omitted value spelt raw.
func sha(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// omittedExtra is the extra arguments of a call whose one omitted key, content, was spelt raw.
func omittedExtra(raw string) *runtime.RawExtension {
	return &runtime.RawExtension{Raw: []byte(`{"omitted":{"content":"` + sha(raw) + `"}}`)}
}

func TestBuild(t *testing.T) {
	m := toolcall.ArgumentMap{Command: "cmd", Paths: []string{"path", "paths"}, Cwd: "dir", Omit: []string{"content"}}
	big := strings.Repeat("x", 2*toolcall.MaxArgumentBytes)
	extra := func(raw string) *runtime.RawExtension { return &runtime.RawExtension{Raw: []byte(raw)} }
	cases := []struct {
		name    string
		args    string
		base    string // the invocation's Cwd
		want    safetyv1alpha1.ToolArguments
		wantErr string
	}{
		// The working directory: the one named, from the invocation's when it is relative.
		{name: "no directory named: the invocation's", args: `{"path": "shadow"}`, base: "/etc",
			want: safetyv1alpha1.ToolArguments{Paths: []string{"shadow"}, Cwd: "/etc"}},
		{name: "a relative directory, resolved from the invocation's", args: `{"path": "shadow", "dir": "etc"}`, base: "/",
			want: safetyv1alpha1.ToolArguments{Paths: []string{"shadow"}, Cwd: "/etc"}},
		{name: "a relative directory with no base", args: `{"dir": "etc"}`, want: safetyv1alpha1.ToolArguments{Cwd: "etc"}},
		{name: "an absolute directory", args: `{"dir": "/w"}`, base: "/srv", want: safetyv1alpha1.ToolArguments{Cwd: "/w"}},
		// A directory a tool may take in another way than the engine judges it is refused, naming
		// the argument: trimmed, " /etc" is /etc, not /srv/ /etc; expanded, "~/.." is above a home
		// directory, not the base's parent; "$HOME" is the home directory.
		{name: "a directory with space before it", args: `{"cmd": "cat shadow", "dir": " /etc"}`, base: "/srv",
			wantErr: `argument "dir" (the working directory) has white space`},
		{name: "a directory with space after it", args: `{"dir": "sub\t"}`, base: "/srv", wantErr: `argument "dir"`},
		{name: "a directory after a no-break space", args: `{"dir": "\u00a0/etc"}`, base: "/srv", wantErr: `argument "dir"`},
		{name: "a directory after a byte-order mark", args: `{"dir": "\ufeff/etc"}`, base: "/srv", wantErr: `argument "dir"`},
		{name: "a directory after a line separator", args: `{"dir": "/etc\u2028"}`, base: "/srv", wantErr: `argument "dir"`},
		{name: "a directory after a file separator (Python strips it)", args: `{"dir": "\u001c/etc"}`, base: "/srv",
			wantErr: `argument "dir"`},
		{name: "a ~ directory", args: `{"dir": "~/.."}`, base: "/etc",
			wantErr: `argument "dir" (the working directory) starts with "~"`},
		{name: "a ~user directory", args: `{"dir": "~root"}`, base: "/etc", wantErr: `starts with "~"`},
		{name: "a $HOME directory", args: `{"dir": "$HOME/.."}`, base: "/",
			wantErr: `argument "dir" (the working directory) holds "$"`},
		{name: "a ${HOME} directory inside", args: `{"dir": "sub/${HOME}"}`, base: "/", wantErr: `holds "$"`},
		{name: "a directory with space inside", args: `{"dir": "my dir/~x"}`, base: "/srv",
			want: safetyv1alpha1.ToolArguments{Cwd: "/srv/my dir/~x"}},
		{name: "no arguments", args: ""},
		{name: "null", args: "null"},
		{name: "only unmapped keys", args: `{"amount": 3}`, want: safetyv1alpha1.ToolArguments{Extra: extra(`{"amount":3}`)}},
		{name: "unmapped keys as canonical JSON",
			args: ` {"to": "a@example.com", "amount": 3.5, "meta": {"b": [1, null], "a": true}} `,
			want: safetyv1alpha1.ToolArguments{
				Extra: extra(`{"amount":3.5,"meta":{"a":true,"b":[1,null]},"to":"a@example.com"}`)}},
		// Omitted keys are carried as the digest of their JSON text as sent, which pins the content
		// a ToolApproval of the call approves.
		{name: "omitted keys are carried as their digest", args: `{"path": "a.go", "content": "package a"}`,
			want: safetyv1alpha1.ToolArguments{Paths: []string{"a.go"}, Extra: omittedExtra(`"package a"`)}},
		{name: "an omitted key's digest beside other keys", args: `{"path": "a.go", "mode": "0644", "content": {"b": [1]}}`,
			want: safetyv1alpha1.ToolArguments{Paths: []string{"a.go"},
				Extra: extra(`{"mode":"0644","omitted":{"content":"` + sha(`{"b": [1]}`) + `"}}`)}},
		{name: "an omitted key's other spelling is other content", args: `{"path": "a.go", "content": "package \u0061"}`,
			want: safetyv1alpha1.ToolArguments{Paths: []string{"a.go"}, Extra: omittedExtra(`"package \u0061"`)}},
		{name: "a repeated omitted key", args: `{"path": "a.go", "content": "x", "content": "y"}`,
			wantErr: `repeat the key "content"`},
		{name: "an argument named as the digests' key",
			args:    `{"path": "a.go", "content": "x", "omitted": {"content": "sha256:00"}}`,
			wantErr: `argument "omitted" is (or respells) "omitted"`},
		{name: "an argument named as the digests' key, nothing omitted",
			args:    `{"path": "a.go", "omitted": {"content": "sha256:00"}}`,
			wantErr: `argument "omitted" is (or respells) "omitted"`},
		{name: "a respelling of the digests' key", args: `{"path": "a.go", "content": "x", "Omitted": 1}`,
			wantErr: `argument "Omitted" is (or respells) "omitted"`},
		{name: "a repeated key", args: `{"path": "README.md", "path": ".env"}`, wantErr: `repeat the key "path"`},
		{name: "a repeated unmapped key", args: `{"amount": 1, "amount": 100000}`, wantErr: `repeat the key "amount"`},
		// An upstream server in JavaScript that merges its arguments would pollute Object.prototype.
		{name: "a __proto__ key", args: `{"path": "a.go", "opts": {"__proto__": {"shell": true}}}`,
			wantErr: `key "__proto__" (at opts.__proto__) reaches a JavaScript object's prototype`},
		{name: "a constructor.prototype path", args: `{"constructor": {"prototype": {"shell": true}}}`,
			wantErr: `key "prototype" (at constructor.prototype)`},
		{name: "a respelled mapped key", args: `{"Path": ".env"}`, wantErr: `"Path" is a respelling of "path"`},
		{name: "a separator added", args: `{"pa_th": ".env"}`, wantErr: `"pa_th" is a respelling of "path"`},
		{name: "an omitted key respelled", args: `{"con-tent": ".env"}`, wantErr: `"con-tent" is a respelling of "content"`},
		{name: "a full-width mapped key", args: `{"ｐａｔｈ": ".env"}`, wantErr: "NFKC"},
		{name: "a list of paths with a non-string", args: `{"paths": ["a", 1]}`,
			wantErr: `argument "paths" must be a string or an array of strings`},
		{name: "extra arguments too large", args: `{"memo": "` + strings.Repeat("a", 20<<10) + `"}`,
			wantErr: "other than the command, paths and working directory"},
		{name: "deep nesting", args: strings.Repeat(`{"a":`, 20) + "1" + strings.Repeat("}", 20), wantErr: "deeper than 16"},
		{name: "a path", args: `{"path": ".env"}`, want: safetyv1alpha1.ToolArguments{Paths: []string{".env"}}},
		{name: "a path and a list of paths", args: `{"path": "a", "paths": ["b", "c"], "dir": "/w", "cmd": "ls"}`,
			want: safetyv1alpha1.ToolArguments{Command: "ls", Paths: []string{"a", "b", "c"}, Cwd: "/w"}},
		{name: "a path that is not a string", args: `{"path": {"p": ".env"}}`,
			wantErr: `argument "path" must be a string or an array of strings`},
		{name: "a command that is not a string", args: `{"cmd": ["rm", "-rf"]}`, wantErr: `argument "cmd" must be a string`},
		{name: "not an object", args: `[".env"]`, wantErr: "must be a JSON object"},
		{name: "too large", args: `{"x": "` + strings.Repeat("a", toolcall.MaxArgumentBytes) + `"}`, wantErr: "more than"},
		// Omitted content is bulk of any size (a file a coding agent writes): only the rest is bounded.
		{name: "a large omitted value", args: `{"path": "a.go", "content": "` + big + `"}`,
			want: safetyv1alpha1.ToolArguments{Paths: []string{"a.go"}, Extra: omittedExtra(`"` + big + `"`)}},
		{name: "an omitted value of many values", args: `{"content": [` + strings.Repeat("1,", 4000) + `1], "path": "a.go"}`,
			want: safetyv1alpha1.ToolArguments{Paths: []string{"a.go"},
				Extra: omittedExtra(`[` + strings.Repeat("1,", 4000) + `1]`)}},
		{name: "a repeated key beside a large omitted value",
			args:    `{"path": "README.md", "content": "` + big + `", "path": ".env"}`,
			wantErr: `repeat the key "path"`},
		{name: "a respelled key beside a large omitted value", args: `{"content": "` + big + `", "Path": ".env"}`,
			wantErr: `"Path" is a respelling of "path"`},
		{name: "a respelled omitted key is not omitted", args: `{"Content": "` + big + `", "path": "a.go"}`,
			wantErr: "more than"},
		{name: "the rest too large beside a large omitted value",
			args:    `{"content": "` + big + `", "x": "` + strings.Repeat("a", toolcall.MaxArgumentBytes) + `"}`,
			wantErr: "more than"},
		{name: "a second object after the arguments", args: `{"content": "x"} {"path": ".env"}`, wantErr: "one JSON object"},
		// JSON text inside a string, which a tool may decode and read in the string's place (the
		// Python MCP SDK's servers do): a path's is judged both ways, a command's is refused.
		{name: "a path holding JSON text of a list", args: `{"path": "[\".env\"]"}`,
			want: safetyv1alpha1.ToolArguments{Paths: []string{`[".env"]`, ".env"}}},
		{name: "a list of paths, one holding JSON text with space around it", args: `{"paths": ["a", " [\"b\", \"c\"]\n"]}`,
			want: safetyv1alpha1.ToolArguments{Paths: []string{"a", " [\"b\", \"c\"]\n", "b", "c"}}},
		{name: "a path holding JSON text of an object", args: `{"path": "{\"p\": \".env\"}"}`,
			wantErr: `argument "path" holds JSON text of an array or object`},
		{name: "a path holding JSON text of a list of lists", args: `{"paths": ["[[\".env\"]]"]}`,
			wantErr: `argument "paths" holds JSON text`},
		{name: "a command holding JSON text of an argv", args: `{"cmd": "[\"cat\", \".env\"]"}`,
			wantErr: `argument "cmd" holds JSON text`},
		{name: "a directory holding JSON text", args: `{"dir": "[\"/etc\"]"}`, wantErr: `argument "dir" holds JSON text`},
		// Strings that only look like JSON are themselves.
		{name: "a path with brackets", args: `{"path": "[draft] notes.txt"}`,
			want: safetyv1alpha1.ToolArguments{Paths: []string{"[draft] notes.txt"}}},
		{name: "a path with braces", args: `{"path": "{a,b}.txt"}`,
			want: safetyv1alpha1.ToolArguments{Paths: []string{"{a,b}.txt"}}},
		{name: "a path that is a number's text", args: `{"path": "1"}`,
			want: safetyv1alpha1.ToolArguments{Paths: []string{"1"}}},
		{name: "an empty list's text names no more", args: `{"path": "[]"}`,
			want: safetyv1alpha1.ToolArguments{Paths: []string{"[]"}}},
		{name: "a shell test", args: `{"cmd": "[ -f x ] && cat x"}`,
			want: safetyv1alpha1.ToolArguments{Command: "[ -f x ] && cat x"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			call, err := toolcall.Build(toolcall.Invocation{Namespace: "ns", Plan: "p", Tool: "read",
				Arguments: json.RawMessage(tc.args), Map: m, Cwd: tc.base})
			if tc.wantErr != "" {
				var bad *toolcall.BadInvocationError
				if !errors.As(err, &bad) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Build() error = %v, want a BadInvocationError containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Build() error = %v", err)
			}
			if diff := cmp.Diff(tc.want, call.Spec.Arguments); diff != "" {
				t.Errorf("arguments (-want +got):\n%s", diff)
			}
			spec := call.Spec
			if call.Namespace != "ns" || spec.Plan != "p" || spec.Tool != "read" || !strings.HasPrefix(spec.Step, "read-") {
				t.Errorf("call = %+v", call)
			}
		})
	}
}

// Present keys (what a tool's input schema requires, for the gateway) must be named, with a value
// of any type; Required ones (the hook's built-ins) with a string.
func TestBuildRefusesAMissingPresentKey(t *testing.T) {
	m := toolcall.ArgumentMap{Paths: []string{"path"}, Present: []string{"path", "edits"}}
	cases := []struct{ args, wantErr string }{
		{args: `{"path": "a.go", "edits": [{"old": "a"}]}`},
		{args: `{"path": ["a.go"], "edits": null}`},
		{args: `{"edits": []}`, wantErr: `argument "path" is required and missing`},
		{args: `{"path": "a.go"}`, wantErr: `argument "edits" is required and missing`},
		{args: `{}`, wantErr: `argument "path" is required and missing`},
		{args: `null`, wantErr: `argument "path" is required and missing`},
		{args: ``, wantErr: `argument "path" is required and missing`},
	}
	for _, tc := range cases {
		_, err := toolcall.Build(toolcall.Invocation{Namespace: "ns", Plan: "p", Tool: "edit",
			Arguments: json.RawMessage(tc.args), Map: m})
		var bad *toolcall.BadInvocationError
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("Build(%s) error = %v", tc.args, err)
		case tc.wantErr != "" && (!errors.As(err, &bad) || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("Build(%s) error = %v, want a BadInvocationError containing %q", tc.args, err, tc.wantErr)
		}
	}
}

// A key a tool's schema requires may be one the map leaves out of the call (a write_file's
// content): present in the arguments, it is there, though nothing of it is decoded.
func TestBuildCountsAnOmittedPresentKey(t *testing.T) {
	m := toolcall.ArgumentMap{Paths: []string{"path"}, Present: []string{"path", "content"}, Omit: []string{"content"}}
	large := `{"path": "a.go", "content": "` + strings.Repeat("x", 64<<10) + `"}`
	for args, wantErr := range map[string]string{
		large:                               "",
		`{"path": "a.go", "content": null}`: "",
		`{"path": "a.go"}`:                  `argument "content" is required and missing`,
		`{"path": "a.go", "Content": "x"}`:  `argument "Content" is a respelling of "content"`,
		// An omitted value is data, forwarded unjudged, but a JavaScript server merging it would
		// still change Object.prototype: it is refused as an extra argument's key is.
		`{"path": "a.go", "content": {"cells": [{"__proto__": {"isAdmin": 1}}]}}`: `(at content.cells.__proto__)`,
		`{"path": "a.go", "content": {"constructor": {"prototype": 1}}}`:          `(at content.constructor.prototype)`,
		`{"path": "a.go", "content": {"cells": [{"source": "__proto__"}]}}`:       "",
	} {
		call, err := toolcall.Build(toolcall.Invocation{Namespace: "ns", Plan: "p", Tool: "write",
			Arguments: json.RawMessage(args), Map: m})
		switch {
		case wantErr == "" && err != nil:
			t.Errorf("Build(%.60s) error = %v", args, err)
		case wantErr == "" && !strings.HasPrefix(string(extraOf(call)), `{"omitted":{"content":"sha256:`):
			t.Errorf("Build(%.60s) carries %s; the omitted content is carried as its digest only", args, extraOf(call))
		case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
			t.Errorf("Build(%.60s) error = %v, want %q", args, err, wantErr)
		}
	}
}

// extraOf is the call's extra arguments, nil when it has none.
func extraOf(call *safetyv1alpha1.AgentToolCall) []byte {
	if call.Spec.Arguments.Extra == nil {
		return nil
	}
	return call.Spec.Arguments.Extra.Raw
}

// A map that leaves a key out of the call and also judges it is refused whatever the arguments:
// the key would reach the tool with nothing of it checked (a path omitted as "bulk content").
func TestBuildRefusesAMapThatOmitsAJudgedKey(t *testing.T) {
	for name, m := range map[string]toolcall.ArgumentMap{
		"command":        {Command: "cmd", Omit: []string{"cmd"}},
		"path":           {Paths: []string{"src", "dst"}, Omit: []string{"dst"}},
		"cwd":            {Paths: []string{"path"}, Cwd: "dir", Omit: []string{"dir"}},
		"tree path":      {TreePaths: []string{"root"}, Omit: []string{"root"}},
		"search pattern": {TreePaths: []string{"root"}, SearchPattern: "pattern", Omit: []string{"pattern"}},
		"required":       {Paths: []string{"path"}, Required: []string{"path", "mode"}, Omit: []string{"mode"}},
		// Respellings, as respelledKeys refuses an argument's (argrules.Respells): a tool taking
		// either spelling read the omitted one, unjudged.
		"path respelled":           {Paths: []string{"file_path"}, Omit: []string{"filePath"}},
		"path respelled by case":   {Paths: []string{"path"}, Omit: []string{"Path"}},
		"command respelled":        {Command: "cmd-line", Omit: []string{"cmd_line"}},
		"cwd respelled":            {Paths: []string{"path"}, Cwd: "work_dir", Omit: []string{"WorkDir"}},
		"tree path respelled":      {TreePaths: []string{"root"}, Omit: []string{"ROOT"}},
		"search pattern respelled": {TreePaths: []string{"root"}, SearchPattern: "pattern", Omit: []string{"Pattern"}},
		"required respelled":       {Paths: []string{"path"}, Required: []string{"path", "mode"}, Omit: []string{"Mode"}},
		"path respelled by a fold": {Paths: []string{"paths"}, Omit: []string{"path\u017f"}}, // ſ folds to s
	} {
		_, err := toolcall.Build(toolcall.Invocation{Namespace: "ns", Plan: "p", Tool: "t",
			Arguments: json.RawMessage(`{}`), Map: m})
		var bad *toolcall.BadInvocationError
		if !errors.As(err, &bad) || !strings.Contains(err.Error(), "the engine would not see it") {
			t.Errorf("%s: Build error = %v, want the map refused", name, err)
		}
	}
	_, err := toolcall.Build(toolcall.Invocation{Namespace: "ns", Plan: "p", Tool: "t", Arguments: json.RawMessage(`{}`),
		Map: toolcall.ArgumentMap{Paths: []string{"file_path"}, Omit: []string{"filePath"}}})
	if err == nil || !strings.Contains(err.Error(), `leaves "filePath" out of the call and judges "file_path"`) {
		t.Errorf("Build error = %v, want it to name both keys", err)
	}
}

// Omitted keys that respell no judged one leave the map as it was: a call of it is built, its
// omitted key forwarded and left out of the call.
func TestBuildTakesAMapThatOmitsKeysSpelledApart(t *testing.T) {
	for name, m := range map[string]toolcall.ArgumentMap{
		"content beside a path":            {Paths: []string{"path"}, Omit: []string{"content"}},
		"a longer key":                     {Paths: []string{"file_path"}, Omit: []string{"file_paths"}},
		"a key sharing a prefix":           {Paths: []string{"path"}, Omit: []string{"path_content"}},
		"a separator inside another word":  {Command: "cmd", Omit: []string{"c-m-d-s"}},
		"an omitted key's own respellings": {Paths: []string{"path"}, Omit: []string{"content", "Content"}},
	} {
		call, err := toolcall.Build(toolcall.Invocation{Namespace: "ns", Plan: "p", Tool: "t",
			Arguments: json.RawMessage(`{"path": "a.go", "file_path": "a.go", "cmd": "ls"}`), Map: m})
		if err != nil {
			t.Errorf("%s: Build error = %v, want the map taken", name, err)
			continue
		}
		if call.Spec.Arguments.Extra != nil && strings.Contains(string(call.Spec.Arguments.Extra.Raw), m.Omit[0]) {
			t.Errorf("%s: the call carries the omitted key: %s", name, call.Spec.Arguments.Extra.Raw)
		}
	}
}

// A refusal of the strict decoding names the tool's argument as what it is: "argument path", not
// the "extra argument path" of spec.arguments.extra's own decoding, which sent the agent looking
// for an extra argument where its path or command was refused.
func TestBuildNamesTheArgumentsDecodingRefuses(t *testing.T) {
	m := toolcall.ArgumentMap{Command: "cmd", Paths: []string{"path"}}
	for args, want := range map[string]string{
		`{"path": "a\u0000.env"}`:               `invalid tool invocation: argument path holds a NUL character`,
		`{"cmd": "cat \ud800"}`:                 `invalid tool invocation: argument cmd holds a lone UTF-16 surrogate`,
		`{"path": "a", "n": 1e400}`:             `invalid tool invocation: argument n is a number out of range`,
		`{"path": "a", "path": "b"}`:            `invalid tool invocation: arguments repeat the key "path"`,
		`{"path": "a", "o": {"__proto__": {}}}`: `invalid tool invocation: argument key "__proto__" (at o.__proto__)`,
		`[1]`:                                   `invalid tool invocation: arguments must be a JSON object`,
		`{"path": "a"} {}`:                      `invalid tool invocation: arguments hold more than one JSON value`,
	} {
		_, err := toolcall.Build(toolcall.Invocation{Namespace: "ns", Plan: "p", Tool: "t",
			Arguments: json.RawMessage(args), Map: m})
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "extra") {
			t.Errorf("Build(%s) error = %v, want it to start %q and not speak of extra arguments", args, err, want)
		}
	}
}

func TestStepForIgnoresKeyOrderAndSpacing(t *testing.T) {
	a := toolcall.StepFor("t", json.RawMessage(`{"a":1,"b":2}`))
	b := toolcall.StepFor("t", json.RawMessage(` { "b": 2, "a": 1 }`))
	c := toolcall.StepFor("t", json.RawMessage(`{"a":1,"b":3}`))
	if a != b || a == c {
		t.Errorf("StepFor: %q, %q, %q; want the first two equal and the third different", a, b, c)
	}
	// Tools whose names fold to the same label are different steps for the same arguments: a
	// call of one is no retry of the other.
	for _, other := range []string{"T", "t_", "read_file"} {
		if toolcall.StepFor(other, json.RawMessage(`{"a":1,"b":2}`)) == a {
			t.Errorf("StepFor(%q) = StepFor(%q) for the same arguments", other, "t")
		}
	}
	if toolcall.StepFor("read_file", nil) == toolcall.StepFor("read-file", nil) {
		t.Error("read_file and read-file are one step")
	}
	if long := toolcall.StepFor(strings.Repeat("x", 253), nil); len(long) > 63 {
		t.Errorf("StepFor of a long tool name is %d characters", len(long))
	}
}

func denial(reason, message string) error {
	err := apierrors.NewForbidden(schema.GroupResource{Group: "safety.toolgate.dev", Resource: "agenttoolcalls"}, "",
		errors.New("["+reason+"] "+message))
	err.ErrStatus.Details.Causes = []metav1.StatusCause{
		{Type: metav1.CauseType(reason), Field: "spec.arguments.paths[0]", Message: message}}
	return err
}

func TestDecide(t *testing.T) {
	schemaErr := apierrors.NewInvalid(schema.GroupKind{Kind: "AgentToolCall"}, "x", nil)
	cases := []struct {
		name    string
		err     error
		want    toolcall.Result
		wantErr bool
	}{
		{name: "admitted", want: toolcall.Result{Allowed: true}},
		{name: "denied", err: denial("ToolAccessDenied", "path .env is protected"),
			want: toolcall.Result{Reason: "ToolAccessDenied", Field: "spec.arguments.paths[0]",
				Message: "path .env is protected"}},
		{name: "a forbidden without toolgate's cause",
			err: apierrors.NewForbidden(schema.GroupResource{}, "", errors.New("rbac")), wantErr: true},
		{name: "a schema error", err: schemaErr, wantErr: true},
		// The API server quotes the agent's value in a schema error: a value spelling a
		// "[Reason]" is still no denial (a program would act on a reason toolgate never gave).
		{name: "a schema error quoting a reason", wantErr: true,
			err: apierrors.NewInvalid(schema.GroupKind{Kind: "AgentToolCall"}, "x", field.ErrorList{
				field.Invalid(field.NewPath("spec", "step"), "[FieldValueInvalid]", "must be a DNS label")})},
		{name: "a transport error", err: errors.New("connection refused"), wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := toolcall.Decide(tc.err)
			if (err != nil) != tc.wantErr {
				t.Fatalf("Decide() error = %v, wantErr %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Decide() (-want +got):\n%s", diff)
			}
		})
	}
	if text := (toolcall.Result{Reason: "ToolAccessDenied", Message: "no"}).Text(); text != "[ToolAccessDenied] no" {
		t.Errorf("Text() = %q", text)
	}
}

func FuzzBuild(f *testing.F) {
	f.Add([]byte(`{"path": ".env", "cmd": "cat .env"}`))
	f.Fuzz(func(t *testing.T, args []byte) {
		call, err := toolcall.Build(toolcall.Invocation{Tool: "t", Arguments: args,
			Map: toolcall.ArgumentMap{Command: "cmd", Paths: []string{"path"}}})
		if err == nil && call.Spec.Step == "" {
			t.Fatal("admitted invocation without a step")
		}
	})
}

// A map's tree paths become the call's search command, each root a path too; the pattern and
// include keys it names stay in extra, for argument rules.
func TestBuildTreePaths(t *testing.T) {
	m := toolcall.ArgumentMap{TreePaths: []string{"root", "roots"}, SearchPattern: "q", SearchInclude: "files"}
	cases := []struct {
		name, args, wantErr string
		want                safetyv1alpha1.ToolArguments
	}{
		{name: "one root", args: `{"root": "/etc", "q": "root:"}`,
			want: safetyv1alpha1.ToolArguments{Command: "grep -r -e root: -- /etc", Paths: []string{"/etc"},
				Extra: &runtime.RawExtension{Raw: []byte(`{"q":"root:"}`)}}},
		{name: "several roots, a glob and a pattern that needs quoting",
			args: `{"roots": ["src", "a b"], "q": "it's", "files": "*.env"}`,
			want: safetyv1alpha1.ToolArguments{Command: `grep -r --include='*.env' -e 'it'\''s' -- src 'a b'`,
				Paths: []string{"src", "a b"},
				Extra: &runtime.RawExtension{Raw: []byte(`{"files":"*.env","q":"it's"}`)}}},
		{name: "no root: the working directory", args: `{}`,
			want: safetyv1alpha1.ToolArguments{Command: "grep -r -e '' -- ."}},
		{name: "an empty root: the working directory", args: `{"root": ""}`,
			want: safetyv1alpha1.ToolArguments{Command: "grep -r -e '' -- .", Paths: []string{"."}}},
		{name: "a blank root: the working directory, as a tool that trims it searches", args: `{"root": " \u3000"}`,
			want: safetyv1alpha1.ToolArguments{Command: "grep -r -e '' -- .", Paths: []string{"."}}},
		{name: "a root that reads like an option", args: `{"root": "-f/etc/shadow"}`,
			want: safetyv1alpha1.ToolArguments{Command: "grep -r -e '' -- -f/etc/shadow", Paths: []string{"-f/etc/shadow"}}},
		{name: "a root that is not a string", args: `{"root": 7}`,
			wantErr: `argument "root" must be a string or an array of strings`},
		{name: "a pattern that is not a string", args: `{"root": "src", "q": ["x"]}`,
			wantErr: `argument "q" must be a string`},
		{name: "a respelled root", args: `{"Root": "/etc"}`, wantErr: `"Root" is a respelling of "root"`},
		{name: "a root holding JSON text of a list, searched both ways", args: `{"root": "[\"/etc\"]"}`,
			want: safetyv1alpha1.ToolArguments{Command: `grep -r -e '' -- '["/etc"]' /etc`,
				Paths: []string{`["/etc"]`, "/etc"}}},
		{name: "a pattern that is JSON text is a pattern", args: `{"root": "src", "q": "[0]"}`,
			want: safetyv1alpha1.ToolArguments{Command: "grep -r -e '[0]' -- src", Paths: []string{"src"},
				Extra: &runtime.RawExtension{Raw: []byte(`{"q":"[0]"}`)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			call, err := toolcall.Build(toolcall.Invocation{Tool: "search", Arguments: []byte(tc.args), Map: m})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Build() error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Build() error = %v", err)
			}
			if diff := cmp.Diff(tc.want, call.Spec.Arguments); diff != "" {
				t.Errorf("arguments (-want +got):\n%s", diff)
			}
		})
	}
	both := toolcall.ArgumentMap{Command: "cmd", TreePaths: []string{"root"}}
	_, err := toolcall.Build(toolcall.Invocation{Tool: "search", Arguments: []byte(`{"root": "."}`), Map: both})
	if err == nil || !strings.Contains(err.Error(), "both a command") {
		t.Errorf("a map with a command and tree paths: error %v, want one saying it names both", err)
	}
}
