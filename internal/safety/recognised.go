package safety

import (
	"slices"
	"strings"
)

// What the autonomy mapping recognises beyond the project's own commands: the rule pack's
// prefixes (recognized, and ordinary, whose writes the engine does not model), matched after a
// cluster client's global options, and never for a client told to send its credentials elsewhere.

// credentialTargets are the options and variables that make a cluster or container client send its
// credentials to a server the command line names, or take them from a client configuration it names
// (whose exec credential plugin is a program it runs). A built-in recognised prefix of these programs
// covers the everyday use, which names none: with one, the command is recognised only when the
// project declares it.
//
//nolint:goconst // option spellings read best literally, next to their neighbours
var credentialTargets = map[string][]string{
	cmdKubectl: {"-s", "--server", "--kubeconfig", "--token", "--certificate-authority", "--insecure-skip-tls-verify", optUser,
		"--as", "--as-group", "--as-uid"},
	cmdHelm: {"--kube-apiserver", "--kubeconfig", "--kube-token", "--kube-as-user", "--kube-as-group", "--kube-ca-file",
		"--kube-insecure-skip-tls-verify"},
	"docker": {"-H", "--host", "--config"},
}

// sendsCredentialsElsewhere reports whether the segment carries one of its program's credentialTargets,
// as an option or as the variable that stands for it (envOptions: KUBECONFIG, DOCKER_HOST).
func sendsCredentialsElsewhere(s *segment) bool {
	targets := credentialTargets[s.name]
	if len(targets) == 0 {
		return false
	}
	for _, f := range s.flags {
		if slices.Contains(targets, f) {
			return true
		}
	}
	for _, kv := range s.env {
		name, _, _ := strings.Cut(kv, "=")
		if f, ok := envOptions[s.name][name]; ok && slices.Contains(targets, f) {
			return true
		}
	}
	return false
}

// matchesPrefix reports whether the segment runs one of the command prefixes. For a program whose
// global options only choose the cluster, context, namespace or directory it works on, the prefix
// is also matched after them (kubectl -n staging get pods is kubectl get), as rules see them.
func matchesPrefix(prefixes [][]string, s *segment) bool {
	afterGlobals := s.alt != "" && selectorGlobals[s.name]
	for _, r := range prefixes {
		if prefixOf(r, s) || pythonModuleOf(r, s) || afterGlobals && subcommandAfterGlobals(r, s) {
			return true
		}
	}
	return false
}

// subcommandAfterGlobals reports whether the segment's text with its global options last starts
// with the prefix, whose words stand literally (not computed) in the segment.
func subcommandAfterGlobals(r []string, s *segment) bool {
	joined := strings.Join(r, " ")
	if s.alt != joined && !strings.HasPrefix(s.alt, joined+" ") {
		return false
	}
	for j := 1; j+len(r)-1 <= len(s.words); j++ {
		k := 1
		for ; k < len(r) && !s.words[j+k-1].dynamic && s.words[j+k-1].s == r[k]; k++ {
		}
		if k == len(r) {
			return true
		}
	}
	return false
}

// selectorGlobals are the programs matchesPrefix reads after their global options.
var selectorGlobals = map[string]bool{cmdKubectl: true, cmdHelm: true, "docker": true, cmdTerraform: true}
