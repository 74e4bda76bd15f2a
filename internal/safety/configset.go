package safety

import (
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
		file = npmConfigFile(s)
	case "pip", "pip3":
		file = pipConfigFile(s)
	case "yarn":
		if configVerb(s) == subSet && (s.hasFlag("-H") || s.hasFlag("--home")) {
			file = "~/.yarnrc.yml"
		}
	case "gh":
		if ghRunsLater(s) {
			file = "~/.config/gh/config.yml"
		}
	}
	if file != "" {
		a.touch(word{s: file, dynamic: strings.HasPrefix(file, "$")}, opWrite)
	}
}

// configVerb is the verb after a "config" subcommand, or "".
func configVerb(s *segment) string {
	if len(s.operands) > 1 && s.operands[0].s == subConfig {
		return s.operands[1].s
	}
	return ""
}

// locProject is npm's --location value for the project's own .npmrc.
const locProject = "project"

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

// pipConfigFile is the pip.conf pip config set writes: the user's, --global's or --site's.
func pipConfigFile(s *segment) string {
	switch {
	case !slices.Contains(pipWriters, configVerb(s)):
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
	if len(ops) < 2 || ops[1].s != subSet && ops[1].s != "import" {
		return false
	}
	switch ops[0].s {
	case subConfig:
		return len(ops) > 2 && ops[1].s == subSet && slices.Contains(ghPrograms, ops[2].s)
	case cmdAlias:
		return ops[1].s != subSet || s.hasFlag("-s") || s.hasFlag("--shell") || len(ops) > 3 && strings.HasPrefix(ops[3].s, "!")
	}
	return false
}
