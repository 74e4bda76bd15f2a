package safety

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// credentialCase is one command that prints a credential, or one that must not be taken for one.
type credentialCase struct {
	name, cmd string
	want      outcome // the zero outcome: admitted
}

// testCredentialCases evaluates each case at Yolo autonomy, where only the safety net refuses:
// an attack is held (or denied) by the rule named, an allowed case is admitted outright, so a
// rule that over-reaches fails as surely as one that misses.
func testCredentialCases(t *testing.T, cases []credentialCase) {
	t.Helper()
	p := mustCompile(t, &Profile{}, ProjectRules{Workspace: "/workspace", Autonomy: AutonomyYolo})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if want == (outcome{}) {
				want = outcome{Verdict: VerdictAllow}
			}
			d := Evaluate(p, shCall(c.cmd))
			if diff := cmp.Diff(want, outcomeOf(d)); diff != "" {
				t.Errorf("%q (-want +got):\n%s\nmessage: %s", c.cmd, diff, d.Message)
			}
		})
	}
}

// kubectl and oc print a credential through operands a regular expression misread: the resource
// after every option and its value, objects from files, API paths, output formats computed at
// run time.
func TestKubectlPrintsCredentials(t *testing.T) {
	k := asked(dc + "print-credentials-kubectl")
	r := asked(dc + "print-credentials-rendered")
	testCredentialCases(t, []credentialCase{
		{"describe secret prints a token Secret's token", `kubectl describe secret sa-token`, k},
		{"describe secrets/NAME", `kubectl describe secrets/sa-token`, k},
		{"describe a pod", `kubectl describe pod web`, outcome{}},
		{"get -f may name a Secret", `kubectl get -f x.yaml -o yaml`, k},
		{"get -k may name a Secret", `kubectl get -k overlays/prod -ojson`, k},
		{"get -f without data", `kubectl get -f x.yaml`, outcome{}},
		{"apply -f prints nothing", `kubectl apply -f deploy.yaml`, outcome{}},
		{"--raw to Secrets", `kubectl get --raw /api/v1/namespaces/x/secrets`, k},
		{"--raw percent-encoded", `kubectl get --raw /api/v1/namespaces/x/%73ecrets/db`, k},
		{"--raw doubly percent-encoded", `kubectl get --raw=/api/v1/namespaces/x/%2573ecrets`, k},
		{"--raw delete returns the object", `kubectl delete --raw /api/v1/namespaces/x/secrets/db`, k},
		{"--raw TokenRequest", `kubectl create --raw /api/v1/namespaces/x/serviceaccounts/d/token -f req.json`, k},
		{"--raw to pods", `kubectl get --raw /api/v1/namespaces/x/pods`, outcome{}},
		{"create token", `kubectl create token builder`, k},
		{"create token after options", `kubectl -n ci create --duration 1h token builder`, k},
		{"create secret from literals", `kubectl create secret generic x --from-literal=a=b --dry-run=client -o yaml`, outcome{}},
		{"oc get secret", `oc get secret db -o yaml`, k},
		{"oc whoami -t", `oc whoami -t`, k},
		{"oc whoami --show-token", `oc whoami --show-token`, k},
		{"oc whoami", `oc whoami`, outcome{}},
		{"oc extract secret", `oc extract secret/db --to=-`, k},
		{"oc sa get-token", `oc sa get-token builder`, k},
		{"a computed output format", `kubectl get secret db -o "$F"`, k},
		{"a computed option", `kubectl get secret db $OPTS`, k},
		{"a computed resource with data", `kubectl get "$R" -o yaml`, k},
		{"set env --resolve", `kubectl set env deploy/web --list --resolve`, k},
		{"set env --list", `kubectl set env deploy/web --list`, outcome{}},
		{"verbose logging of a Secret", `kubectl get secret db -v=9`, k},
		{"verbose logging in two words", `kubectl get -v 8 secrets`, k},
		{"low verbosity", `kubectl get secret db -v=4`, outcome{}},
		{"a namespace named secrets", `kubectl get -n secrets pods -o yaml`, outcome{}},
		{"a namespace named secrets, attached", `kubectl get -nsecrets pods -o yaml`, outcome{}},
		{"a namespace named secrets in a bundle", `kubectl get -An secrets pods -o yaml`, outcome{}},
		{"a namespace named secrets, long", `kubectl --namespace secrets get pods -ojson`, outcome{}},
		{"a pod named secrets", `kubectl get pod secrets -o yaml`, outcome{}},
		{"TYPE/NAME after a pod", `kubectl get pod/a secret/b -o yaml`, k},
		{"kustomize build", `kustomize build overlays/prod`, r},
		{"kubectl kustomize", `kubectl kustomize overlays/prod`, r},
		{"helm template", `helm template web ./chart`, r},
		{"helm get values", `helm get values web`, r},
		{"helm install --dry-run", `helm install web ./chart --dry-run`, r},
		{"helm install", `helm install web ./chart`, outcome{}},
		{"helm list", `helm list -A`, outcome{}},
		{"kustomize edit", `kustomize edit set image web=web:2`, outcome{}},
	})
}
