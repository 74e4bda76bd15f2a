package safety

import (
	"regexp"
	"slices"
	"strings"
)

// A container's or a service's environment printed with its values (print-environment-service,
// the prints-service-environment check): docker inspect of a container prints its Config.Env, the
// -e values it was started with, and systemctl show a unit's Environment=, as printenv prints the
// agent's own. A --format that reads neither (docker inspect -f '{{.State.Status}}') and a
// property list without Environment (systemctl show -p ActiveState) stay admitted; a network's or
// a volume's inspect holds no environment.

// inspectKinds are the objects docker inspect describes with an environment: a container, an
// image (its ENV), a swarm service or task; inspectedBare are the other kinds, whose inspect holds
// none.
var (
	inspectKinds  = strings.Fields("container image service task")
	inspectedBare = strings.Fields("network volume node secret config plugin context manifest pod machine")
)

// envTemplate matches a docker --format template that may print the environment: one naming it,
// printing the whole object or its configuration ({{json .}}, {{.Config}}), indexing by a computed
// or quoted key, or binding a variable the engine does not follow.
var envTemplate = regexp.MustCompile(`(?i)env|index|\$|\.config\s*(}}|\)|\s)|[{(\s]\.\s*(}}|\))`)

// printsServiceEnvironment is the prints-service-environment check.
func printsServiceEnvironment(s *segment) bool {
	switch s.name {
	case cmdDocker, cmdPodman, cmdNerdctl:
		return inspectsEnvironment(s)
	case cmdSystemctl:
		return showsEnvironment(s)
	case cmdAz:
		return azPrintsEnvironment(s)
	case cmdKubectl, cmdOC:
		return kubectlListsEnvironment(s)
	}
	return false
}

// systemctl, and the subcommand that prints a unit's properties.
const (
	cmdSystemctl = "systemctl"
	subShow      = "show"
	cmdAz        = "az"
)

// inspectsEnvironment reads docker|podman|nerdctl [container|image|service] inspect.
func inspectsEnvironment(s *segment) bool {
	ops := s.operands
	switch {
	case len(ops) > 1 && slices.Contains(inspectKinds, ops[0].s) && ops[1].s == "inspect":
	case len(ops) > 0 && ops[0].s == "inspect":
		if t, ok := optionValue(s, "--type", "--type"); ok && !t.dynamic && slices.Contains(inspectedBare, t.s) {
			return false
		}
	default:
		return false
	}
	f, ok := optionValue(s, "-f", "--format")
	return !ok || f.dynamic || envTemplate.MatchString(f.s)
}

// showsEnvironment reads systemctl show: every property unless -p/--property (or -P, which
// prints values only) names which, comma-separated or repeated.
func showsEnvironment(s *segment) bool {
	if len(s.operands) == 0 || s.operands[0].s != subShow {
		return false
	}
	named := false
	for _, opt := range [][2]string{{"-p", "--property"}, {"-P", "-P"}} {
		for v := range optionValues(s, opt[0], opt[1]) {
			named = true
			if v.dynamic || slices.Contains(strings.Split(v.s, ","), "Environment") {
				return true
			}
		}
	}
	return !named
}
