// Package manifests checks what config/default installs, rendered as `kubectl apply -k` renders it.
package manifests

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/testenv"
)

const (
	operatorNamespace = testenv.OperatorNamespace
	operatorSA        = testenv.OperatorServiceAccount
)

// needed is every right the operator holds, each with the source file whose code uses it. Granting
// a right that is not here fails the test, and so does an entry here that is no longer granted or
// whose file no longer mentions the resource: a rule no code path needs does not ship.
var needed = map[string]string{
	// LeaderElection, and leader election's events.
	"coordination.k8s.io/leases:get,create,update (ns)": "cmd/main.go",
	"/events:create,patch (ns)":                         "cmd/main.go",
	// A pod-bound plan records its Pod's UID when it locks.
	"/pods:get": ctrl + "plan_binding.go",
	// A ProjectPolicy holding settled spend is deleted only with its namespace.
	"/namespaces:get": "internal/webhook/v1alpha1/projectpolicy_delete.go",
	// The certificate rotator's cache, narrowed to its two objects by name (internal/certs/narrow.go).
	"/secrets:get,list,update,watch (ns) names=toolgate-webhook-server-cert":       certs,
	vwc + ":get,list,update,watch names=toolgate-validating-webhook-configuration": certs,
	// The rest.
	"/secrets:get,update (ns) names=toolgate-ledger-signing-key": ctrl + "auditledger_controller.go",
	"events.k8s.io/events:create,patch":                          ctrl + "agentplan_controller.go",
	tg + "agentplans:delete,get,list,patch,update,watch":         ctrl + "endedplan_controller.go",
	tg + "agenttools:get,list,watch":                             "internal/webhook/v1alpha1/setup.go",
	tg + "auditledgers:get,list,watch":                           ctrl + "auditledger_controller.go",
	tg + "automationprofiles:get,list,watch":                     ctrl + "agentplan_controller.go",
	tg + "projectpolicies:create,get,list,watch":                 ctrl + "plan_usage.go",
	tg + "safetyprofiles:create,get,list,patch,update,watch":     ctrl + "safetyprofile_controller.go",
	tg + "agenttoolcalls:delete,get,list,patch,update,watch":     ctrl + "finishedcall_controller.go",
	tg + "toolapprovals:delete,get,list,watch":                   ctrl + "spentapproval_controller.go",
	tg + "agentplans/status:get,patch,update":                    ctrl + "agentplan_controller.go",
	tg + "auditledgers/status:get,patch,update":                  ctrl + "auditledger_controller.go",
	tg + "automationprofiles/status:get,patch,update":            ctrl + "automationprofile_controller.go",
	tg + "projectpolicies/status:get,patch,update":               ctrl + "projectpolicy_controller.go",
	tg + "safetyprofiles/status:get,patch,update":                ctrl + "safetyprofile_controller.go",
	tg + "toolapprovals/status:get,patch,update":                 "internal/webhook/v1alpha1/approvals.go",
	"authentication.k8s.io/tokenreviews:create":                  metricsFile,
	"authorization.k8s.io/subjectaccessreviews:create":           metricsFile,
}

// Shorthands for the table.
const (
	tg    = "safety.toolgate.dev/"
	vwc   = "admissionregistration.k8s.io/validatingwebhookconfigurations"
	ctrl  = "internal/controller/"
	certs = "internal/certs/certs.go"
	// metricsFile authenticates and authorizes scrapes with TokenReviews and SubjectAccessReviews.
	metricsFile = "internal/serving/metrics.go"
)

// grant is one (group, resource) of one rule, in the notation of needed.
func grant(r rbacv1.PolicyRule, group, resource string, namespaced bool) string {
	verbs := slices.Clone(r.Verbs)
	slices.Sort(verbs)
	key := group + "/" + resource + ":" + strings.Join(verbs, ",")
	if namespaced {
		key += " (ns)"
	}
	if len(r.ResourceNames) > 0 {
		key += " names=" + strings.Join(r.ResourceNames, ",")
	}
	return key
}

// normalise sorts an entry's verbs so that the table may list them in reading order.
func normalise(entry string) string {
	head, rest, _ := strings.Cut(entry, ":")
	verbs, tail, _ := strings.Cut(rest, " ")
	v := strings.Split(verbs, ",")
	slices.Sort(v)
	out := head + ":" + strings.Join(v, ",")
	if tail != "" {
		out += " " + tail
	}
	return out
}

type boundRule struct {
	rule      rbacv1.PolicyRule
	namespace string // "" for a ClusterRole bound cluster-wide
	role      string
}

