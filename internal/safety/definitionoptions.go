package safety

import (
	"path"
	"slices"
	"strings"
)

// A build or test tool told where its definition is — cargo --manifest-path, docker compose -f,
// tox -c, just --justfile, gradle --init-script, npm --prefix — runs what that file says, or what
// the definitions in that directory say, not its working directory's. A line that wrote the file
// (by any name: just --justfile /tmp/j) or a definition in that directory, or that feeds the file
// on standard input (just --justfile /dev/stdin <<EOF), runs what it wrote, unseen, as echo ... >
// Makefile && make does (writtenbuilds.go). A definition the project holds elsewhere (cargo build
// --manifest-path crates/x/Cargo.toml, docker compose -f compose.dev.yml up) stays admitted.

// defFileOption and defDirOption name, per build or test tool, its options whose value is a
// definition file (its directory's definitions are read too: cargo's build.rs beside the
// manifest; mvn -f and tox -c take a directory as well) or the directory it reads its definitions in; each a short and a long spelling
// (optionValues), the same twice when there is one.
//
//nolint:goconst // option spellings read best literally, next to their neighbours
var (
	defFileOptions = map[string][][2]string{
		"just":    {{"-f", "--justfile"}},
		"task":    {{"-t", "--taskfile"}},
		"rake":    {{"-f", "--rakefile"}, {"-r", "--require"}},
		"gradle":  {{"-b", "--build-file"}, {"-c", "--settings-file"}, {"-I", "--init-script"}},
		"mvn":     {{"-f", "--file"}},
		"ant":     {{"-f", "-buildfile"}, {"-file", "-file"}},
		"tox":     {{"-c", "--conf"}}, // tox 4's long spelling of -c
		"nox":     {{"-f", "--noxfile"}},
		"ninja":   {{"-f", "-f"}},
		"scons":   {{"-f", "--sconstruct"}, {"--file", "--makefile"}},
		"cargo":   {{"--manifest-path", "--manifest-path"}},
		"pixi":    {{"-m", "--manifest-path"}}, // a pixi.toml, or the directory holding it
		"rye":     {{"--pyproject", "--pyproject"}},
		cmdBundle: {{"--gemfile", "--gemfile"}},
		"cmake":   {{"-C", "-C"}},
		"pytest":  {{"-c", "--config-file"}},
		cmdDocker: {{"-f", "--file"}}, cmdPodman: {{"-f", "--file"}}, cmdNerdctl: {{"-f", "--file"}},
		"docker-compose": {{"-f", "--file"}}, "podman-compose": {{"-f", "--file"}},
	}
	defDirOptions = map[string][][2]string{
		"just":     {{"-d", "--working-directory"}},
		"task":     {{"-d", "--dir"}},
		"gradle":   {{"-p", "--project-dir"}},
		"tox":      {{"--root", "--root"}},
		"npm":      {{"-C", "--prefix"}}, // -C is npm's shorthand for --prefix
		"yarn":     {{"--cwd", "--cwd"}},
		"uv":       {{"--project", "--project"}},
		"poetry":   {{"-P", "--project"}},
		"pdm":      {{"-p", "--project"}},
		"composer": {{"-d", "--working-dir"}},
		cmdCmake:   {{"-S", "-S"}},
		cmdDocker:  {{optProjectDir, optProjectDir}}, cmdPodman: {{optProjectDir, optProjectDir}},
		"docker-compose": {{optProjectDir, optProjectDir}},
	}
)

// defFileEnvs name, per build tool, the variables whose value lists its definition files as its
// -f does: compose's COMPOSE_FILE, separated by ':' (or ';', COMPOSE_PATH_SEPARATOR's other
// usual value).
var defFileEnvs = map[string]string{cmdDocker: envComposeFile, cmdPodman: envComposeFile, cmdNerdctl: envComposeFile,
	"docker-compose": envComposeFile, "podman-compose": envComposeFile}

// envComposeFile is compose's list of its files.
const envComposeFile = "COMPOSE_FILE"

// definitionFiles returns the definition files a build tool's options and environment name.
func definitionFiles(seg *segment) []word {
	var files []word
	for _, opt := range defFileOptions[seg.name] {
		for v := range optionValues(seg, opt[0], opt[1]) {
			files = append(files, v)
		}
	}
	if seg.name == cmdDotnet || seg.name == cmdMSBuild {
		// A response file (@FILE) holds more of the command line's switches: by any name.
		for _, sw := range msbuildSwitches(seg) {
			if sw.name == "@" {
				files = append(files, sw.w.with(sw.val))
			}
		}
	}
	if name := defFileEnvs[seg.name]; name != "" {
		for _, kv := range seg.env {
			if val, ok := strings.CutPrefix(kv, name+"="); ok {
				for f := range strings.FieldsFuncSeq(val, func(r rune) bool { return r == ':' || r == ';' }) {
					files = append(files, word{s: f, dynamic: strings.ContainsAny(f, "$`")})
				}
			}
		}
	}
	return files
}

// optProjectDir is compose's directory of its files; cmdCmake, CMake.
const (
	optProjectDir = "--project-directory"
	cmdCmake      = "cmake"
)

// definitionDirs returns the directories a build or test tool reads definitions in by its
// options (cwdUnknown for a computed one): each definition file's, each directory named, and
// docker build's context, its last operand, where it finds the Dockerfile.
func (a *analyzer) definitionDirs(seg *segment) []string {
	var dirs []string
	for _, v := range definitionFiles(seg) {
		// The value may be the directory itself (mvn -f DIR, tox -c DIR).
		dirs = append(dirs, a.wordKey(v.with(path.Dir(v.s))), a.wordKey(v))
	}
	for _, opt := range defDirOptions[seg.name] {
		for v := range optionValues(seg, opt[0], opt[1]) {
			dirs = append(dirs, a.wordKey(v))
		}
	}
	if ops := seg.operands; dockerBuilds(seg) && len(ops) > 1 {
		dirs = append(dirs, a.wordKey(ops[len(ops)-1]))
	}
	return dirs
}

// dockerBuilds says whether a container CLI's segment builds an image (build, buildx build,
// builder build, image build).
func dockerBuilds(seg *segment) bool {
	if seg.name != cmdDocker && seg.name != cmdPodman && seg.name != cmdNerdctl || len(seg.operands) == 0 {
		return false
	}
	return slices.ContainsFunc(seg.operands[:min(2, len(seg.operands))], func(w word) bool { return w.s == subBuild })
}

// unseenDefinition says why a build or test tool's definition file, named by an option or its
// environment (COMPOSE_FILE), is one the engine cannot see: fed on standard input, or
// written by the line ("" when neither).
func (a *analyzer) unseenDefinition(seg *segment) string {
	// The maps first: buildsHere reads a long list, and this runs for every command.
	_, ok := defFileOptions[seg.name]
	if !ok && defFileEnvs[seg.name] == "" && seg.name != cmdDotnet && seg.name != cmdMSBuild || !buildsHere(seg) {
		return ""
	}
	for _, v := range definitionFiles(seg) {
		switch {
		case v.dynamic:
		case namesStdin(v.s):
			return "it runs the definition " + v.s + " names, fed on its standard input"
		case a.lineWrote(v.s):
			return "it runs what " + v.s + " says, which this command line wrote before it"
		}
	}
	return ""
}
