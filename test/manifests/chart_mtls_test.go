package manifests

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Issue 18 asks for chart values for mutual TLS. The chart has none: mutual TLS is the
// --webhook-client-ca argument in manager.args plus a volume of the Secret
// toolgate-webhook-client-ca in manager.extraVolumes, which the chart does not create. Turning it
// off on a managed control plane as values.yaml says ("replace this with --webhook-any-client")
// leaves the volume in place: the pod mounts a Secret that does not exist, is never started
// (FailedMount), and every AgentToolCall is refused while the webhook fails closed. A chart whose
// manager runs without a client CA must not mount the client CA's Secret (or must mount it
// optional).
//
// The same holds with webhook.enabled=false (controllers only, --disable-webhooks): no webhook
// serves, yet the pod waits for the client CA Secret.
func TestChartWithoutMutualTLSDoesNotWaitForTheClientCASecret(t *testing.T) {
	for _, tc := range []struct{ name, set, arg string }{
		{"--webhook-any-client",
			"manager.args={--leader-elect,--ledger-dir=/var/lib/toolgate/ledger,--cert-rotation=true,--webhook-any-client}",
			"--webhook-any-client"},
		{"webhook.enabled=false", "webhook.enabled=false", "--disable-webhooks"},
	} {
		t.Run(tc.name, func(t *testing.T) { checkNoClientCAMount(t, tc.set, tc.arg) })
	}
}

func checkNoClientCAMount(t *testing.T, set, arg string) {
	objs := renderChart(t, "--set", set)
	deploy, container := newReferences(t, objs, operatorNamespace).manager(t)
	args, _, _ := unstructured.NestedStringSlice(container, "args")
	if !slices.Contains(args, arg) {
		t.Fatalf("fixture: args %v", args)
	}
	made := map[string]bool{}
	for _, o := range objs {
		if o.GetKind() == "Secret" {
			made[o.GetName()] = true
		}
	}
	volumes, _, _ := unstructured.NestedSlice(deploy.Object, "spec", "template", "spec", "volumes")
	for _, v := range volumes {
		v := v.(map[string]any)
		secret, ok := v["secret"].(map[string]any)
		if !ok {
			continue
		}
		name, _ := secret["secretName"].(string)
		optional, _ := secret["optional"].(bool)
		if name == "toolgate-webhook-client-ca" && !made[name] && !optional {
			t.Errorf("with %s the manager still mounts Secret %s (volume %v), which nothing creates and it does not need: "+
				"the pod never starts", arg, name, v["name"])
		}
	}
}
