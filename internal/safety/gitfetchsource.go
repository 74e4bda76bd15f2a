package safety

import (
	"path"
	"strings"
)

// git pull and git fetch take their repository as a remote's name, a URL, or a path or ssh
// address written as it is: git never looks a word with a "/" up among the remotes (remote.c's
// valid_remote_nick), so git pull /tmp/x main and git pull ../other fetch from that directory,
// and a word with a ":" before any "/" (host:repo) is an ssh address. Commits fetched so fill the
// working tree with code from outside the repository's own history exactly as git pull URL
// does, and a build or test after them is fetched code run (fetchedtrees.go). "." (and "./") is
// the repository itself (git pull . topic merges a local branch).

// gitFetchValued are the options of git pull and git fetch that take the next word as their value.
var gitFetchValued = strings.Fields("-s --strategy -X --strategy-option --depth --deepen --shallow-since " +
	"--shallow-exclude --upload-pack --negotiation-tip -j --jobs -o --server-option --refmap --filter " +
	"--recurse-submodules-default --submodule-prefix --cleanup")

// gitFetchesFromPath says whether a git pull or fetch names its repository by a path or an ssh
// address (host:repo) rather than by a remote's name or a URL with a scheme.
func gitFetchesFromPath(s *segment) bool {
	ops := positionals(gitSubArgs(s), gitFetchValued)
	if len(ops) == 0 || ops[0].dynamic {
		return false // none, or computed: byURL already counts a computed one
	}
	v := ops[0].s
	if path.Clean(v) == "." {
		return false
	}
	slash := strings.IndexByte(v, '/')
	colon := strings.IndexByte(v, ':')
	return v == ".." || strings.HasPrefix(v, "~") || slash >= 0 || colon > 0 && (slash < 0 || colon < slash)
}
