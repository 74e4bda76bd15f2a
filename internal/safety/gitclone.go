package safety

import "strings"

// gitClone is git's subcommand that makes a repository from another.
const gitClone = "clone"

// gitCloneConfigText returns git clone's configuration settings spelled as git's own -c, " -c
// KEY=VALUE" for each, so that the pattern rules written for -c (git-config-exec,
// git-config-push-refspec) see them in every spelling clone accepts: -c VALUE, -cVALUE, a bundle
// of short options ending in c (-qcVALUE), --config VALUE, --config=VALUE and any abbreviation
// down to --co. Clone writes them into the repository it makes before it fetches, so
// core.sshCommand runs at once, and a push refspec forces every later push.
func gitCloneConfigText(s *segment) string {
	if s.name != cmdGit {
		return ""
	}
	if sub, _, ok := firstOperands(s); !ok || sub != gitClone {
		return ""
	}
	var b strings.Builder
	args := gitSubArgs(s)
	for i := 0; i < len(args); i++ {
		val, attached, ok := cloneConfigOption(args[i].s)
		switch {
		case args[i].s == "--":
			return b.String()
		case !ok:
			if takesNextWord(args[i].s, gitValued[gitClone]) {
				i++
			}
			continue
		case !attached && i+1 < len(args):
			i++
			val = args[i].s
		case !attached:
			continue
		}
		b.WriteString(" -c ")
		b.WriteString(val)
	}
	return b.String()
}

// cloneShortValued are git clone's short options that take a value: in a bundle, the first of
// them takes the rest of the word, or the next word when it ends the bundle.
const cloneShortValued = "obucj"

// cloneConfigOption reads one word of git clone's options: ok when it is the config option, with
// its value when the word carries it.
func cloneConfigOption(v string) (val string, attached, ok bool) {
	if name, value, eq := strings.Cut(v, "="); strings.HasPrefix(v, "--") {
		return value, eq, len(name) >= len("--co") && strings.HasPrefix("--config", name)
	}
	if len(v) < 2 || v[0] != '-' {
		return "", false, false
	}
	j := strings.IndexAny(v[1:], cloneShortValued) + 1
	if j == 0 || v[j] != 'c' {
		return "", false, false
	}
	return v[j+1:], j < len(v)-1, true
}
