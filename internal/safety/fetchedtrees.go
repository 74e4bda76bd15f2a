package safety

import (
	"cmp"
	"path"
	"slices"
	"strings"
)

// Code a command line fetches and then builds, tests or runs is code nobody reviewed, as a
// download piped into an interpreter is, a step further apart: git clone URL && cd y && make
// test, curl -sL URL | tar xz && go test ./..., wget -O Makefile URL && make test, git clone URL
// && bash y/install.sh. Beside the files curl and wget write (downloads.go) the line remembers
// the trees it fetched: the directory git clone, gh repo clone|fork --clone, hg clone or svn
// checkout makes, the working tree a git pull of a URL or a checkout of FETCH_HEAD fills, and
// the directories an extraction of a download fills. A script run from such a tree, and a build
// or test tool started where fetched code is, ask at every level (RuleFetchedCodeRun): a person
// can approve what they have looked at, where a file the line downloaded and runs as it is stays
// blocked (download-exec).

// cmdPytest is pytest, run as a program or as python -m pytest; cmdBundle, Ruby's bundler (and
// brew's subcommand that reads a Brewfile).
const (
	cmdPytest = "pytest"
	cmdBundle = "bundle"
)

// RuleFetchedCodeRun is a build, test or script run where the command line put fetched code.
const RuleFetchedCodeRun = RulePrefixDamageControl + "fetched-code-run"

// buildTools run the code of the directory they start in: its Makefile, tests, build scripts,
// package scripts or compose file, whatever their subcommand (go version reads go.mod's toolchain
// line too).
var buildTools = strings.Fields("make gmake bmake just task rake go cargo npm pnpm yarn bun deno " +
	"pytest py.test tox nox mvn gradle ant sbt ctest cmake meson ninja jest vitest mocha bundle " +
	"bazel bazelisk dotnet mix composer swift zig pip pip3 uv poetry hatch pdm tsc eslint rspec " +
	"phpunit pre-commit terraform tofu ansible-playbook vagrant devcontainer tilt skaffold cabal " +
	"stack dune lein scons nx turbo invoke pants buck2 docker-compose podman-compose pulumi gulp grunt " +
	"webpack vite rollup parcel esbuild playwright cypress karma ava tap nix nix-build " +
	"pylint mypy prettier stylelint postcss tailwindcss mise " +
	// Hook managers run what their configuration (hookDefinitions) says when asked to directly.
	"lefthook lint-staged husky husky-run simple-git-hooks overcommit commitlint " +
	// ansible reads ansible.cfg from the directory it runs in; shellcheck .shellcheckrc, which can
	// make it follow a script's sources (external-sources) and name where it looks (source-path).
	"ansible shellcheck " +
	// Task and process runners, and tools that load their configuration as code.
	"pixi devbox honcho foreman overmind hivemind earthly dagger clojure clj babel " +
	// MSBuild run by itself builds the project or solution of the directory it runs in; coverage
	// reads that directory's .coveragerc (or setup.cfg, tox.ini, pyproject.toml), whose plugins
	// it imports.
	"msbuild coverage")

// recursiveTools discover what they run in every directory below the one they start in: a tree
// fetched below it is run too.
var recursiveTools = strings.Fields("pytest py.test tox nox jest vitest mocha rspec phpunit")

// fetchedTrees records the trees a segment fetches.
func (a *analyzer) fetchedTrees(idx int) {
	seg := &a.out.segments[idx]
	var dirs []word
	switch {
	case seg.name == cmdGit && a.remoteAdded(seg):
	case seg.name == cmdGit && a.gitFetchesURL(seg):
		a.state().urlFetch = true // FETCH_HEAD (and what it is checked out as) holds it now
	case seg.name == cmdGit || seg.name == "gh" || seg.name == "hg" || seg.name == "svn":
		if d, ok := a.cloneDestination(seg); ok {
			dirs = append(dirs, d)
		}
	case (len(seg.pipeFrom) > 0 || a.line != nil && len(a.line.fetched) > 0) && extracts(seg) && a.fedDownload(seg):
		d, _ := extractionDirs(seg)
		dirs = append(dirs, d...)
		if len(d) == 0 {
			dirs = append(dirs, word{s: "."})
		}
	}
	for _, d := range dirs {
		ls := a.state()
		ls.trees = append(ls.trees, a.wordKey(d))
	}
}

