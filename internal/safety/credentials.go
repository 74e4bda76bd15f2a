package safety

import (
	"net/url"
	"strconv"
	"strings"
)

// builtinChecks are the predicates a rule names in Check. Each reads a program's words as its own
// option parser would, where a regular expression over the text cannot: which operand is the
// resource once every option and its value are skipped ("kubectl -n secrets get pods" names a
// namespace, not Secrets), a percent-encoded API path, an abbreviated option.
var builtinChecks = map[string]func(*segment) bool{
	"kubectl-prints-credential": kubectlPrintsCredential,
	"renders-manifests":         rendersManifests,
}

// kubectlShortValues are kubectl's (and oc's) short options that take a value, so a bundle
// "-An secrets" is -A and -n secrets.
const kubectlShortValues = "nofklcsLpv"

// kubectlValueOptions are kubectl's options whose value is the next word: neither an operand nor
// the subcommand, so "kubectl get -v 9 secrets" has the resource secrets. oc shares them.
var kubectlValueOptions = []string{"--context", "--cluster", "--user", "-n", "--namespace", "--kubeconfig", "-s", "--server",
	"--token", "--as", "--as-group", "--as-uid", "--certificate-authority", "--client-key", "--client-certificate",
	"--request-timeout", "-l", "--selector", "-o", "--output", "-c", "--container", "--field-selector", "--cache-dir",
	"--tls-server-name", "-f", "--filename", "-k", "--kustomize", "-v", "--v", "-L", "--label-columns", "--raw",
	"--template", "--sort-by", "-p", "--patch", "--duration", "--audience", "--from", "--for", "--timeout", "--kuberc"}

// kubectlPrinters are the verbs that print the objects they act on with -o.
var kubectlPrinters = map[string]bool{"get": true, "apply": true, "replace": true, "patch": true, "label": true,
	"annotate": true, "wait": true, "edit": true, "scale": true, "set": true, "rollout": true, "debug": true,
	"expose": true, "autoscale": true, "taint": true, "run": true}

// kubectlPrintsCredential reports whether a kubectl (or oc) command prints a credential: a
// Secret's data (any verb that prints the objects it acts on with a data-bearing -o, describe,
// which shows a token Secret's token, edit, view-last-applied, verbose logging of the response
// bodies), the API path of Secrets or tokens through --raw, the kubeconfig's keys (config view
// --raw/--flatten), a new ServiceAccount token, set env --resolve (the values of the Secret keys
// the environment refers to), oc's own token printers. Objects given by file (-f, -k) or by a
// computed operand may be Secrets; a computed output format may print data.
func kubectlPrintsCredential(s *segment) bool {
	if raw, ok := lastOptionValue(s, 0, "--raw", kubectlShortValues); ok && rawNamesCredential(raw) {
		return true
	}
	if len(s.operands) == 0 {
		return false
	}
	verb, rest := strings.ToLower(s.operands[0].s), s.operands[1:]
	sub := ""
	if len(rest) > 0 {
		sub = strings.ToLower(rest[0].s)
	}
	switch {
	case s.operands[0].dynamic:
		return true // which verb runs is not known (kubectl $V secrets)
	case verb == "config":
		return sub == "view" && (boolOption(s, "--raw") || boolOption(s, "--flatten"))
	case verb == "create":
		return sub == "token"
	case verb == "describe", verb == "view-secret", verb == "edit":
		return verb == "view-secret" || mayNameSecret(s, rest)
	case verb == "apply" && (sub == "view-last-applied" || sub == "edit-last-applied"):
		return mayNameSecret(s, rest[1:])
	case verb == "set" && sub == "env" && boolOption(s, "--resolve"):
		return true
	case s.name == "oc" && ocPrintsToken(s, verb, sub, rest):
		return true
	}
	if verbosity(s) >= 8 && mayNameSecret(s, rest) {
		return true // -v=8 and above log the response bodies: the Secret's data
	}
	if verb == "set" || verb == "rollout" {
		rest = rest[min(1, len(rest)):] // set env RESOURCE, rollout status RESOURCE
	}
	return kubectlPrinters[verb] && printsData(s) && mayNameSecret(s, rest)
}

