package safety

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// buildsElsewhereFindings adds a finding for the first build or test tool (buildsHere), or command
// whose environment takes code from below its directory (codeHereVar), run in a directory outside
// the workspace, or one not known: cd /tmp/x && go test ./... runs /tmp/x's
// tests, npm test there its package.json's script, a declared make test its Makefile. The
// project's commands and the recognised runners are the project's only when they build the
// project, as git is judged by the repository it opens (gitRepositoryFindings). Without a
// workspace the project is the call's working directory and its siblings (projectBoundary), as a
// relative path an option names is judged; without either there is no boundary to judge by.
// Without a workspace, the project directory the call's front door names (projectDir: the hook's
// CLAUDE_PROJECT_DIR, which the agent's cd does not move) bounds it too, by its parent likewise:
// from a cwd of /tmp, npm test ran /tmp's package.json's script. The agent can set it on a call of
// its own, so it only narrows: a directory must be within both. Container builds and compose are
// judged by the host paths they read (containerbuild.go); a version or help query runs no definition.
func (p *Policy) buildsElsewhereFindings(an *analysis, projectDir string) {
	if an == nil {
		return
	}
	bounds := p.buildBounds(an.cwd, projectDir)
	if len(bounds) == 0 {
		return
	}
	p.namedElsewhereFindings(an, bounds)
	for i := range an.segments {
		s := &an.segments[i]
		builds, envVar := buildsHere(s), ""
		if !builds {
			envVar = codeHereVar(s)
		}
		if !builds && envVar == "" || s.opaque || containerClients[s.name] || definitionFree(s) || an.runsElsewhere(i) ||
			slices.Contains(an.inRepos, i) {
			continue
		}
		dir := s.cwd
		bound, outside := outsideOf(dir, bounds)
		if !outside {
			continue
		}
		where := fmt.Sprintf("the directory %q", dir)
		if dir == "" || dir == cwdUnknown || !strings.HasPrefix(dir, "/") {
			where = "a directory the engine does not know"
		}
		what := "builds or tests in " + where
		if !builds {
			what = fmt.Sprintf("takes code from %s (%s, relative to it)", where, envVar)
		}
		an.findings = append(an.findings, finding{rule: RuleOpaqueCode, msg: fmt.Sprintf(
			"command %q %s, outside %s: it runs the definitions and code it finds there, which are not the project's; it needs human approval",
			truncate(s.text, 120), what, p.buildBoundName(bound))})
		return
	}
}

// namedElsewhereFindings adds a finding for the first relative project, definition file or
// test path a recognised build or test tool names (outsideProject judges the spelling alone:
// below the working directory or one level above it) that, from the directory the segment runs
// in, is outside the bounds: cd .. && cargo test --manifest-path ../x/Cargo.toml builds the
// crate two levels above the call's directory, and so does pushd .. or a subshell's cd. What
// runs in a container, or in a worktree the line made, is left as buildsElsewhereFindings leaves it.
func (p *Policy) namedElsewhereFindings(an *analysis, bounds []buildBound) {
	for i := range an.segments {
		s := asTool(&an.segments[i]) // python -m pytest is pytest
		if s.opaque || !slices.Contains(outsideProjectTools, s.name) || !strings.HasPrefix(s.cwd, "/") || containerClients[s.name] ||
			an.runsElsewhere(i) || slices.Contains(an.inRepos, i) {
			continue
		}
		for _, v := range append(namedProjects(s), testPathOperands(s)...) {
			if v.dynamic || strings.HasPrefix(v.s, "/") || !inThisProject(v.s) {
				continue // judged by outsideProject already
			}
			dir := path.Join(s.cwd, v.s)
			if bound, outside := outsideOf(dir, bounds); outside {
				an.findings = append(an.findings, finding{rule: RuleOpaqueCode, msg: fmt.Sprintf(
					"command %q names %q, which from the directory %q is %q, outside %s: it runs the definitions and code it finds there, which are not the project's; it needs human approval",
					truncate(s.text, 120), v.s, s.cwd, dir, p.buildBoundName(bound))})
				return
			}
		}
	}
}

