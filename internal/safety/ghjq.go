package safety

import "regexp"

// gh's --jq (-q) runs its filter in gojq with the process environment loaded (go-gh's pkg/jq), so
// env and $ENV print it, GH_TOKEN among it, as jq's do (print-environment-jq). Only the filter is
// read: gh pr list --label env names a label.

// jqEnvWord is print-environment-jq's pattern: env or $ENV, not a field named env (.env).
var jqEnvWord = regexp.MustCompile(`(^|[^.\w$])(env|\$ENV)(\W|$)`)

// ghJqPrintsEnvironment is the gh-jq-prints-environment check; a computed filter could be env.
func ghJqPrintsEnvironment(s *segment) bool {
	for v := range optionValues(s, "-q", "--jq") {
		if v.dynamic || jqEnvWord.MatchString(v.s) {
			return true
		}
	}
	return false
}
