package safety

import "strings"

// A program's "config set" is another way to write its configuration file, which the path
// policy protects when later runs, a person's too, obey it: npm's and pnpm's ~/.npmrc (its
// registry, script-shell, tokens; zero-access), pip's pip.conf (its index), yarn's home
// ~/.yarnrc.yml (yarnPath runs a script), gh's config.yml (editor, pager and browser are
// programs gh runs; a --shell alias runs shell code).

// configSetWrites records the file a config setter writes.
func (a *analyzer) configSetWrites(s *segment) {
	ops := s.operands
	if len(ops) == 0 {
		return
	}
	verb := ""
	if ops[0].s == "config" && len(ops) > 1 {
		verb = ops[1].s
	}
	file := ""
	switch s.name {
	case "npm", "pnpm":
		if ops[0].s == "set" || ops[0].s == "config" && (verb == "set" || verb == "delete" || verb == "rm" || verb == "edit" || verb == "fix") {
			file = "~/.npmrc"
			if loc, ok := optionValue(s, "-L", "--location"); ok && loc.s == "project" {
				file = ".npmrc"
			}
		}
	case "pip", "pip3":
		if verb == "set" || verb == "unset" || verb == "edit" {
			switch {
			case s.hasFlag("--global"):
				file = "/etc/pip.conf"
			case s.hasFlag("--site"):
				file = "$VIRTUAL_ENV/pip.conf"
			default:
				file = "~/.config/pip/pip.conf"
			}
		}
	case "yarn":
		if verb == "set" && (s.hasFlag("-H") || s.hasFlag("--home")) {
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

// ghRunsLater says whether a gh command stores a program gh runs later: config set of editor,
// pager or browser, an alias of shell code (alias set --shell, or an expansion starting with !).
func ghRunsLater(s *segment) bool {
	ops := s.operands
	switch {
	case len(ops) > 2 && ops[0].s == "config" && ops[1].s == subSet:
		switch ops[2].s {
		case "editor", "pager", "browser":
			return true
		}
	case len(ops) > 1 && ops[0].s == "alias" && ops[1].s == subSet:
		return s.hasFlag("-s") || s.hasFlag("--shell") || len(ops) > 3 && strings.HasPrefix(ops[3].s, "!")
	case len(ops) > 1 && ops[0].s == "alias" && ops[1].s == "import":
		return true
	}
	return false
}
