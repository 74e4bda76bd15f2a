package policy

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// toolGlobChars are the characters a tool glob may use beside those of a name: doublestar's
// wildcards, classes, alternatives and escape.
const toolGlobChars = `*?[]{}!^,\`

// toolNameProblem says why name is not a name an AgentTool can have, or returns "". Calls,
// profiles and rules name tools by their AgentTool's name, exactly: a spelling no AgentTool can
// have ("Bash" for the hook's "bash", "write_file" for an MCP tool registered as "write-file")
// matches nothing, so a deny or a rule naming it would silently apply to no tool.
func toolNameProblem(name string) string {
	if problems := validation.IsDNS1123Subdomain(name); len(problems) > 0 {
		return "not a name an AgentTool can have (" + strings.Join(problems, "; ") + ")"
	}
	return ""
}

// toolPatternProblem is toolNameProblem for a profile's allowedTools or deniedTools entry, which
// is a name or a glob: a glob may use only the characters of a name and the glob's own.
func toolPatternProblem(pattern string) string {
	if !strings.ContainsAny(pattern, toolGlobChars) {
		return toolNameProblem(pattern)
	}
	for _, r := range pattern {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' && r != '.' && !strings.ContainsRune(toolGlobChars, r) {
			return fmt.Sprintf("a glob that matches no AgentTool name: %q cannot appear in one "+
				"(names are lower-case letters, digits, '-' and '.')", r)
		}
	}
	return ""
}

// validateToolPatterns returns an error for each entry of a profile's allowedTools and deniedTools
// that can match no AgentTool. Empty entries and surrounding spaces are the engine's to report.
func validateToolPatterns(allowed, denied []string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	check := func(list []string, name, consequence string) {
		for i, p := range list {
			if p == "" || p != strings.TrimSpace(p) {
				continue
			}
			if problem := toolPatternProblem(p); problem != "" {
				errs = append(errs, field.Invalid(path.Child(name).Index(i), p, problem+"; "+consequence))
			}
		}
	}
	check(allowed, "allowedTools", "the entry would allow no tool")
	check(denied, "deniedTools", "the entry would deny no tool")
	return errs
}
