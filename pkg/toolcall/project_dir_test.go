package toolcall_test

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/pkg/toolcall"
)

// An invocation's project directory goes to spec.arguments.projectDir, cleaned; one the CRD
// would refuse (relative, too long) is refused before anything is sent, naming it.
func TestBuildProjectDir(t *testing.T) {
	for _, tc := range []struct{ dir, want, wantErr string }{
		{"", "", ""},
		{"/workspace/app", "/workspace/app", ""},
		{"/workspace/app/", "/workspace/app", ""},
		{"/workspace//app/./src/..", "/workspace/app", ""},
		{"workspace/app", "", "not an absolute path"},
		{"/" + strings.Repeat("d", toolcall.MaxCwdLength), "", "more than 1024"},
	} {
		call, err := toolcall.Build(toolcall.Invocation{Namespace: "ns", Plan: "p", Tool: "bash", Cwd: "/tmp",
			Arguments: []byte(`{"command":"ls"}`), Map: toolcall.ArgumentMap{Command: "command"}, ProjectDir: tc.dir})
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "project directory") {
				t.Errorf("%q: error %v, want one naming the project directory and %q", tc.dir, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.dir, err)
		}
		if got := call.Spec.Arguments.ProjectDir; got != tc.want {
			t.Errorf("%q: projectDir %q, want %q", tc.dir, got, tc.want)
		}
		if call.Spec.Arguments.Cwd != "/tmp" {
			t.Errorf("%q: cwd %q, want the invocation's /tmp: the project directory is no working directory",
				tc.dir, call.Spec.Arguments.Cwd)
		}
	}
}
