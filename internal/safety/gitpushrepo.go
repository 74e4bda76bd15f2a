package safety

import "strings"

// subPush is git's push (and git stash's).
const subPush = "push"

// gitPushRepos returns the remotes a git push names other than by its <repository> operand:
// --repo=REMOTE (or an abbreviation git's parse-options takes, --rep=), and, for a push without
// an operand, the configuration git -c (or --config-env=KEY=VAR, with VAR set on the command)
// gives it: remote.pushDefault, branch.NAME.pushRemote and branch.NAME.remote. The operands-first
// text puts them where a project rule written as "^git push prod( |$)" looks. "--repo prod" apart
// needs nothing: the parse already takes prod for an operand.
func gitPushRepos(s *segment) []string {
	if s.name != cmdGit || len(s.operands) == 0 || s.operands[0].s != subPush {
		return nil
	}
	var repos []string
	for _, w := range s.words[1:] {
		name, val, ok := strings.Cut(w.s, "=")
		if ok && !w.dynamic && abbreviates(name, "--repo", len("--rep")) {
			repos = append(repos, val)
		}
	}
	if len(s.operands) > 1 {
		return repos // the operand is the remote, whatever the configuration says
	}
	for _, kv := range gitConfigValues(s) {
		if key, val, _ := strings.Cut(kv.s, "="); pushRemoteKey(strings.ToLower(key)) {
			repos = append(repos, val)
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

// envValueOf is the value a segment's own assignment gives a variable ("P=prod git ..."), and
// whether it gives one.
func envValueOf(s *segment, name string) (string, bool) {
	for _, kv := range s.env {
		if n, v, _ := strings.Cut(kv, "="); n == name {
			return v, true
		}
	}
	return "", false
}