// buildBound is a directory a build must run within; projectDir is the project directory the
// call names when the bound is its parent.
type buildBound struct{ dir, projectDir string }

// buildBounds are the directories a build must run within (buildsElsewhereFindings).
func (p *Policy) buildBounds(cwd, projectDir string) []buildBound {
	bounds := make([]buildBound, 0, 2)
	if bound := p.projectBoundary(cwd); bound != "" {
		bounds = append(bounds, buildBound{dir: bound})
	}
	if p.workspace == "" && strings.HasPrefix(projectDir, "/") && len(projectDir) <= maxPathLength {
		dir := resolvePath("", projectDir)
		bounds = append(bounds, buildBound{dir: path.Dir(dir), projectDir: dir})
	}
	return bounds
}

// buildBoundName names a buildBound in messages, built only for a finding.
func (p *Policy) buildBoundName(b buildBound) string {
	if b.projectDir == "" {
		return p.boundaryName(b.dir)
	}
	return "the project's directory " + b.dir + " (the parent of the project directory " + b.projectDir +
		" the call names: no workspace is set)"
}

// outsideOf returns the first of bounds dir is not within, and false when it is within all; a
// directory not known, or not absolute, is within none.
func outsideOf(dir string, bounds []buildBound) (buildBound, bool) {
	for _, b := range bounds {
		if dir == "" || dir == cwdUnknown || !strings.HasPrefix(dir, "/") || !under(dir, b.dir) {
			return b, true
		}
	}
	return buildBound{}, false
}

// codeHereVars name, relative (entriesBelow: other values are opaque already), a directory of
// the project's own code or environment below the working directory: PYTHONPATH=src pytest imports
// the project's src. Run in a directory outside the workspace (a cwd the agent chose, /tmp), the
// same spelling takes code from there: PYTHONPATH=x black --check /workspace/app imported /tmp/x.
// They are the module search paths and Python environments the engine reads relative entries of
// as the project's (moduleSearchPathVars, pythonEnvironmentVars), and the other directories of
// code it does so for.
var codeHereVars = func() map[string]bool {
	m := wordSet("TOX_WORK_DIR DENO_DIR UV_PROJECT UV_PROJECT_ENVIRONMENT")
	maps.Copy(m, moduleSearchPathVars)
	maps.Copy(m, pythonEnvironmentVars)
	return m
}()

// codeHereVar returns the first NAME=VALUE of the segment's environment that takes code from below
// its working directory (codeHereVars), or "".
func codeHereVar(s *segment) string {
	for _, e := range s.env {
		if name, val, _ := strings.Cut(e, "="); codeHereVars[name] && val != "" {
			return e
		}
	}
	return ""
}

// containerClients are judged by the host paths their builds and compose files read.
var containerClients = map[string]bool{cmdDocker: true, cmdPodman: true, cmdNerdctl: true, cmdDockerCompose: true, cmdPodmanCompose: true}

// definitionFree says whether a build tool's segment only asks for its version or help, or is a
// go query that reads no definition of the directory's that runs code.
func definitionFree(s *segment) bool {
	if s.hasFlag("--version") || s.hasFlag("--help") || s.hasExactFlag("-h") {
		return true
	}
	return s.name == "go" && len(s.operands) > 0 && slices.Contains([]string{"version", cmdEnv, "doc", "help"}, s.operands[0].s)
}

// runsElsewhere says whether segment i runs on another machine or in a container (ssh host
// make, docker run img go test), whose directories are not this machine's.
func (an *analysis) runsElsewhere(i int) bool {
	return slices.ContainsFunc(an.elsewhere, func(r [2]int) bool { return i >= r[0] && i < r[1] })
}
