package safety

import "testing"

// A project root — a directory the engine takes to hold the project's protected files (.env,
// .git, README.md) — was the policy's workspace or the call's working directory (or above them).
// The working directory is the agent's to choose: from /tmp, a search, a copy or a delete of the
// project named by its absolute path was judged as one of any other directory. The project's
// directory is a fact the platform (ProjectPolicy spec.workspace) or the hook (CLAUDE_PROJECT_DIR,
// as Arguments.ProjectDir) supplies; either makes it a project root, whatever the cwd.
func TestProjectRootsOutsideCwd(t *testing.T) {
	const project = "/workspace/app"
	grepTool := Tool{Name: "grep", ActionClass: ClassRead}
	bash := Tool{Name: "bash", Writes: true, ActionClass: ClassExecute}
	call := func(tool Tool, cwd, projectDir, cmd string) Call {
		return Call{Tool: tool, Args: Arguments{Command: cmd, Cwd: cwd, ProjectDir: projectDir}}
	}
	// Yolo, so that what the autonomy mapping would hold for a person anyway (a delete is
	// system_modify) does not hide what the path policy decides; Default for the near misses.
	none := mustCompile(t, &Profile{}, ProjectRules{Autonomy: AutonomyYolo})
	ws := mustCompile(t, &Profile{}, ProjectRules{Workspace: project, Autonomy: AutonomyYolo})
	wsDefault := mustCompile(t, &Profile{}, ProjectRules{Workspace: project})
	ask, noDelete := asked(RuleContainsProtected), denied(RulePrefixPathPolicy+"noDelete")
	admitted := outcome{Verdict: VerdictAllow}
	for _, tc := range []struct {
		name string
		pol  *Policy
		c    Call
		want outcome
	}{
		// The class: the project named from another cwd, the project known to the engine.
		{"search of the workspace from /tmp", ws, call(grepTool, "/tmp", "", "grep -r -e 'SECRET' -- "+project), ask},
		{"grep -r of the workspace from /tmp", ws, call(bash, "/tmp", "", "grep -r SECRET "+project), ask},
		{"cp -r of the workspace from /tmp", ws, call(bash, "/tmp", "", "cp -r "+project+" /tmp/out"), ask},
		{"tar of the workspace from /tmp", ws, call(bash, "/tmp", "", "tar czf /tmp/a.tgz "+project), ask},
		{"rm -rf of the workspace from /tmp", ws, call(bash, "/tmp", "", "rm -rf "+project), noDelete},
		{"rm -rf of the directory above the workspace from /tmp", ws, call(bash, "/tmp", "", "rm -rf /workspace"), noDelete},
		{"rm of every file of the workspace from /tmp", ws, call(bash, "/tmp", "", "rm -f "+project+"/*"), noDelete},
		{"search of the hook's project dir from /tmp", none, call(grepTool, "/tmp", project, "grep -r -e 'SECRET' -- "+project), ask},
		{"grep -r of the hook's project dir from /tmp", none, call(bash, "/tmp", project, "grep -r SECRET "+project), ask},
		{"rm -rf of the hook's project dir from /tmp", none, call(bash, "/tmp", project, "rm -rf "+project), noDelete},
		{"rm of every file of the hook's project dir from /tmp", none, call(bash, "/tmp", project, "rm "+project+"/*"), noDelete},
		{"cp -r of a glob matching the hook's project dir", none, call(bash, "/tmp", project, "cp -r /workspace/ap? /tmp/out"), ask},
		{"project dir not clean", none, call(bash, "/tmp", project+"/./src/..", "rm -rf "+project), noDelete},
		// The same from inside the project, as before.
		{"search of the project from inside it", none, call(grepTool, project, "", "grep -r -e 'SECRET' -- "+project), ask},
		{"rm -rf of the project from inside it", none, call(bash, project, "", "rm -rf "+project), noDelete},
		// Near misses that stay admitted.
		{"grep -r of a subdirectory inside the project", ws, call(bash, project, project, "grep -r x src/"), admitted},
		{"grep -r of a subdirectory from /tmp", ws, call(bash, "/tmp", project, "grep -r x "+project+"/src"), admitted},
		{"grep -r of an unrelated directory", ws, call(bash, project, project, "grep -r x /tmp/logs"), admitted},
		{"rm -rf of a build directory of the project", ws, call(bash, "/tmp", project, "rm -rf "+project+"/build"), admitted},
		{"rm -rf of a sibling of the project", none, call(bash, "/tmp", project, "rm -rf /workspace/other"), admitted},
		{"no project dir, no workspace: the old judgement", none, call(bash, "/tmp", "", "grep -r SECRET "+project), admitted},
		{"a relative project dir is no fact", none, call(bash, "/tmp", "workspace/app", "grep -r SECRET "+project), admitted},
		{"the project dir does not make an extraction into the home directory the project's", none,
			call(bash, "/tmp", "/root", "tar -xf /tmp/x.tar -C /root"), asked(RuleDynamicWriteTarget)},
		{"Default: grep -r of a subdirectory inside the project", wsDefault, call(bash, project, project, "grep -r x src/"), admitted},
		{"Default: Grep of a subdirectory from /tmp", wsDefault, call(grepTool, "/tmp", project, "grep -r -e 'x' -- "+project+"/src"), admitted},
		{"Default: the project dir does not relax reads outside the workspace", wsDefault,
			call(grepTool, "/tmp", "/srv", "grep -r -e 'x' -- /srv/data"), asked(RulePrefixAutonomy + "read-outside-workspace")},
	} {
		t.Run(tc.name, func(t *testing.T) { expectOutcome(t, Evaluate(tc.pol, tc.c), tc.want) })
	}
}
