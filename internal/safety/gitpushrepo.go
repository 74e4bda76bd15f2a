package safety

import "strings"

// gitPushRepos returns the remotes a git push names other than by its <repository> operand:
// --repo=REMOTE (or an abbreviation git's parse-options takes, --rep=), and the configuration
// git -c gives it, remote.pushDefault, branch.NAME.pushRemote and branch.NAME.remote, which a push
// without an operand pushes to. The operands-first text puts them where a project rule written
// as "^git push prod( |$)" looks. "--repo prod" apart needs nothing: the parse already takes prod
// for an operand.
func gitPushRepos(s *segment) []string {
	if s.name != cmdGit || len(s.operands) == 0 || s.operands[0].s != "push" {
		return nil
	}
	var repos []string
	for i, w := range s.words[1:] {
		name, val, ok := strings.Cut(w.s, "=")
		if ok && !w.dynamic && abbreviates(name, "--repo", len("--rep")) {
			repos = append(repos, val)
		}
		if w.s == "-c" && i+2 < len(s.words) {
			key, val, _ := strings.Cut(s.words[i+2].s, "=")
			if pushRemoteKey(strings.ToLower(key)) {
				repos = append(repos, val)
			}
		}
	}
	return repos
}

// pushRemoteKey says whether a git configuration key (in lower case) names the remote a push
// without an operand goes to.
func pushRemoteKey(key string) bool {
	if key == "remote.pushdefault" {
		return true
	}
	rest, ok := strings.CutPrefix(key, "branch.")
	return ok && (strings.HasSuffix(rest, ".pushremote") || strings.HasSuffix(rest, ".remote"))
}
