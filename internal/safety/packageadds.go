package safety

import (
	"slices"
	"strings"
)

// Adding a package from a registry, a URL or a repository to the project brings code nobody
// reviewed into its next build or test (and, for npm and its kin, runs its install scripts at
// once), as pip install does; installing what the lockfile names (npm install or npm ci alone,
// yarn install, uv sync, poetry install, bundle install) does not. Each program is read as its
// own parser reads it: the subcommand is the first word that is neither an option nor an
// option's value (npm --prefix web install installs web's lockfile, it adds no package "web"),
// and so are its operands (npm install --omit dev adds nothing).

// Subcommand and option names the adders' table shares with other files.
const (
	subInstall = "install"
	subInject  = "inject"
	subAdd     = gitSubAdd
	subEdit    = gitConfigEdit
	optPrefix  = "--prefix"
)

// packageAdder is how one program adds a package.
type packageAdder struct {
	// valued are the options (before the subcommand or after it) that take the next word as their
	// value. An abbreviation of one is read as it (takesNextWord), so none may start with the
	// whole name of a flag: npm's --save-prefix would take --save's package for its value. An option that names a file of packages (pipenv install -r, conda install --file) is
	// left out on purpose: its value is read as an operand, so the command adds.
	valued []string
	// always are the subcommands that add what they name: alone they are an error. A two-word
	// entry is a subcommand and its verb (dotnet package add).
	always []string
	// operand are the subcommands that add only with an operand: alone they install the lockfile.
	operand []string
	// scopes are words before the subcommand that name where it adds, not what (composer global
	// require, poetry self add).
	scopes []string
	// prefixes: the program takes a unique prefix of a subcommand for it (composer req).
	prefixes bool
}

// npmInstall are npm install's names: its aliases and the misspellings npm takes for it, and
// install-test (it), which installs and then tests.
var npmInstall = []string{subInstall, "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", subAdd,
	"install-test", "it"}

// condaAdder reads conda, mamba and micromamba install: -n and -p name the environment, -c a channel.
var condaAdder = packageAdder{valued: []string{"-n", "--name", "-p", optPrefix, "-c", "--channel",
	"--repodata-fn", "--experimental-solver", "--solver", "--subdir"}, operand: []string{subInstall}}

// packageAdders are, per program, how it adds a package.
//
//nolint:goconst // option and subcommand spellings in this table read best literally
var packageAdders = map[string]packageAdder{
	"npm": {valued: append([]string{"-w", "--install-strategy", "--before", "--otp", "--os", "--cpu", "--libc"},
		prefixed(npmConfig)...), operand: npmInstall},
	"pnpm": {valued: []string{"-C", "--dir", "-F", optFilter, "--workspace-concurrency", "--reporter", "--loglevel", "--registry",
		"--store-dir", "--virtual-store-dir", "--modules-dir", "--lockfile-dir", "--node-linker", "--pnpmfile", "--global-pnpmfile"},
		always: []string{subAdd}, operand: []string{subInstall, "i"}},
	"yarn": {valued: []string{"--cwd", "--modules-folder", "--cache-folder", "--mutex", "--network-timeout", "--registry"},
		always: []string{subAdd}, operand: []string{subInstall, "up", "upgrade"}},
	"bun": {valued: []string{"--cwd", "-c", "--config", "--registry", "--cache-dir", "--backend", "--omit", "-F", optFilter,
		"--network-concurrency", "--concurrent-scripts"}, always: []string{subAdd, "a"}, operand: []string{subInstall, "i"}},
	"cargo": {valued: []string{"--color", "--config", "-Z", "-C", "--manifest-path", "-p", "--package", "--lockfile-path"},
		always: []string{subAdd}},
	"uv": {valued: []string{"--directory", "--project", "--config-file", "--cache-dir", "--color", "--python-preference",
		"--python-fetch", "--allow-insecure-host", "-p", "--python"}, always: []string{subAdd}},
	"poetry":  {valued: []string{"-P", "--project", "-C", "--directory"}, always: []string{subAdd}, scopes: []string{"self"}},
	"pdm":     {valued: []string{"-p", "--project", "-c", "--config"}, always: []string{subAdd}},
	"pipenv":  {valued: []string{"--python", "--pypi-mirror", "--categories"}, operand: []string{subInstall}},
	"rye":     {valued: []string{"--pyproject"}, always: []string{subAdd}},
	"pixi":    {valued: []string{"--manifest-path", "--color"}, always: []string{subAdd}},
	cmdBundle: {valued: []string{"-r", "--retry", "--gemfile"}, always: []string{subAdd, subInject}},
	"deno":    {valued: []string{"-c", "--config", "--lock", "--cert", "--location"}, always: []string{subAdd}, operand: []string{subInstall, "i"}},
	"go":      {valued: []string{"-C", "-modfile", "--modfile", "-tags", "--tags"}, operand: []string{"get"}},
	"composer": {valued: []string{"-d", "--working-dir"}, always: []string{"require"}, scopes: []string{"global"},
		prefixes: true},
	"conda":      condaAdder,
	"mamba":      condaAdder,
	"micromamba": condaAdder,
	"dotnet":     {always: []string{"package add"}},
	"swift":      {valued: []string{"--package-path", "--scratch-path", "--cache-path", "--config-path", "--security-path"}, always: []string{"package add-dependency"}},
}

