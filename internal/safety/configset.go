package safety

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"
)

// A program's "config set" is another way to write its configuration file, which the path
// policy protects when later runs, a person's too, obey it: npm's and pnpm's ~/.npmrc (its
// registry, script-shell, tokens; zero-access), pip's pip.conf (its index), yarn's home
// ~/.yarnrc.yml (yarnPath runs a script), gh's config.yml (editor, pager and browser are
// programs gh runs; a --shell alias runs shell code).

// Config setters' programs and the verbs that write.
var (
	npmWriters = strings.Fields("set delete rm edit fix")
	pipWriters = strings.Fields("set unset edit")
	ghPrograms = strings.Fields("editor pager browser")
)

// configSetWrites records the file a config setter writes.
//
//nolint:goconst // program names read best literally, next to their neighbours
func (a *analyzer) configSetWrites(s *segment) {
	if len(s.operands) == 0 {
		return
	}
	var file string
	switch s.name {
	case "npm", "pnpm":
		file = cmp.Or(npmConfigFile(s), npmPackageFile(s))
	case "yarn":
		switch {
		case configVerb(s) != subSet:
		case s.hasFlag("-H") || s.hasFlag("--home"):
			file = "~/.yarnrc.yml"
		case len(s.operands) > 2 && strings.ToLower(s.operands[2].s) == s.operands[2].s:
			// yarn 1 (classic) writes ~/.yarnrc, whose keys are lower case (yarn-path,
			// script-shell, registry); yarn 2+ writes the project's .yarnrc.yml, whose keys are
			// camel case (nodeLinker, yarnPath).
			file = "~/.yarnrc"
		}
	case "gh":
		if ghRunsLater(s) {
			file = "~/.config/gh/config.yml"
		}
	}
	if ops, ok := pipOperands(s); ok {
		file = pipConfigFile(s, ops)
	}
	if file != "" {
		a.touch(word{s: file, dynamic: strings.HasPrefix(file, "$")}, opWrite)
	}
}

// pipOperands returns pip's operands: pip's, pip3's, pip3.12's, or python -m pip's (the words
// after "pip" that are neither options nor their values, however the interpreter's own options
// are spelt).
func pipOperands(s *segment) ([]word, bool) {
	words := s.words
	if !strings.HasPrefix(s.name, "pip") || strings.Trim(s.name[len("pip"):], "0123456789.") != "" {
		mod, m, ok := pythonModuleRun(s)
		if !ok || mod != "pip" {
			return nil, false
		}
		words = m.words
	}
	var ops []word
	for i := 1; i < len(words); i++ {
		x := words[i]
		switch {
		case x.dynamic || !strings.HasPrefix(x.s, "-"):
			ops = append(ops, x)
		case !strings.Contains(x.s, "=") && slices.Contains(pipValueOptions, expandLong(x.s, pipValueOptions...)):
			i++ // "pip --log FILE config set": FILE is --log's
		}
	}
	return ops, true
}

// optTimeout is pip's network timeout (kubectl's and oc's spell it too).
const optTimeout = "--timeout"

// pipValueOptions are pip's options whose value is the next word: its general options, and
// config's --editor. pip (optparse) takes a long option by a unique prefix too (--prox).
//
//nolint:goconst // option spellings read best literally, next to their neighbours
var pipValueOptions = []string{"--log", "--log-file", "--local-log", "--proxy", "--retries", optTimeout,
	"--exists-action", "--trusted-host", "--cert", "--client-cert", "--cache-dir", "--python", "--use-feature",
	"--use-deprecated", "--keyring-provider", "--resume-retries", "--editor"}

// configVerb is the verb after a "config" subcommand, or "" (npm's and pnpm's "c", and npm's
// unique abbreviations of "config", "con" to "confi", count as it).
func configVerb(s *segment) string {
	if len(s.operands) > 1 && (s.operands[0].s == subConfig || (s.name == "npm" || s.name == "pnpm") && npmConfigWord(s.operands[0].s)) {
		return s.operands[1].s
	}
	return ""
}

