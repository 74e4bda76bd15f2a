package safety

import "strings"

// subPush is git's push (and git stash's).
const subPush = "push"

// gitPushRepos returns the remotes a git push names other than by its <repository> operand:
// --repo=REMOTE (or an abbreviation git's parse-options takes, --rep=), and the configuration git
// -c (or --config-env=KEY=VAR, with VAR set on the command) gives it (pushTarget): the remote a
// push without an operand goes to, and the URLs a remote's push is sent to instead of the one it
// names. The operands-first text puts them where a project rule written as "^git push prod( |$)"
// or "^git push .*prod\.example" looks. "--repo prod" apart needs nothing: the parse already
// takes prod for an operand.
func gitPushRepos(s *segment) []string {
	if !isGitPush(s) {
		return nil
	}
	var repos []string
	for _, w := range s.words[1:] {
		name, val, ok := strings.Cut(w.s, "=")
		if ok && !w.dynamic && abbreviates(name, "--repo", len("--rep")) {
			repos = append(repos, val)
		}
	}
	for _, kv := range gitConfigValues(s) {
		if t, _ := pushTarget(s, kv.s); t != "" {
			repos = append(repos, t)
		}
	}
	return repos
}

// isGitPush says whether the segment is git push.
func isGitPush(s *segment) bool {
	return s.name == cmdGit && len(s.operands) > 0 && s.operands[0].s == subPush
}

// pushTarget returns where a git setting (KEY=VALUE, for git push) sends the push, and whether
// that is its value: the remote a push without an operand goes to (remote.pushDefault,
// branch.NAME.pushRemote, branch.NAME.remote; with an operand, the operand is the remote), the
// URL a remote's push goes to (remote.NAME.url, remote.NAME.pushurl), or the URL base a push to a
// URL starting with the value is rewritten to (url.BASE.insteadOf, url.BASE.pushInsteadOf: the
// target is in the key). Section and variable names are case-insensitive; a URL base is not.
func pushTarget(s *segment, kv string) (target string, isValue bool) {
	key, val, _ := strings.Cut(kv, "=")
	lower := strings.ToLower(key)
	switch {
	case len(s.operands) == 1 && pushRemoteKey(lower):
		return val, true
	case strings.HasPrefix(lower, "remote.") && (strings.HasSuffix(lower, ".url") || strings.HasSuffix(lower, ".pushurl")):
		return val, true
	case strings.HasPrefix(lower, "url.") && (strings.HasSuffix(lower, ".insteadof") || strings.HasSuffix(lower, ".pushinsteadof")):
		return key[len("url."):strings.LastIndexByte(key, '.')], false
	}
	return "", false
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

// computedPushTarget returns a git push setting whose value, where the push goes, is computed at
// run time (git --config-env=remote.pushDefault=P push, with P from the environment; git -c
// remote.origin.pushurl="$U" push origin), or "". A project rule on the remote or its URL cannot
// match a target the engine does not see, so such a push is not admitted as the visible one.
func computedPushTarget(s *segment) string {
	if !isGitPush(s) {
		return ""
	}
	for _, kv := range gitConfigValues(s) {
		if _, isValue := pushTarget(s, kv.s); isValue && kv.dynamic {
			return kv.s
		}
	}
	return ""
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
