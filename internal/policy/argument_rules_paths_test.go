package policy_test

import (
	"testing"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/argrules"
	"github.com/toolgate/toolgate/internal/policy"
)

// A rule reads the working directory and the paths as the engine resolves them ("..", ".", "//",
// a file: URL, a /proc link), not as the agent spelled them: the tool opens /etc for
// "/workspace/../etc", which the rule cwd.startsWith('/workspace/') would otherwise admit.
func TestArgumentRulesReadResolvedPaths(t *testing.T) {
	set, errs := argrules.Compile([]argrules.Rule{
		{Name: "cwd", Expression: "cwd == '' || cwd == '/workspace' || cwd.startsWith('/workspace/')"},
		{Name: "paths", Expression: "paths.all(p, p.startsWith('/workspace/'))"},
	})
	if errs != nil {
		t.Fatalf("Compile() = %v", errs)
	}
	cases := []struct {
		name  string
		cwd   string
		paths []string
		want  string // the rule that denies; "" admits
	}{
		{name: "a cwd climbing out", cwd: "/workspace/../etc", want: "cwd"},
		{name: "a cwd climbing out deeper", cwd: "/workspace/a/./../../etc", want: "cwd"},
		{name: "a cwd through /proc's link to the root", cwd: "/proc/self/root/etc", want: "cwd"},
		{name: "a relative cwd", cwd: "workspace/x", want: "cwd"},
		{name: "a path climbing out", cwd: "/workspace", paths: []string{"/workspace/../etc/shadow"}, want: "paths"},
		{name: "a relative path climbing out of the cwd", cwd: "/workspace/a", paths: []string{"src/x", "../../etc/shadow"}, want: "paths"},
		{name: "a file URL", cwd: "/workspace", paths: []string{"file:///workspace/%2e%2e/etc/shadow"}, want: "paths"},
		{name: "a relative path without a cwd", paths: []string{"../etc/shadow"}, want: "paths"},
		// Near misses: spellings of places under /workspace.
		{name: "the workspace with a trailing slash", cwd: "/workspace/"},
		{name: "a cwd below it with a dot", cwd: "/workspace/./src"},
		{name: "paths that climb within it", cwd: "/workspace/a", paths: []string{"/workspace/a/../b", "c/../d", "/workspace//e"}},
		{name: "no cwd and no paths"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			call := &safetyv1alpha1.AgentToolCall{Spec: safetyv1alpha1.AgentToolCallSpec{Tool: "t",
				Arguments: safetyv1alpha1.ToolArguments{Cwd: tc.cwd, Paths: tc.paths}}}
			in, err := policy.ArgumentRuleInput(call)
			if err != nil {
				t.Fatal(err)
			}
			v := set.Evaluate(in)
			switch {
			case tc.want == "" && v != nil:
				t.Fatalf("Evaluate(cwd %q, paths %q) = %+v, want admitted", in.Cwd, in.Paths, v)
			case tc.want != "" && (v == nil || v.Rule != tc.want):
				t.Fatalf("Evaluate(cwd %q, paths %q) = %+v, want rule %s to deny", in.Cwd, in.Paths, v, tc.want)
			}
		})
	}
}