// locProject is npm's --location value for the project's own .npmrc.
const locProject = "project"

// npmConfigWord says whether npm reads w as its config command.
func npmConfigWord(w string) bool {
	return w == "c" || len(w) >= len("con") && strings.HasPrefix(subConfig, w)
}

// npmConfigFile is the file npm config set (npm set) writes: ~/.npmrc, or the project's .npmrc
// with --location=project.
func npmConfigFile(s *segment) string {
	if s.operands[0].s != subSet && !slices.Contains(npmWriters, configVerb(s)) {
		return ""
	}
	if loc, ok := optionValue(s, "-L", "--location"); ok && loc.s == locProject {
		return ".npmrc"
	}
	return "~/.npmrc"
}

// npmPackageFile is the package.json npm set-script, and npm pkg set (pnpm's too) of a script or
// of the config its scripts read (npm_package_config_*), write: its scripts are what npm test and
// npm run run next (writtenbuilds.go). Setting another key (a version bump) is not counted.
func npmPackageFile(s *segment) string {
	ops := s.operands
	setsScript := ops[0].s == "set-script" || ops[0].s == "pkg" && len(ops) > 2 && ops[1].s == subSet &&
		slices.ContainsFunc(ops[2:], setsScripts)
	if !setsScript {
		return ""
	}
	if p, ok := optionValue(s, "--prefix", "--prefix"); ok && !p.dynamic {
		return path.Join(p.s, "package.json")
	}
	return "package.json"
}

// setsScripts says whether an npm pkg set KEY=VALUE operand may set a script or the config the
// scripts read: its key begins scripts or config, or is computed.
func setsScripts(w word) bool {
	key, _, _ := strings.Cut(w.s, "=")
	return w.dynamic || strings.HasPrefix(key, "scripts") || strings.HasPrefix(key, "config")
}

// pipConfigFile is the pip.conf pip config set writes: the user's, --global's or --site's.
func pipConfigFile(s *segment, ops []word) string {
	switch {
	case len(ops) < 2 || ops[0].s != subConfig || !slices.Contains(pipWriters, ops[1].s):
		return ""
	case s.hasFlag("--global"):
		return "/etc/pip.conf"
	case s.hasFlag("--site"):
		return "$VIRTUAL_ENV/pip.conf"
	}
	return "~/.config/pip/pip.conf"
}

// ghRunsLater says whether a gh command stores a program gh runs later: config set of editor,
// pager or browser, an alias of shell code (alias set --shell, or an expansion starting with !).
func ghRunsLater(s *segment) bool {
	ops := s.operands
	if len(ops) < 2 || ops[1].s != subSet && ops[1].s != subImport {
		return false
	}
	switch ops[0].s {
	case subConfig:
		// gh config set -h HOST KEY VALUE: the host is not the key.
		if host, ok := optionValue(s, "-h", "--host"); ok {
			if i := slices.IndexFunc(ops[2:], func(w word) bool { return w.s == host.s }); i >= 0 {
				ops = slices.Delete(slices.Clone(ops), i+2, i+3)
			}
		}
		return len(ops) > 2 && ops[1].s == subSet && slices.Contains(ghPrograms, ops[2].s)
	case cmdAlias:
		return ops[1].s != subSet || s.hasFlag("-s") || s.hasFlag("--shell") || len(ops) > 3 && strings.HasPrefix(ops[3].s, "!")
	}
	return false
}

