package safety

import "strings"

// gitMovesRef reports whether git update-ref sets a branch, a tag or HEAD to a value the command
// gives (update-ref REF NEWVALUE [OLDVALUE]), the plumbing of branch -f: a branch moved elsewhere
// leaves the commits only it held unreachable, as a delete does. -d and --stdin have their own
// rules; other refs (refs/remotes, refs/bisect, refs/notes) are fetched or rebuilt.
func gitMovesRef(s *segment) bool {
	if len(s.operands) < 3 || s.hasFlag("-d") || s.hasFlag("--stdin") {
		return false
	}
	ref := s.operands[1]
	return ref.dynamic || ref.s == "HEAD" || strings.HasPrefix(ref.s, "refs/heads/") || strings.HasPrefix(ref.s, "refs/tags/")
}

// gitFetchForcesBranch reports whether git fetch (or pull) force-updates a local ref: a refspec
// +SRC:DST, or SRC:DST with -f/--force, whose DST is not a remote-tracking ref. git fetch origin
// +main:main resets the local main to the remote's, and the commits only it held are unreachable;
// the usual +refs/heads/*:refs/remotes/origin/* only moves what the next fetch brings back.
func gitFetchForcesBranch(s *segment) bool {
	force := s.hasFlag("-f") || s.hasFlag("--force")
	for _, o := range s.operands[1:] {
		if o.dynamic && (force || strings.HasPrefix(o.s, "+") || strings.HasPrefix(o.s, "$")) {
			return true
		}
		src, dst, ok := strings.Cut(o.s, ":")
		if !ok || dst == "" || strings.HasPrefix(dst, "refs/remotes/") || strings.Contains(src, "//") {
			continue // no destination, a remote-tracking one, or a URL (https://host/x.git)
		}
		if force || strings.HasPrefix(src, "+") {
			return true
		}
	}
	return false
}

// gitBranchForced reports whether git branch moves or overwrites an existing branch: -f/--force,
// -M (--move --force) or -C (--copy --force). Read from the words after the subcommand, since
// git's own -C before it (git -C DIR branch NAME) is a directory.
func gitBranchForced(s *segment) bool {
	return gitSubOption(s, "fMC", "--force")
}

// gitForceCreates reports whether git checkout -B or git switch -C (--force-create) resets an
// existing branch, read as gitBranchForced is.
func gitForceCreates(s *segment) bool {
	if strings.EqualFold(s.operands[0].s, "switch") {
		return gitSubOption(s, "C", "--force-create")
	}
	return gitSubOption(s, "B")
}

// gitSubOption reports whether one of the words after git's subcommand, up to "--", is one of
// the short options letters (alone or in a bundle) or an abbreviation git's parse-options takes of
// one of the long ones. A word computed at run time could be any of them.
func gitSubOption(s *segment, letters string, long ...string) bool {
	for _, w := range gitSubArgs(s) {
		v := w.s
		switch {
		case w.dynamic && (strings.HasPrefix(v, "$") || strings.HasPrefix(v, "-")):
			return true
		case v == "--":
			return false
		case strings.HasPrefix(v, "--"):
			name, _, _ := strings.Cut(v, "=")
			for _, l := range long {
				if abbreviates(name, l, len("--f")) {
					return true
				}
			}
		case len(v) > 1 && v[0] == '-' && strings.ContainsAny(v[1:], letters):
			return true
		}
	}
	return false
}
