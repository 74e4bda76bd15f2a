package safety

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// A program named by a path is the file at that path, whatever its name says. The engine reads a
// segment by its program's base name (the rules of ls, git, a declared ./scripts/check.sh), so
// /tmp/x/ls, a file the agent wrote in /tmp in an earlier call, was admitted at Default as ls, and
// /tmp/x/check.sh as the project's declared ./scripts/check.sh. Where the file is decides:
//   - an installed program's directory (/usr/bin, /opt, a home directory's tool directories such
//     as ~/.cargo/bin, whose writes are system changes): the program its name says;
//   - the project (the workspace, or without one the working directory and its siblings):
//     the project's own file, unrecognised as ./scripts/x.sh is (asked at Default, admitted at
//     Yolo), unless it is the declared project command's own path, a package manager's installed
//     tool (node_modules/.bin/jest, .venv/bin/pytest) that npx or the environment would run by
//     that name, or the project's Gradle or Maven wrapper (./gradlew, ./mvnw: gradle and mvn);
//   - anywhere else (/tmp, the home directory, a directory computed at run time): a program from
//     outside the project, code the engine has not seen, opaque at every level as bash /tmp/x.sh
//     and PATH=/tmp/x ls are.

// programPlace is where a segment's program file is, as the engine judges it.
type programPlace uint8

const (
	placeUnjudged programPlace = iota // not yet judged (segment.place)
	placeByName                       // run by its name, or from an installed program's directory
	placeProject                      // a file of the project's, not the program its name says
	placeOutside                      // a file from outside the project
)

// installedRoots are the directories installed programs live in, whose writes are system changes.
var installedRoots = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix", "/snap"}

// homeToolDirs are the directories below a home directory that language toolchains and version
// managers install programs in (writing them is a system change, as installing a tool is).
var homeToolDirs = []string{".cargo/bin", "go/bin", ".local/bin", ".bun/bin", ".deno/bin", ".volta/bin", ".nvm/versions",
	".pyenv", ".asdf", ".local/share/mise", ".dotnet/tools", ".sdkman/candidates", ".rbenv", ".krew/bin", ".yarn/bin",
	".npm-global/bin", ".rustup/toolchains", ".juliaup/bin", ".ghcup/bin", ".elan/bin", ".foundry/bin"}

// venvTools are the programs a Python virtual environment's bin directory holds that the engine
// reads by their names, as it does when the environment is active.
var venvTools = wordSet("python python3 pip pip3 pytest py.test mypy ruff black isort flake8 pylint coverage tox nox pyright")

// projectBoundary is the directory the project is taken to be when judging where code comes from:
// the workspace, or without one the parent of the call's working directory (a sibling one level
// up, a multi-module repository's ../web, is the project's, as belowProject reads a relative
// path); "" when neither is known.
func (p *Policy) projectBoundary(cwd string) string {
	if p.workspace != "" {
		return p.workspace
	}
	if strings.HasPrefix(cwd, "/") {
		return path.Dir(cwd)
	}
	return ""
}

// boundaryName names a projectBoundary in messages.
func (p *Policy) boundaryName(bound string) string {
	if bound == p.workspace {
		return "the workspace " + bound
	}
	return "the project's directory " + bound + " (the working directory's parent: no workspace is set)"
}

// programPlace returns where the segment's program file is, and its path as resolved; judged
// once a segment, as one call's policy and working directory judge it every time.
func (p *Policy) programPlace(s *segment, start string) (programPlace, string) {
	w := s.words[0]
	if w.dynamic || !strings.ContainsRune(w.s, '/') {
		return placeByName, ""
	}
	if s.place == placeUnjudged {
		s.place, _ = p.placeOf(s, start)
	}
	if s.place == placeByName {
		return placeByName, "" // no path needed: matched by name
	}
	_, prog := p.placeOf(s, start) // the path, only for what is not run by name (rare)
	return s.place, prog
}

// placeOf is programPlace's judgement of a program named by a path.
func (p *Policy) placeOf(s *segment, start string) (programPlace, string) {
	prog := s.words[0].s
	if !strings.HasPrefix(prog, "/") && !strings.HasPrefix(prog, "~") {
		if s.cwd == cwdUnknown {
			return placeOutside, prog
		}
		if s.cwd != "" {
			prog = s.cwd + "/" + prog
		}
	}
	if strings.HasPrefix(prog, "~") {
		// ~/x and ~user/x: below a home directory, outside the project unless a tool directory.
		_, rest, _ := strings.Cut(prog, "/")
		if rest = path.Clean(rest); !strings.HasPrefix(rest, "..") && inAny(rest, homeToolDirs) {
			return placeByName, prog
		}
		return placeOutside, prog
	}
	prog = path.Clean(prog)
	if !strings.HasPrefix(prog, "/") {
		// Relative to a working directory the engine does not know: the project's when below it.
		if !belowProject(prog) {
			return placeOutside, prog
		}
		return projectTool(prog), prog
	}
	if b := p.projectBoundary(start); b != "" && under(prog, b) {
		return projectTool(prog), prog
	}
	if inAny(prog, installedRoots) {
		return placeByName, prog
	}
	if home, ok := homeDirOf(prog); ok && inAny(home, homeToolDirs) {
		return placeByName, prog
	}
	return placeOutside, prog
}

// homeDirOf returns a path below /root or /home/USER relative to that home directory.
func homeDirOf(p string) (string, bool) {
	if rest, ok := strings.CutPrefix(p, "/root/"); ok {
		return rest, true
	}
	if rest, ok := strings.CutPrefix(p, "/home/"); ok {
		if _, after, ok := strings.Cut(rest, "/"); ok {
			return after, true
		}
	}
	return "", false
}

// projectTool says how a program file of the project's is read: by its name in a package
// manager's bin directory when npx or the environment would run it by that name, else as the
// project's own file.
func projectTool(prog string) programPlace {
	dir, name := path.Split(prog)
	dir = strings.TrimSuffix(dir, "/")
	switch {
	case name == wrapperGradle || name == wrapperMaven:
		return placeByName // the project's build wrapper (words.go's programAliases)
	case path.Base(dir) == ".bin" && path.Base(path.Dir(dir)) == "node_modules" && (runnerProjectBins[name] || slices.Contains(buildTools, name)):
		return placeByName
	case path.Base(dir) == "bin" && (path.Base(path.Dir(dir)) == ".venv" || path.Base(path.Dir(dir)) == "venv") && venvTools[name]:
		return placeByName
	}
	return placeProject
}

// outsideProgramFindings adds a finding for the first program run by a path outside the project.
func (p *Policy) outsideProgramFindings(an *analysis) {
	if an == nil {
		return
	}
	for i := range an.segments {
		s := &an.segments[i]
		if s.wrapper || s.localFunc || s.name == "" {
			continue
		}
		if place, prog := p.programPlace(s, an.cwd); place == placeOutside {
			an.findings = append(an.findings, finding{rule: RuleOpaqueCode, msg: fmt.Sprintf(
				"command %q runs the program %q, a file from outside the project: code the engine has not seen, whatever its name says; it needs human approval",
				truncate(s.words[0].s+s.text[len(s.name):], 120), prog)})
			return
		}
	}
}
