package safety

import "testing"

// Without a workspace, the project a build or test tool must run in was bounded by the call's
// working directory alone (its parent), which the agent chooses: with cwd /tmp, npm test ran
// /tmp's package.json's script and PYTHONPATH=x black imported /tmp/x, admitted at Default. The
// project directory the hook names (Arguments.ProjectDir, Claude Code's CLAUDE_PROJECT_DIR)
// bounds it too; it only narrows, since an agent can name one on a call of its own.
func TestBuildsElsewhereBoundedByTheProjectDir(t *testing.T) {
	const project = "/workspace/app"
	bash := Tool{Name: "bash", Writes: true, ActionClass: ClassExecute}
	call := func(cwd, projectDir, cmd string) Call {
		return Call{Tool: bash, Args: Arguments{Command: cmd, Cwd: cwd, ProjectDir: projectDir}}
	}
	none := mustCompile(t, &Profile{}, ProjectRules{})
	ws := mustCompile(t, &Profile{}, ProjectRules{Workspace: "/srv"})
	ask := asked(RuleOpaqueCode)
	admitted := outcome{Verdict: VerdictAllow}
	for _, tc := range []struct {
		name string
		pol  *Policy
		c    Call
		want outcome
	}{
		// The class: a build, a test run or code taken from the cwd, outside the hook's project.
		{"npm test from /tmp", none, call("/tmp", project, "npm test"), ask},
		{"pytest from /tmp", none, call("/tmp", project, "pytest -q"), ask},
		{"go test from /tmp", none, call("/tmp", project, "go test ./..."), ask},
		{"make from /tmp", none, call("/tmp", project, "make"), ask},
		{"a search path relative to /tmp", none, call("/tmp", project, "PYTHONPATH=x black --check "+project), ask},
		{"cd to /tmp first", none, call(project, project, "cd /tmp/x && npm test"), ask},
		{"the project dir spelt unclean", none, call("/tmp", project+"/./src/..", "npm test"), ask},
		// Near misses: in the project, below it, a sibling; no fact; a workspace decides alone.
		{"npm test in the project", none, call(project, project, "npm test"), admitted},
		{"npm test below the project", none, call(project+"/web", project, "npm test"), admitted},
		{"npm test in a sibling of the project", none, call("/workspace/lib", project, "npm test"), admitted},
		{"a search path relative to the project", none, call(project, project, "PYTHONPATH=src pytest -q"), admitted},
		{"no project dir: the cwd bounds alone, as before", none, call("/tmp", "", "npm test"), admitted},
		{"a relative project dir is no fact", none, call("/tmp", "workspace/app", "npm test"), admitted},
		{"a version query runs no definition", none, call("/tmp", project, "npm --version"), admitted},
		{"the project dir / widens nothing", none, call("/workspace/app", "/", "cd /tmp/x && npm test"), ask},
		{"with a workspace the workspace bounds", ws, call("/srv/app", project, "npm test"), admitted},
	} {
		t.Run(tc.name, func(t *testing.T) { expectOutcome(t, Evaluate(tc.pol, tc.c), tc.want) })
	}
}