// operatorRules renders config/default and returns every rule bound to the operator's
// ServiceAccount, with where it applies.
func operatorRules(t *testing.T) []boundRule {
	t.Helper()
	objs, _, err := testenv.RenderDefault(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := boundRules(t, objs, operatorSA, operatorNamespace)
	if len(out) == 0 {
		t.Fatal("config/default binds no rule to the operator's ServiceAccount")
	}
	return out
}

// boundRules returns every rule that objs bind to ServiceAccount namespace/name, with where it
// applies; a binding of it to a role objs do not hold fails the test.
func boundRules(t *testing.T, objs []*unstructured.Unstructured, name, namespace string) []boundRule {
	t.Helper()
	roles := map[string][]rbacv1.PolicyRule{}
	var bindings []struct {
		ns  string
		ref rbacv1.RoleRef
		sub []rbacv1.Subject
	}
	for _, o := range objs {
		switch o.GetKind() {
		case "ClusterRole", "Role":
			var r rbacv1.ClusterRole
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, &r); err != nil {
				t.Fatal(err)
			}
			roles[o.GetKind()+"/"+o.GetNamespace()+"/"+o.GetName()] = r.Rules
		case "ClusterRoleBinding", "RoleBinding":
			var b rbacv1.RoleBinding
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, &b); err != nil {
				t.Fatal(err)
			}
			bindings = append(bindings, struct {
				ns  string
				ref rbacv1.RoleRef
				sub []rbacv1.Subject
			}{o.GetNamespace(), b.RoleRef, b.Subjects})
		}
	}
	var out []boundRule
	for _, b := range bindings {
		if !slices.ContainsFunc(b.sub, func(s rbacv1.Subject) bool {
			return s.Kind == "ServiceAccount" && s.Name == name && s.Namespace == namespace
		}) {
			continue
		}
		ns := ""
		if b.ref.Kind == "Role" {
			ns = b.ns
		}
		key := b.ref.Kind + "/" + ns + "/" + b.ref.Name
		rules, ok := roles[key]
		if !ok {
			t.Fatalf("a binding of %s/%s refers to %s, which is not installed", namespace, name, key)
		}
		for _, r := range rules {
			out = append(out, boundRule{rule: r, namespace: b.ns, role: key})
		}
	}
	return out
}

func TestOperatorRBACIsLeastPrivilege(t *testing.T) {
	granted := map[string]bool{}
	for _, br := range operatorRules(t) {
		r := br.rule
		where := fmt.Sprintf("%s rule %+v", br.role, r)
		for _, list := range [][]string{r.Verbs, r.Resources, r.APIGroups, r.ResourceNames} {
			if slices.Contains(list, "*") {
				t.Errorf("%s: a wildcard", where)
			}
		}
		if len(r.NonResourceURLs) > 0 {
			t.Errorf("%s: non-resource URLs", where)
		}
		for _, v := range r.Verbs {
			if v == "escalate" || v == "bind" || v == "impersonate" {
				t.Errorf("%s: verb %s lets the operator raise its own rights", where, v)
			}
		}
		for _, group := range r.APIGroups {
			for _, res := range r.Resources {
				if group == "" && res == "secrets" {
					if br.namespace != operatorNamespace || strings.HasPrefix(br.role, "ClusterRole/") {
						t.Errorf("%s: Secret access outside the operator's namespace", where)
					}
					for _, v := range r.Verbs {
						if v != "list" && v != "watch" && !slices.Equal(r.ResourceNames, []string{testenv.CertSecretName}) &&
							!slices.Equal(r.ResourceNames, []string{audit.SigningSecretName}) {
							t.Errorf("%s: Secret verb %s is not limited by resourceNames to the Secrets the operator owns", where, v)
						}
					}
				}
				if res == "validatingwebhookconfigurations" || res == "mutatingwebhookconfigurations" {
					for _, v := range r.Verbs {
						if v != "list" && v != "watch" && !slices.Equal(r.ResourceNames, []string{testenv.WebhookConfigurationName}) {
							t.Errorf("%s: webhook configuration verb %s is not limited to toolgate's own by resourceNames", where, v)
						}
					}
				}
				granted[grant(r, group, res, br.namespace != "" && strings.HasPrefix(br.role, "Role/"))] = true
			}
		}
	}
	want := map[string]string{}
	for entry, file := range needed {
		want[normalise(entry)] = file
	}
	for g := range granted {
		if _, ok := want[g]; !ok {
			t.Errorf("config/default grants the operator %q, which no code path is recorded to need", g)
		}
	}
	for entry, file := range want {
		if !granted[entry] {
			t.Errorf("%q is recorded as needed (by %s) but not granted: remove it from the table or grant it", entry, file)
			continue
		}
		resource := strings.TrimSuffix(strings.SplitN(strings.SplitN(entry, "/", 2)[1], ":", 2)[0], "/status")
		path, err := testenv.Path(file)
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%q: the code path %s is gone: %v", entry, file, err)
			continue
		}
		if mention := singular(resource); !strings.Contains(strings.ToLower(string(src)), mention) {
			t.Errorf("%q: %s no longer mentions %s", entry, file, mention)
		}
	}
}

// singular is how code names a resource: "leases" is used as "lease", "agentplans" as "agentplan".
func singular(resource string) string {
	switch resource {
	case "leases":
		return "leader"
	case "events":
		return "event"
	case "tokenreviews", "subjectaccessreviews":
		return "withauthenticationandauthorization"
	case "validatingwebhookconfigurations":
		return "webhook"
	case "agenttoolcalls":
		return "agenttoolcall"
	}
	return strings.TrimSuffix(resource, "s")
}