// ocPrintsToken covers OpenShift's own printers: whoami -t/--show-token, extract (a Secret's
// keys to files or stdout) and serviceaccounts get-token/new-token.
func ocPrintsToken(s *segment, verb, sub string, rest []word) bool {
	switch verb {
	case "whoami":
		return s.hasFlag("-t") || boolOption(s, "--show-token")
	case "extract":
		return mayNameSecret(s, rest)
	case "serviceaccounts", "sa":
		return sub == "get-token" || sub == "new-token"
	}
	return false
}

// printsData reports whether the output format prints the objects' data: anything but the table
// forms (none, name, wide), a template, or a computed option that could be either.
func printsData(s *segment) bool {
	if s.unknownFlags {
		return true
	}
	if _, ok := lastOptionValue(s, 0, "--template", kubectlShortValues); ok {
		return true
	}
	out, ok := lastOptionValue(s, 'o', "--output", kubectlShortValues)
	if !ok {
		return false
	}
	f := strings.ToLower(out.s)
	return out.dynamic || (f != "name" && f != "wide")
}

// verbosity is kubectl's -v/--v level; a computed one counts as the highest.
func verbosity(s *segment) int {
	v, ok := lastOptionValue(s, 'v', "--v", kubectlShortValues)
	if !ok {
		return 0
	}
	if v.dynamic {
		return 10
	}
	n, err := strconv.Atoi(v.s)
	if err != nil {
		return 0 // kubectl refuses a level that is not a number
	}
	return n
}

// mayNameSecret reports whether the resource operands (after the verb) may name Secrets: the
// type argument (first operand) lists secret among its comma-separated types, a TYPE/NAME
// operand is of type secret, the objects come from files (-f, -k, whose contents the engine does
// not read), or an operand the type could be in is computed or a glob.
func mayNameSecret(s *segment, ops []word) bool {
	if s.hasFlag("-f") || s.hasFlag("--filename") || s.hasFlag("-k") || s.hasFlag("--kustomize") {
		return true
	}
	for i, o := range ops {
		if o.dynamic || o.glob {
			if i == 0 || strings.Contains(ops[0].s, "/") {
				return true
			}
			continue
		}
		for t := range strings.SplitSeq(strings.ToLower(o.s), ",") {
			typ, _, named := strings.Cut(t, "/")
			if (i == 0 || named) && secretType(typ) {
				return true
			}
		}
	}
	return false
}

// secretType reports whether a kubectl resource type names Secrets: "secret", "secrets",
// "secrets.v1", "secret.", "Secret" (types are matched case-blind).
func secretType(t string) bool {
	name, _, _ := strings.Cut(t, ".")
	return name == "secret" || name == "secrets"
}

// rawNamesCredential reports whether an API path given to --raw reaches Secrets or tokens: after
// percent-decoding (the API server decodes the path once; decoded until stable, so a doubly
// encoded one counts too), case-blind anywhere in it. A computed path could be any.
func rawNamesCredential(raw word) bool {
	if raw.dynamic {
		return true
	}
	p := raw.s
	for range 4 {
		d, err := url.PathUnescape(p)
		if err != nil || d == p {
			break
		}
		p = d
	}
	p = strings.ToLower(p)
	return strings.Contains(p, "secret") || strings.Contains(p, "token")
}

// rendersManifests reports whether a command renders manifests that may hold Secrets with their
// data, or the values a release was installed with: kustomize build (and kubectl kustomize), helm
// template, helm get all|manifest|values, helm install/upgrade --dry-run. The engine cannot see
// what the chart or the kustomization generates.
func rendersManifests(s *segment) bool {
	if len(s.operands) == 0 {
		return false
	}
	verb, sub := strings.ToLower(s.operands[0].s), ""
	if len(s.operands) > 1 {
		sub = strings.ToLower(s.operands[1].s)
	}
	if s.operands[0].dynamic {
		return true
	}
	switch s.name {
	case "kustomize":
		return verb == "build"
	case "kubectl", "oc":
		return verb == "kustomize"
	case "helm":
		switch verb {
		case "template":
			return true
		case "get":
			return sub == "all" || sub == "manifest" || sub == "values" || len(s.operands) > 1 && s.operands[1].dynamic
		case "install", "upgrade":
			return boolOption(s, "--dry-run")
		}
	}
	return false
}
