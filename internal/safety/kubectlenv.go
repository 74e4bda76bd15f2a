package safety

import (
	"regexp"
	"slices"
	"strings"
)

// kubectlListsEnvironment reads kubectl|oc set env, which prints a workload's environment with
// its plain values when told to list it (--list, which has no names-only form) or to print the
// object it changed (-o yaml|json, a template): each container's env, a value beside every name
// not taken from a Secret or a ConfigMap, as docker inspect prints Config.Env. --resolve, which
// prints the Secrets' values too, is print-credentials-kubectl's; set env's other forms change
// the object and print only its name. A computed subcommand could be env. kubectl get prints the
// same env of a pod or a workload's pod template with -o yaml|json or a template that reaches it
// (kubectlGetsEnvironment), and so do the other recognised verbs that print the objects they act
// on: kubectl wait --for=condition=Ready pod/x -o yaml, kubectl rollout history deploy/x
// --revision=2 -o yaml. (The verbs that change objects are not recognised, and asked anyway.)
func kubectlListsEnvironment(s *segment) bool {
	ops := s.operands
	if len(ops) == 0 || ops[0].dynamic {
		return false
	}
	switch verb := strings.ToLower(ops[0].s); verb {
	case subGet, subWait:
		return kubectlGetsEnvironment(s, ops[1:])
	case subRollout:
		return len(ops) > 1 && strings.ToLower(ops[1].s) == "history" && kubectlGetsEnvironment(s, ops[2:])
	case subSet: // set env, read below
	default:
		return false
	}
	if len(ops) < 2 {
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

// kubectlGetsEnvironment reads kubectl|oc get of a kind whose objects hold containers' env (a
// pod, a workload's pod template, all, objects from files): a full -o yaml|json, a template or
// custom columns that may reach env, or -v=8 and above, which log the response bodies. The
// table, -o wide and -o name print no env; nor does a template that selects other fields
// ({.status.phase}, {range .items[*]}{.metadata.name}{end}).
func kubectlGetsEnvironment(s *segment, ops []word) bool {
	if kubectlPrintsCredential(s) {
		return false // a Secret's data is print-credentials-kubectl's, the stronger reason
	}
	if raw, ok := kubectlOption(s, 0, "--raw"); ok {
		return raw.dynamic || rawReachesWorkload(decodedRawPath(raw.s))
	}
	if !mayNameType(s, ops, workloadType) {
		return false
	}
	if verbosity(s) >= 8 || s.unknownFlags {
		return true
	}
	tmpl, hasTmpl := kubectlOption(s, 0, "--template")
	if hasTmpl && templateReachesEnv(tmpl) {
		return true
	}
	out, ok := kubectlOption(s, 'o', "--output")
	if !ok {
		return false
	}
	if out.dynamic {
		return true
	}
	format, expr, hasExpr := strings.Cut(out.s, "=")
	switch format = strings.ToLower(format); {
	case format == "name" || format == "wide":
		return false
	case slices.Contains(kubeTemplateFormats, format):
		if !hasExpr {
			return !hasTmpl // the template is --template's, read above
		}
		return templateReachesEnv(out.with(expr))
	}
	return true // yaml, json, a template file the engine cannot read and any other format
}

// kubectl's verbs that wait for a condition and that manage a rollout.
const (
	subWait    = "wait"
	subRollout = "rollout"
)

// kubeTemplateFormats are kubectl's output formats that print what an expression selects.
var kubeTemplateFormats = strings.Fields("jsonpath jsonpath-as-json go-template template custom-columns")

// templateReachesEnv says whether a template may print a container's env; a computed one may.
func templateReachesEnv(t word) bool {
	return t.dynamic || kubeEnvTemplate.MatchString(rangeClause.ReplaceAllString(t.s, ""))
}

// rawReachesWorkload says whether an API path (decoded, lower case) reads pods or workloads, whose
// JSON holds the containers' env: a path part that is one of workloadTypes' plural names
// (/api/v1/namespaces/x/pods, /apis/apps/v1/deployments), unless it asks for a pod's log.
func rawReachesWorkload(p string) bool {
	if strings.HasSuffix(strings.TrimRight(p, "/"), "/log") {
		return false
	}
	for part := range strings.SplitSeq(strings.Split(p, "?")[0], "/") {
		if len(part) > 2 && strings.HasSuffix(part, "s") && workloadType(part) {
			return true
		}
	}
	return false
}

// workloadType says whether a kubectl|oc resource type's objects hold containers with env: pods,
// pod templates and the workloads that carry one, "all", and OpenShift's deployment and build
// configs (types are matched case-blind, with or without a version or group suffix).
func workloadType(t string) bool {
	name, _, _ := strings.Cut(t, ".")
	return slices.Contains(workloadTypes, name)
}

// workloadTypes are the kinds, by every name kubectl and oc take, whose objects hold env.
var workloadTypes = strings.Fields(`all pod pods po podtemplate podtemplates deployment deployments deploy
	statefulset statefulsets sts daemonset daemonsets ds replicaset replicasets rs replicationcontroller
	replicationcontrollers rc job jobs cronjob cronjobs cj deploymentconfig deploymentconfigs dc
	buildconfig buildconfigs bc`)

// kubeEnvTemplate matches a kubectl jsonpath, go-template or custom-columns expression that may
// print a container's env: one naming it, a recursive descent (..), the whole object (., @, $ or
// a variable), a wildcard child (.*), or a field that holds it printed whole (spec, template,
// containers, items, ..., also as a quoted key ['spec']) at the end of a path, bracket indexes and all.
var kubeEnvTemplate = regexp.MustCompile(`(?i)^\s*$|env|\.\.|@|\$|(^|[{(\s,:])\.\s*($|[}\s,)|])|` +
	`(spec|template|containers|initcontainers|ephemeralcontainers|jobtemplate|items)['"]?\s*\]?\s*(\[[^\]]*\]\s*)*($|[}\s,)|])|` +
	`\.\s*\*`)

// rangeClause is a jsonpath or go-template range (or with) over a list: it sets what the paths
// after it are relative to and prints nothing itself.
var rangeClause = regexp.MustCompile(`(?i)\b(range|with)\s+[^}]*`)