// fedDownload says whether an extraction reads a download: a curl or wget stage feeds it, or a
// word of it names a file the line downloaded.
func (a *analyzer) fedDownload(seg *segment) bool {
	for _, p := range seg.pipeFrom {
		if n := a.out.segments[p].name; n == cmdCurl || n == cmdWget {
			return true
		}
	}
	if a.line == nil {
		return false
	}
	return slices.ContainsFunc(seg.words[1:], func(w word) bool { return slices.Contains(a.line.fetched, a.fetchKey(w.s)) })
}

// remoteAdded records git remote add NAME URL: NAME then names a repository by URL.
func (a *analyzer) remoteAdded(s *segment) bool {
	sub, next, ok := firstOperands(s)
	if !ok || sub != "remote" || next != gitSubAdd || len(s.operands) < 4 {
		return false
	}
	ls := a.state()
	ls.urlRemotes = append(ls.urlRemotes, s.operands[2].s)
	return true
}

// byURL says whether a git operand names a repository by URL, or by a remote the line added.
func (a *analyzer) byURL(w word) bool {
	return w.dynamic || remoteURL(w.s) || a.line != nil && slices.Contains(a.line.urlRemotes, w.s)
}

// gitFetchesURL says whether a segment is git fetch of a repository named by URL (or computed),
// a path or an ssh address (gitfetchsource.go).
func (a *analyzer) gitFetchesURL(s *segment) bool {
	sub, _, ok := firstOperands(s)
	return ok && sub == "fetch" && (slices.ContainsFunc(s.operands[1:], a.byURL) || gitFetchesFromPath(s))
}

// hgValued and svnValued are the options of hg clone and svn checkout that take a value.
var (
	hgValued  = strings.Fields("-r --rev -b --branch -u --updaterev -e --ssh --remotecmd --config --cwd -R --repository")
	svnValued = strings.Fields("-r --revision --username --password --password-from-stdin --depth --config-dir --config-option --set-depth")
)

// cloneDestination returns the directory a segment fills with fetched code.
func (a *analyzer) cloneDestination(s *segment) (word, bool) {
	switch s.name {
	case cmdGit:
		return a.gitFetchedTree(s)
	case "gh":
		return ghClone(s)
	case "hg": // hg clone SOURCE [DEST]
		if ops := positionals(s.words[1:], hgValued); len(ops) >= 2 && ops[0].s == gitClone {
			return destOrName(ops[1:])
		}
	case "svn": // svn checkout|co|export URL [PATH]
		if ops := positionals(s.words[1:], svnValued); len(ops) >= 2 && slices.Contains(strings.Fields("checkout co export"), ops[0].s) {
			return destOrName(ops[1:])
		}
	}
	return word{}, false
}

// gitFetchedTree reads git clone SOURCE [DEST] and git submodule add SOURCE [PATH] (below git -C
// DIR), and git pull of a URL (or of a remote the line added for one) or, after git fetch of one,
// a checkout, switch, merge, reset or rebase, which fill the working tree itself.
func (a *analyzer) gitFetchedTree(s *segment) (word, bool) {
	sub, next, ok := firstOperands(s)
	if !ok {
		return word{}, false
	}
	var d word
	args := gitSubArgs(s)
	switch {
	case sub == gitClone:
		if d, ok = destOrName(positionals(args, gitValued[gitClone])); !ok {
			return word{}, false
		}
	case sub == "submodule" && next == "add":
		ops := positionals(args, strings.Fields("-b --branch --name --reference --depth"))
		if d, ok = destOrName(ops[min(1, len(ops)):]); !ok {
			return word{}, false
		}
	case sub == "pull" && (slices.ContainsFunc(s.operands[1:], a.byURL) || gitFetchesFromPath(s)),
		a.line != nil && a.line.urlFetch && slices.Contains(strings.Fields("checkout switch merge reset rebase cherry-pick restore"), sub):
		d = word{s: "."}
	default:
		return word{}, false
	}
	if c, ok := gitChdir(s); ok && !path.IsAbs(d.s) && !d.dynamic {
		d = word{s: path.Join(c.s, d.s), dynamic: c.dynamic}
	}
	return d, true
}

