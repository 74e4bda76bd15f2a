package safety

import "strings"

// kubectlListsEnvironment reads kubectl|oc set env, which prints a workload's environment with
// its plain values when told to list it (--list, which has no names-only form) or to print the
// object it changed (-o yaml|json, a template): each container's env, a value beside every name
// not taken from a Secret or a ConfigMap, as docker inspect prints Config.Env. --resolve, which
// prints the Secrets' values too, is print-credentials-kubectl's; set env's other forms change
// the object and print only its name. A computed subcommand could be env.
func kubectlListsEnvironment(s *segment) bool {
	ops := s.operands
	if len(ops) < 2 || ops[0].dynamic || strings.ToLower(ops[0].s) != subSet {
		return false
	}
	if !ops[1].dynamic && strings.ToLower(ops[1].s) != cmdEnv {
		return false
	}
	if boolOption(s, "--resolve") {
		return false // print-credentials-kubectl's, the stronger reason
	}
	return boolOption(s, "--list") || printsData(s)
}
