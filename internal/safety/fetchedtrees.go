package safety

import (
	"path"
	"slices"
	"strings"
)

// Code a command line fetches and then builds or tests is code nobody reviewed, as a download
// piped into an interpreter is, a step further apart: git clone URL && cd y && make test, curl
// -sL URL | tar xz && go test ./..., wget -O Makefile URL && make test. Beside the files curl and
// wget write (downloads.go) the line remembers the trees it fetched: the directory git clone (or
// gh repo clone) makes, and the directories an extraction of a download fills. A program run
// from such a tree is blocked as download-exec is (downloads.go); a build or test tool started
// where fetched code is — its directory inside a fetched tree, or holding a fetched file or tree
// — runs that code (a Makefile, tests, build scripts, lifecycle scripts) and asks at every level
// (RuleFetchedCodeRun).

// RuleFetchedCodeRun is a build or test tool run where the command line put fetched code.
const RuleFetchedCodeRun = RulePrefixDamageControl + "fetched-code-run"

// buildTools run the code of the directory they start in: its Makefile, tests, build scripts or
// package scripts, whatever their subcommand (go version reads go.mod's toolchain line too).
var buildTools = strings.Fields("make gmake bmake just task rake go cargo npm pnpm yarn bun deno " +
	"pytest py.test tox nox mvn gradle ant sbt ctest cmake meson ninja jest vitest mocha bundle " +
	"bazel bazelisk dotnet mix composer swift zig pip pip3 uv poetry hatch pdm")

// fetchedTrees records the trees a segment fetches: git clone's and gh repo clone's destination,
// and the directories an extraction fills when it is fed a download (curl URL | tar xz) or
// given a file the line downloaded (tar xzf a.tgz after curl -o a.tgz).
func (a *analyzer) fetchedTrees(idx int) {
	seg := &a.out.segments[idx]
	var dirs []word
	switch {
	case seg.name == cmdGit || seg.name == "gh":
		if d, ok := cloneDestination(seg); ok {
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

// cloneDestination returns the directory git clone or gh repo clone makes: its second operand,
// or the repository's last path element without ".git".
func cloneDestination(s *segment) (word, bool) {
	var ops []word
	switch s.name {
	case cmdGit:
		if sub, _, ok := firstOperands(s); !ok || sub != gitClone {
			return word{}, false
		}
		ops = positionals(gitSubArgs(s), gitValued[gitClone])
	default: // gh repo clone REPO [DIR] [-- git clone's flags]
		if len(s.operands) < 3 || s.operands[0].s != "repo" || s.operands[1].s != gitClone {
			return word{}, false
		}
		ops = s.operands[2:]
		if end := slices.IndexFunc(ops, func(w word) bool { return w.s == "--" }); end >= 0 {
			ops = ops[:end]
		}
	}
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
		return word{s: strings.TrimSuffix(repo, ".git")}, true
	}
	return word{}, false
}

// runsFetched checks a segment against what the line fetched before it: a program or script
// inside a fetched tree (download-exec), and a build or test tool where fetched code is.
func (a *analyzer) runsFetched(seg *segment) {
	ls := a.line
	if f, ok := a.runsFile(seg); ok && a.isFetched(a.fetchKey(f)) {
		a.find(true, RulePrefixDamageControl+"download-exec", "command %q runs %s, which this command line downloaded: code nobody reviewed", truncate(seg.text, 120), f)
		return
	}
	if len(ls.trees) == 0 && len(ls.fetched) == 0 || !slices.Contains(buildTools, seg.name) {
		return
	}
	// The directories it builds in: where it starts, and those a -C or --directory names (make,
	// go, npm); a word of it inside a fetched tree is a package or test path there (go test
	// /tmp/y/..., pytest /tmp/y, cargo test --manifest-path=/tmp/y/Cargo.toml).
	dirs := []string{a.fetchKey(".")}
	if a.cwd == cwdUnknown {
		dirs[0] = cwdUnknown
	}
	for _, d := range directoryOptions(seg, "-C") {
		dirs = append(dirs, a.wordKey(d))
	}
	for _, f := range slices.Concat(ls.trees, ls.fetched) {
		near := f == cwdUnknown || slices.ContainsFunc(dirs, func(d string) bool { return d == cwdUnknown || below(d, f) || below(f, d) })
		for _, w := range seg.words[1:] {
			_, v, _ := strings.Cut(w.s, "=")
			near = near || slices.Contains(ls.trees, f) && (below(a.wordKey(w), f) || v != "" && below(a.fetchKey(v), f))
		}
		if near {
			a.find(false, RuleFetchedCodeRun, "command %q runs the build or tests of %s, where this command line put code it fetched: code nobody reviewed", truncate(seg.text, 120), path.Clean(f))
			return
		}
	}
}

// wordKey is fetchKey of a word, cwdUnknown when the word is computed at run time.
func (a *analyzer) wordKey(w word) string {
	if w.dynamic {
		return cwdUnknown
	}
	return a.fetchKey(w.s)
}

// isFetched says whether a resolved path is a file the line downloaded or below a tree it fetched.
func (a *analyzer) isFetched(key string) bool {
	return slices.Contains(a.line.fetched, key) || slices.ContainsFunc(a.line.trees, func(t string) bool { return t == cwdUnknown || below(key, t) })
}

// below says whether p is dir or a path below it. Without a known working directory both are
// relative to the same unknown one, "." or "" itself.
func below(p, dir string) bool {
	if dir == "." || dir == "" {
		return !strings.HasPrefix(p, "/")
	}
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}