// remoteURL says whether a git operand names a repository by URL rather than by a remote's name.
func remoteURL(v string) bool {
	return strings.Contains(v, "://") || strings.Contains(v, ":") && strings.Contains(v, "@") || strings.HasSuffix(v, ".git")
}

// gitChdir returns the directory git -C names (each -C relative to the one before).
func gitChdir(s *segment) (word, bool) {
	args := s.words[1:]
	end := gitGlobalsEnd(args)
	var dir word
	found := false
	for i := 0; i+1 < end; i++ {
		if args[i].s == "-C" {
			v := args[i+1]
			if found && !path.IsAbs(v.s) {
				v = word{s: path.Join(dir.s, v.s), dynamic: dir.dynamic || v.dynamic}
			}
			dir, found = v, true
			i++
		}
	}
	return dir, found
}

// ghClone reads gh repo clone REPO [DIR] [-- git's flags] and gh repo fork REPO --clone.
func ghClone(s *segment) (word, bool) {
	ops := s.operands
	if len(ops) < 3 || ops[0].s != "repo" {
		return word{}, false
	}
	switch {
	case ops[1].s == gitClone:
		// The words up to "--" are gh's; after it, git clone's flags.
		if end := slices.IndexFunc(s.words, func(w word) bool { return w.s == "--" && !w.dynamic }); end >= 0 {
			ops = slices.DeleteFunc(slices.Clone(ops), func(w word) bool { return !slices.ContainsFunc(s.words[:end], func(v word) bool { return v == w }) })
		}
		return destOrName(ops[2:])
	case ops[1].s == "fork" && s.hasFlag("--clone"):
		return destOrName(ops[2:3])
	}
	return word{}, false
}

// destOrName returns a clone's destination, its second operand, or else the repository's last
// path element without ".git".
func destOrName(ops []word) (word, bool) {
	switch {
	case len(ops) >= 2:
		return ops[1], true
	case len(ops) == 1 && ops[0].dynamic:
		return ops[0], true
	case len(ops) == 1:
		repo := strings.TrimSuffix(strings.TrimRight(ops[0].s, "/"), "/.git")
		if i := strings.LastIndexAny(repo, "/:"); i >= 0 {
			repo = repo[i+1:]
		}
		if repo = strings.TrimSuffix(repo, ".git"); repo == "" {
			return word{}, false
		}
		return word{s: repo}, true
	}
	return word{}, false
}

// runsFetched checks a segment against what the line fetched before it: a file it downloaded, run
// as it is (download-exec), a script inside a fetched tree, and a build or test tool where
// fetched code is.
func (a *analyzer) runsFetched(seg *segment) {
	ls := a.line
	if f, ok := a.runsFile(seg); ok && slices.Contains(ls.fetched, a.fetchKey(f)) {
		a.find(true, RulePrefixDamageControl+"download-exec", "command %q runs %s, which this command line downloaded: code nobody reviewed", truncate(seg.text, 120), f)
		return
	}
	if f, ok := a.runsScript(seg); ok && slices.ContainsFunc(ls.trees, func(t string) bool { return t == cwdUnknown || below(a.fetchKey(f), t) }) {
		a.find(false, RuleFetchedCodeRun, "command %q runs %s, from a tree this command line fetched: code nobody reviewed", truncate(seg.text, 120), f)
		return
	}
	if f, ok := a.buildsFetched(seg); ok {
		a.find(false, RuleFetchedCodeRun, "command %q runs the build or tests of %s, where this command line put code it fetched: code nobody reviewed", truncate(seg.text, 120), path.Clean(f))
	}
}

// buildsFetched returns the fetched file or tree a build or test tool runs: one its directory (or
// a -C/--directory it names) is inside, a file fetched into that directory (a Makefile, go.mod),
// one a word of it names, and for a tool that runs what it finds below its directory (go ./...,
// pytest, jest), one fetched anywhere below.
func (a *analyzer) buildsFetched(seg *segment) (string, bool) {
	return a.buildsIn(seg, a.line.trees, a.line.fetched)
}