// packageConfigFileFailure asks for any program's read of a package manager's own configuration
// file, as gitConfigFileFailure does for a repository's config: it holds what the manager's config
// listing prints (print-credentials-package-config), index, source and channel URLs that may embed
// user:password or a token, and a proxy's user:password. Which files, and where, is
// packageConfigFiles; the same name elsewhere in the project (docker/pip.conf, copied into an
// image; a package's config.toml) is the project's file, read as any other.
func packageConfigFileFailure(targets []target) *failure {
	for _, t := range targets {
		if t.op != opRead || t.dynamic || t.listing {
			continue
		}
		manager := ""
		if !t.recursive {
			manager = packageConfigFile(t.path, t.glob)
		}
		// A recursive read of the directory (grep -r url ~/.config/pip, tar of ~/.conda) reads
		// the file in it, as a recursive read of .git reads its config; a glob's (cp -r src/*)
		// is not taken for one, as gitConfigFileFailure does not.
		for i := 0; t.recursive && !t.glob && manager == "" && i < len(packageConfigFiles); i++ {
			manager = packageConfigFile(path.Join(t.path, packageConfigFiles[i].name), false)
		}
		if manager != "" {
			return &failure{kind: kindHumanApprovalRequired, ask: true, rule: RulePrefixDamageControl + packageConfigRule,
				msg: fmt.Sprintf("the call reads %q, %s configuration, whose URLs can embed a registry's user:password or token as its config listing prints them; it needs human approval", t.raw, manager)}
		}
	}
	return nil
}

// packageConfigFiles are, by file name, the directories a package manager reads its configuration
// file in, and the manager: a directory by its name, "~" a home directory itself, or an absolute
// one. pip's pip.conf (pip.ini on Windows) is read in a directory named pip or .pip (~/.config/pip,
// ~/.pip, /etc/xdg/pip, macOS's Application Support/pip), /etc, and a virtual environment's; gem's
// ~/.gemrc and /etc/gemrc (its sources); yarn 1's ~/.yarnrc (a project's .yarnrc is its own);
// conda's .condarc (and condarc) in the home, ~/.conda, a directory named conda (~/.config/conda,
// /etc/conda, /opt/conda) or an installation's root; poetry's, pdm's and hatch's config.toml in
// their configuration directories (~/.config/pypoetry, ~/.config/pdm, ~/.config/hatch, macOS's
// Application Support/...), whose secrets hatch config show scrubs and --all prints; uv's uv.toml
// (~/.config/uv, /etc/uv), whose indexes' URLs may embed user:password.
//
//nolint:goconst // file, directory and program names read best literally, next to their neighbours
var packageConfigFiles = []struct {
	name, manager string
	dirs          []string
}{
	{"pip.conf", "pip's", pipConfigDirs}, {"pip.ini", "pip's", pipConfigDirs},
	{".gemrc", "gem's", []string{"~"}}, {"gemrc", "gem's", []string{"/etc"}},
	{".yarnrc", "yarn's", []string{"~"}}, {".mambarc", "mamba's", []string{"~"}},
	{".condarc", "conda's", condaConfigDirs}, {"condarc", "conda's", condaConfigDirs},
	{"config.toml", "poetry's", []string{"pypoetry"}}, {"config.toml", "pdm's", []string{"pdm"}},
	{"config.toml", "hatch's", []string{"hatch"}}, {"uv.toml", "uv's", []string{"uv"}},
}

// pipConfigDirs and condaConfigDirs are the directories pip's and conda's files are read in.
var (
	pipConfigDirs   = strings.Fields("pip .pip .venv venv /etc")
	condaConfigDirs = strings.Fields("~ .conda conda miniconda3 anaconda3 miniforge3 mambaforge /etc/conda")
)

// packageConfigFile returns the manager ("pip's") whose configuration file a resolved path (or a
// glob that could expand to one) is, or "".
func packageConfigFile(p string, glob bool) string {
	dir, file := path.Split(p)
	dir = path.Clean(dir)
	matches := func(pattern, name string) bool {
		if !glob {
			return pattern == name
		}
		ok, err := path.Match(pattern, name)
		return ok || err != nil
	}
	inDir := func(d string) bool {
		switch {
		case d == "~":
			return dir == "~" || matches(dir, rootDir) || path.Dir(dir) == homesDir
		case strings.HasPrefix(d, "/"):
			return matches(dir, d)
		}
		return matches(path.Base(dir), d)
	}
	for _, f := range packageConfigFiles {
		if matches(file, f.name) && slices.ContainsFunc(f.dirs, inDir) {
			return f.manager
		}
	}
	return ""
}
