package safety

import (
	"path"
	"strings"
)

// gitStashRemovesUntracked says whether git stash (push, its old spelling save, or no
// subcommand) takes in untracked files (-u, --include-untracked; -a, --all, ignored ones too)
// with no pathspec, or with one that is not narrower than the tree: it removes every untracked
// file of the working tree until the stash is popped, the agents' settings
// (.claude/settings.local.json) among them when they are untracked, as git clean -f deletes
// them, and is judged as git clean -f is (git-clean-force): denied at every autonomy. Pathspecs
// are a union, so each is judged: one narrow pathspec beside "." (git stash -u -- src .) narrows
// nothing. A pathspec below the working directory names what it removes and the path policy
// judges it (git stash -u -- .claude is a write of .claude); ".", ":/", a glob or magic
// pathspec, one from a file, or a computed word could be the whole tree.
func gitStashRemovesUntracked(s *segment) bool {
	args := gitSubArgs(s)
	save := false
	if len(args) > 0 && !strings.HasPrefix(args[0].s, "-") {
		switch args[0].s {
		case subPush:
		case subSave:
			save = true // its words are the message, not a pathspec
		default:
			return args[0].dynamic
		}
		args = args[1:]
	}
	untracked, pathspecs, wide := false, 0, false
	pathspec := func(p word) {
		if !save { // git stash save's words are its message
			pathspecs++
			wide = wide || !narrowPathspec(p)
		}
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w.dynamic:
			return true
		case w.s == "--":
			for _, p := range args[i+1:] {
				pathspec(p)
			}
			i = len(args)
		case strings.HasPrefix(w.s, "--paths"): // --pathspec-from-file: pathspecs not seen
			wide = true
		case len(w.s) > 1 && w.s[0] == '-':
			u, set, skip := stashOption(w.s)
			if set {
				untracked = u
			}
			if skip {
				i++
			}
		default:
			pathspec(w)
		}
	}
	return untracked && (pathspecs == 0 || wide)
}

// stashOption reads one option word of git stash push: whether it turns taking in untracked
// files on or off (set), and whether it takes the next word (-m MESSAGE, --message MESSAGE).
// Long options may be abbreviated; in a bundle, the letters after m are the message.
func stashOption(v string) (untracked, set, skipNext bool) {
	if strings.HasPrefix(v, "--") {
		name, _, hasValue := strings.Cut(v, "=")
		abbreviates := func(long string) bool { return len(name) > 2 && strings.HasPrefix(long, name) }
		switch {
		case abbreviates("--include-untracked"), abbreviates("--all"):
			return true, true, false
		case abbreviates("--no-include-untracked"), abbreviates("--no-all"):
			return false, true, false
		}
		return false, false, abbreviates("--message") && !hasValue
	}
	letters := v[1:]
	if m := strings.IndexByte(letters, 'm'); m >= 0 {
		skipNext = m == len(letters)-1
		letters = letters[:m]
	}
	if strings.ContainsAny(letters, "ua") {
		return true, true, skipNext
	}
	return false, false, skipNext
}

// narrowPathspec says whether a pathspec names a path below the working directory, not the tree
// itself: not ".", not above it, not absolute, not magic (":/"), not a glob.
func narrowPathspec(w word) bool {
	c := path.Clean(w.s)
	return !w.dynamic && c != "." && c != ".." && !strings.HasPrefix(c, "../") && !strings.HasPrefix(c, "/") &&
		!strings.HasPrefix(w.s, ":") && !hasGlobMeta(w.s)
}