// buildsIn returns the tree or file a build or test tool runs, among the trees and files given
// (buildsFetched).
func (a *analyzer) buildsIn(seg *segment, trees, files []string) (string, bool) {
	if !buildsHere(seg) {
		return "", false
	}
	dirs := []string{a.fetchKey(".")}
	if a.cwd == cwdUnknown {
		dirs[0] = cwdUnknown
	}
	for _, d := range directoryOptions(seg, "-C") {
		dirs = append(dirs, a.wordKey(d))
	}
	roots := a.walkRoots(seg)
	for i, f := range slices.Concat(trees, files) {
		tree := i < len(trees)
		if f == cwdUnknown {
			return f, true
		}
		for _, d := range dirs {
			if d == cwdUnknown || below(d, f) || !tree && path.Dir(f) == path.Clean(d) {
				return f, true
			}
		}
		if slices.ContainsFunc(roots, func(r string) bool { return r == cwdUnknown || below(f, r) }) {
			return f, true
		}
		if !tree {
			continue
		}
		for _, w := range seg.words[1:] {
			if _, v, _ := strings.Cut(w.s, "="); below(a.wordKey(w), f) || v != "" && below(a.fetchKey(v), f) {
				return f, true
			}
		}
	}
	return "", false
}

// walkRoots returns the directories below which a tool runs what it finds: go's package patterns
// ending in "/..." (./... is the working directory), and the paths given to a test runner that
// discovers tests (pytest, jest, ...), or its working directory when it is given none.
func (a *analyzer) walkRoots(seg *segment) []string {
	var roots []string
	switch {
	case seg.name == "go":
		for _, w := range seg.operands {
			if p, ok := strings.CutSuffix(w.s, "..."); ok {
				roots = append(roots, a.wordKey(w.with(cmp.Or(strings.TrimSuffix(p, "/"), "."))))
			}
		}
		return roots
	case slices.Contains(recursiveTools, seg.name):
		for _, w := range seg.operands {
			roots = append(roots, a.wordKey(w))
		}
	case isPython(seg.name):
		mod, m, ok := pythonModuleRun(seg)
		if !ok || mod != cmdPytest {
			return nil
		}
		for _, w := range m.words[1:] {
			if !strings.HasPrefix(w.s, "-") || w.dynamic {
				roots = append(roots, a.wordKey(w))
			}
		}
	default:
		return nil
	}
	if len(roots) == 0 {
		roots = append(roots, a.fetchKey("."))
	}
	return roots
}

// buildsHere says whether a segment builds, tests or runs the project of its directory:
// buildTools, python -m (pytest, build, pip install .), node --test, and docker or podman compose
// and build, which read the compose file or Dockerfile there (a compose file can mount the host).
func buildsHere(seg *segment) bool {
	switch {
	case slices.Contains(buildTools, seg.name):
		return true
	case isPython(seg.name):
		p, _ := readPython(seg)
		return p.kind == pyModule
	case seg.name == cmdNode:
		return seg.hasFlag("--test")
	case seg.name == cmdDocker || seg.name == cmdPodman || seg.name == cmdNerdctl:
		return len(seg.operands) > 0 && slices.Contains(strings.Fields("compose build buildx"), seg.operands[0].s)
	case seg.name == "brew":
		// brew bundle runs the Brewfile, Ruby; brew's other commands read no project file.
		return len(seg.operands) > 0 && seg.operands[0].s == cmdBundle
	}
	return false
}

// runsScript returns the script file a segment runs, as runsFile reads it, but not the operand
// of a shell or interpreter given inline code (-c, -e) or a module (-m): that operand is code or
// a module's name, not a file (runsFile reads Python's own command line so already).
func (a *analyzer) runsScript(seg *segment) (string, bool) {
	f, ok := a.runsFile(seg)
	if w := seg.words[0]; !ok || strings.ContainsRune(w.s, '/') && !w.dynamic || isPython(seg.name) {
		return f, ok
	}
	inline := interpreters[seg.name]
	if shells[seg.name] {
		inline = "c"
	}
	for _, fl := range seg.flags {
		if len(fl) == 2 && fl[0] == '-' && strings.IndexByte(inline+"m", fl[1]) >= 0 {
			return "", false
		}
	}
	return f, true
}

// wordKey is fetchKey of a word, cwdUnknown when the word is computed at run time.
func (a *analyzer) wordKey(w word) string {
	if w.dynamic {
		return cwdUnknown
	}
	return a.fetchKey(w.s)
}

// below says whether p is dir or a path below it. Without a known working directory both are
// relative to the same unknown one, "." or "" itself.
func below(p, dir string) bool {
	if dir == "." || dir == "" {
		return !strings.HasPrefix(p, "/")
	}
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}
