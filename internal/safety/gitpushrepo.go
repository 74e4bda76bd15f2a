package safety

import "strings"

// gitPushRepos returns the remotes a git push names with --repo=REMOTE (or an abbreviation git's
// parse-options takes, --rep=): git pushes there as to the <repository> operand, so the
// operands-first text puts them where a project rule written as "^git push prod( |$)" looks.
// "--repo prod" apart needs nothing: the parse already takes prod for an operand.
func gitPushRepos(s *segment) []string {
	if s.name != cmdGit || len(s.operands) == 0 || s.operands[0].s != "push" {
		return nil
	}
	var repos []string
	for _, w := range s.words[1:] {
		name, val, ok := strings.Cut(w.s, "=")
		if ok && !w.dynamic && abbreviates(name, "--repo", len("--rep")) {
			repos = append(repos, val)
		}
	}
	return repos
}