// prefixed returns long option names (without "--") with their dashes.
func prefixed(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "--" + n
	}
	return out
}

// addsPackage is package-add's and package-add-js's check: the program's subcommand adds a
// package (given one, for those that alone install the lockfile). A computed subcommand could
// be any, and a computed operand is one.
func addsPackage(s *segment) bool {
	a, ok := packageAdders[s.name]
	if !ok {
		return false
	}
	args := s.words[1:]
	if s.name == "cargo" && len(args) > 0 && strings.HasPrefix(args[0].s, "+") {
		args = args[1:] // rustup's toolchain: cargo +nightly add
	}
	ops, n := leadingPositionals(args, a.valued)
	pos := ops[:n]
	for len(pos) > 1 && !pos[0].dynamic && slices.ContainsFunc(a.scopes, func(sc string) bool { return subcommandIs(a.prefixes, pos[0].s, sc) }) {
		pos = pos[1:]
	}
	if len(pos) == 0 {
		return false
	}
	if pos[0].dynamic {
		return true
	}
	sub := strings.ToLower(pos[0].s)
	switch {
	case slices.ContainsFunc(a.always, func(c string) bool { return subcommandIs(a.prefixes, sub, c) }):
		return true
	case slices.Contains(a.operand, sub):
		return len(pos) > 1
	case len(pos) > 1 && slices.ContainsFunc(a.always, func(c string) bool {
		first, verb, two := strings.Cut(c, " ")
		return two && first == sub && (pos[1].dynamic || strings.EqualFold(pos[1].s, verb))
	}):
		return true
	}
	return addsTwoWord(s, sub, pos)
}

// addsTwoWord reads the adders whose subcommand needs a later word: dotnet add [PROJECT]
// package NAME, go mod edit -require.
func addsTwoWord(s *segment, sub string, pos []word) bool {
	switch {
	case s.name == "dotnet" && sub == subAdd:
		// dotnet add [PROJECT] package NAME
		return slices.ContainsFunc(pos[1:min(3, len(pos))], func(w word) bool { return w.dynamic || strings.EqualFold(w.s, "package") })
	case s.name == "go" && sub == "mod" && len(pos) > 1 && pos[1].s == subEdit:
		return goModEditRequires(s)
	}
	return false
}

// subcommandIs says whether word sub names the subcommand name: it is the name, or for a program
// that takes prefixes a prefix of it long enough to be unique among the program's subcommands
// (composer's req, and any prefix of global: no other composer command starts with g).
func subcommandIs(prefixes bool, sub, name string) bool {
	if sub == name {
		return true
	}
	least := 3
	if name == "global" {
		least = 1
	}
	return prefixes && len(sub) >= least && strings.HasPrefix(name, sub)
}

// goModReplace is go mod edit's -replace, without its dash.
const goModReplace = "replace"

// goModEditRequires says whether go mod edit is given -require, or -replace with a module (not a
// directory) for the new side (as go's flag package reads them, with one dash or two, the value
// attached or next): either adds code from a registry or repository, as go get does.
func goModEditRequires(s *segment) bool {
	args := s.words[1:]
	for i, w := range args {
		if w.dynamic && strings.HasPrefix(w.s, "-") {
			return true
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(w.s, "-"), "-"), "=")
		if !strings.HasPrefix(w.s, "-") {
			continue
		}
		switch name {
		case "require":
			return true
		case goModReplace:
			repl, ok := goReplacement(args, i, val, hasVal)
			if ok && (repl.dynamic || !goLocalReplacement(repl.s)) {
				return true
			}
		}
	}
	return false
}

// goReplacement returns the new side of go mod edit's -replace OLD=NEW at args[i], its value
// attached (val, when hasVal) or the next word.
func goReplacement(args []word, i int, val string, hasVal bool) (word, bool) {
	w := args[i]
	if !hasVal {
		if i+1 >= len(args) {
			return word{}, false
		}
		val, w = args[i+1].s, args[i+1]
	}
	_, repl, _ := strings.Cut(val, "=")
	return w.with(repl), true
}

// goLocalReplacement says whether a replacement is a directory (go reads one that starts with
// "./", "../" or "/"), not a module.
func goLocalReplacement(repl string) bool {
	return repl == "." || repl == ".." || strings.HasPrefix(repl, "./") || strings.HasPrefix(repl, "../") || strings.HasPrefix(repl, "/")
}

// goReplaceOutside returns go mod edit's -replace by a directory outside the project (absolute,
// or climbing out of it: a directory below, ../x beside it as a sibling module, is the
// project's): go.mod then builds that directory's code into every later build and test, as go
// -modfile naming another go.mod does (outsideCodeOptions).
func goReplaceOutside(s *segment) string {
	if s.name != "go" || len(s.words) < 3 || s.words[1].s != "mod" || s.words[2].s != subEdit {
		return ""
	}
	args := s.words[1:]
	for i, w := range args {
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(w.s, "-"), "-"), "=")
		if !strings.HasPrefix(w.s, "-") || name != goModReplace {
			continue
		}
		if repl, ok := goReplacement(args, i, val, hasVal); ok && goLocalReplacement(repl.s) && !repl.dynamic && !belowProject(repl.s) {
			return w.s + " " + repl.s
		}
	}
	return ""
}

// belowProject says whether a relative directory stays in the project, or at most one level
// above it (a sibling module of a multi-module repository: ../x).
func belowProject(dir string) bool {
	if strings.HasPrefix(dir, "/") {
		return false
	}
	depth := 0
	for e := range strings.SplitSeq(dir, "/") {
		switch e {
		case "", ".":
		case "..":
			depth--
			if depth < -1 {
				return false
			}
		default:
			depth++
		}
	}
	return true
}

// leadingPositionals returns the first four positionals of a program's words (all any adder
// needs: a scope, a subcommand, its verb or operand), options and the values of valued skipped,
// without allocating: the check runs on every npm, cargo and go command. A computed word is a
// positional, since it may be one.
func leadingPositionals(args []word, valued []string) (ops [4]word, n int) {
	for i := 0; i < len(args) && n < len(ops); i++ {
		v := args[i].s
		switch {
		case v == "--" && !args[i].dynamic:
			n += copy(ops[n:], args[i+1:])
			return ops, n
		case len(v) > 1 && v[0] == '-' && !args[i].dynamic:
			if takesNextWord(v, valued) {
				i++
			}
		default:
			ops[n], n = args[i], n+1
		}
	}
	return ops, n
}
