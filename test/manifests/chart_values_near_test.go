package manifests

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The near misses of the chart's mutual TLS, rollout, environment and digest values: what each
// value renders next to the case the audit's tests check, and what the chart refuses.

// managerMounts is what the manager's pod mounts: volume name -> Secret (or "claim:<name>").
func managerMounts(t *testing.T, args ...string) (flags []string, volumes map[string]string, mounts []string) {
	t.Helper()
	deploy, container := newReferences(t, renderChart(t, args...), operatorNamespace).manager(t)
	flags, _, _ = unstructured.NestedStringSlice(container, "args")
	vs, _, _ := unstructured.NestedSlice(deploy.Object, "spec", "template", "spec", "volumes")
	volumes = map[string]string{}
	for _, v := range vs {
		v := v.(map[string]any)
		name, _ := v["name"].(string)
		if s, ok := v["secret"].(map[string]any); ok {
			volumes[name], _ = s["secretName"].(string)
		} else {
			volumes[name] = "other"
		}
	}
	ms, _, _ := unstructured.NestedSlice(container, "volumeMounts")
	for _, m := range ms {
		mounts = append(mounts, m.(map[string]any)["name"].(string))
	}
	return flags, volumes, mounts
}

// refused checks that --set set is refused, naming want.
func refused(t *testing.T, set, want string) {
	t.Helper()
	out, err := helmTemplate(t, "toolgate", operatorNamespace, "--set", set)
	if err == nil || !strings.Contains(out, want) {
		t.Errorf("--set %s: %v, want a refusal naming %q: %.400s", set, err, want, out)
	}
}

func clientAuthFlags(flags []string) []string {
	var out []string
	for _, f := range flags {
		if strings.HasPrefix(f, "--webhook-client-") || strings.HasPrefix(f, "--webhook-any-client") {
			out = append(out, f)
		}
	}
	return out
}

func TestChartMutualTLSValue(t *testing.T) {
	const caFlag = "--webhook-client-ca=/tmp/k8s-webhook-server/client-ca/ca.crt"
	for _, tc := range []struct {
		name      string
		set       []string
		flags     []string
		caSecret  string // the Secret the client-ca volume mounts; "" none
		anyClient bool
	}{
		{name: "default: mutual TLS with the Secret it names", flags: []string{caFlag},
			caSecret: "toolgate-webhook-client-ca"},
		{name: "another Secret", set: []string{"webhook.mutualTLS.clientCASecretName=apiserver-ca"},
			flags: []string{caFlag}, caSecret: "apiserver-ca"},
		{name: "pinned names", set: []string{"webhook.mutualTLS.clientNames={kube-apiserver,apiserver.example.com}"},
			flags:    []string{caFlag, "--webhook-client-name=kube-apiserver,apiserver.example.com"},
			caSecret: "toolgate-webhook-client-ca"},
		{name: "off: any client, no Secret", set: []string{"webhook.mutualTLS.enabled=false"},
			flags: []string{"--webhook-any-client"}},
		{name: "webhook off: neither, whatever mutualTLS says", set: []string{"webhook.enabled=false"}},
		{name: "an explicit --webhook-client-ca in manager.args decides, with its own volume",
			set:   []string{"manager.args={--leader-elect,--webhook-client-ca=/ca/ca.crt}"},
			flags: []string{"--webhook-client-ca=/ca/ca.crt"}},
		{name: "an explicit --webhook-any-client in manager.args wins over mutualTLS.enabled",
			set:   []string{"manager.args={--leader-elect,--webhook-any-client}", "webhook.mutualTLS.enabled=false"},
			flags: []string{"--webhook-any-client"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			flags, volumes, mounts := managerMounts(t, setFlags(tc.set)...)
			if d := cmp.Diff(tc.flags, clientAuthFlags(flags)); d != "" {
				t.Errorf("client authentication flags (-want +got):\n%s", d)
			}
			if volumes["webhook-client-ca"] != tc.caSecret {
				t.Errorf("client CA volume mounts Secret %q, want %q (volumes %v)",
					volumes["webhook-client-ca"], tc.caSecret, volumes)
			}
			if mounted := slices.Contains(mounts, "webhook-client-ca"); mounted != (tc.caSecret != "") {
				t.Errorf("client CA mounted: %v, want %v (mounts %v)", mounted, tc.caSecret != "", mounts)
			}
		})
	}
	for _, tc := range []struct{ set, want string }{
		{"webhook.mutualTLS.enabled=maybe", "/webhook/mutualTLS/enabled"},
		{"webhook.mutualTLS.clientCASecretName=", "/webhook/mutualTLS/clientCASecretName"},
		{"webhook.mutualTLS.clientNames={a\\,b}", "/webhook/mutualTLS/clientNames"},
		{"webhook.mutualTLS.clientCA=x", "additional properties 'clientCA'"},
	} {
		refused(t, tc.set, tc.want)
	}
}

func TestChartRolloutStrategyFollowsTheLedgerClaim(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  []string
		want map[string]any // the Deployment's spec.strategy; nil: none rendered (RollingUpdate)
	}{
		{"ReadWriteOnce, one replica: a surge pod on another node cannot attach", nil,
			map[string]any{"type": "Recreate"}},
		{"ReadWriteOncePod", []string{"ledger.accessMode=ReadWriteOncePod"}, map[string]any{"type": "Recreate"}},
		{"ReadWriteOncePod, existing claim", []string{"ledger.accessMode=ReadWriteOncePod", "ledger.existingClaim=mine"},
			map[string]any{"type": "Recreate"}},
		{"ReadWriteMany: every pod mounts it", []string{"ledger.accessMode=ReadWriteMany"}, nil},
		{"several replicas on ReadWriteMany", []string{"ledger.accessMode=ReadWriteMany", "manager.replicas=2"}, nil},
		{"an explicit strategy is kept", []string{"manager.strategy.type=RollingUpdate"},
			map[string]any{"type": "RollingUpdate"}},
		{"ReadWriteOncePod with a rolling update that surges none",
			[]string{"ledger.accessMode=ReadWriteOncePod", "manager.strategy.type=RollingUpdate",
				"manager.strategy.rollingUpdate.maxSurge=0", "manager.strategy.rollingUpdate.maxUnavailable=1"},
			map[string]any{"type": "RollingUpdate",
				"rollingUpdate": map[string]any{"maxSurge": float64(0), "maxUnavailable": float64(1)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			deploy, _ := newReferences(t, renderChart(t, setFlags(tc.set)...), operatorNamespace).manager(t)
			got, _, _ := unstructured.NestedMap(deploy.Object, "spec", "strategy")
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("spec.strategy (-want +got):\n%s", d)
			}
		})
	}
	for _, set := range [][]string{
		{"ledger.accessMode=ReadWriteOncePod", "manager.strategy.type=RollingUpdate"},
		{"ledger.accessMode=ReadWriteOncePod", "manager.strategy.rollingUpdate.maxSurge=1"},
	} {
		out, err := helmTemplate(t, "toolgate", operatorNamespace, setFlags(set)...)
		if err == nil || !strings.Contains(out, "ReadWriteOncePod") || !strings.Contains(out, "Recreate") {
			t.Errorf("%v rendered a rollout that can never finish (%v): %.400s", set, err, out)
		}
	}
	refused(t, "manager.strategy.type=BlueGreen", "/manager/strategy/type")
}

// containerEnv is the env of the container named container in the Deployment whose name ends in
// suffix.
func containerEnv(t *testing.T, suffix, container string, args ...string) []any {
	t.Helper()
	for _, o := range renderChart(t, args...) {
		if o.GetKind() != "Deployment" || !strings.HasSuffix(o.GetName(), suffix) {
			continue
		}
		cs, _, _ := unstructured.NestedSlice(o.Object, "spec", "template", "spec", "containers")
		for _, c := range cs {
			if c := c.(map[string]any); c["name"] == container {
				env, _ := c["env"].([]any)
				return env
			}
		}
	}
	t.Fatalf("no container %s in a Deployment *%s", container, suffix)
	return nil
}

func TestChartEnvValues(t *testing.T) {
	memoryLimit := map[string]any{"name": "TOOLGATE_MEMORY_LIMIT", "valueFrom": map[string]any{
		"resourceFieldRef": map[string]any{"containerName": "gateway", "resource": "limits.memory"}}}
	endpoint := func(v string) map[string]any {
		return map[string]any{"name": "OTEL_EXPORTER_OTLP_ENDPOINT", "value": v}
	}
	gw := []string{"gateway.enabled=true"}
	for _, tc := range []struct {
		name string
		set  []string
		want []any
	}{
		{"default", gw, []any{memoryLimit}},
		{"env adds", append(gw, "gateway.env[0].name=OTEL_EXPORTER_OTLP_ENDPOINT", "gateway.env[0].value=http://c:4317"),
			[]any{memoryLimit, endpoint("http://c:4317")}},
		{"an override replaces env's entry of its name, once", append(gw,
			"gateway.env[0].name=OTEL_EXPORTER_OTLP_ENDPOINT", "gateway.env[0].value=http://c:4317",
			"gateway.envOverrides.OTEL_EXPORTER_OTLP_ENDPOINT=http://d:4317"),
			[]any{memoryLimit, endpoint("http://d:4317")}},
		{"env replaces the chart's own entry of its name", append(gw,
			"gateway.env[0].name=TOOLGATE_MEMORY_LIMIT", "gateway.env[0].value=100MiB"),
			[]any{map[string]any{"name": "TOOLGATE_MEMORY_LIMIT", "value": "100MiB"}}},
		{"a number is a string", append(gw, "gateway.envOverrides.OTEL_BSP_MAX_QUEUE_SIZE=512"),
			[]any{memoryLimit, map[string]any{"name": "OTEL_BSP_MAX_QUEUE_SIZE", "value": "512"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, containerEnv(t, "gateway", "gateway", setFlags(tc.set)...)); d != "" {
				t.Errorf("gateway env (-want +got):\n%s", d)
			}
		})
	}
	// The manager's envOverrides, which said "this value takes precedence", rendered a second
	// entry of the name: each name once.
	env := containerEnv(t, "controller-manager", "manager", "--set", "manager.envOverrides.POD_NAME=fixed")
	names := map[string]int{}
	for _, e := range env {
		names[e.(map[string]any)["name"].(string)]++
	}
	if names["POD_NAME"] != 1 || names["POD_IP"] != 1 || !slices.ContainsFunc(env, func(e any) bool {
		return cmp.Equal(e, map[string]any{"name": "POD_NAME", "value": "fixed"})
	}) {
		t.Errorf("manager env with envOverrides.POD_NAME: %v", env)
	}
	for _, tc := range []struct{ set, want string }{
		{"gateway.env[0].value=x", "/gateway/env/0"},
		{"gateway.env[0].name=A,gateway.env[0].valueform.x=y", "/gateway/env/0"},
		{"gateway.envOverrides.A.b=c", "/gateway/envOverrides/A"},
	} {
		refused(t, tc.set, tc.want)
	}
}

func TestChartImageReferences(t *testing.T) {
	const digest = "sha256:4bf92f3577b34da6a3ce929d0e0e47364bf92f3577b34da6a3ce929d0e0e4736"
	images := func(t *testing.T, set ...string) map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, o := range renderChart(t, setFlags(append([]string{"gateway.enabled=true"}, set...))...) {
			if o.GetKind() != "Deployment" {
				continue
			}
			cs, _, _ := unstructured.NestedSlice(o.Object, "spec", "template", "spec", "containers")
			out[o.GetName()], _ = cs[0].(map[string]any)["image"].(string)
		}
		return out
	}
	for _, tc := range []struct {
		name             string
		set              []string
		manager, gateway string
	}{
		{"tags: the chart's appVersion", nil, "controller:0.1.0", "gateway:0.1.0"},
		{"digest alone", []string{"manager.image.digest=" + digest, "gateway.image.repository=r.example.com/gw",
			"gateway.image.digest=" + digest}, "controller@" + digest, "r.example.com/gw@" + digest},
		{"tag and digest", []string{"manager.image.tag=v1.2.3", "manager.image.digest=" + digest},
			"controller:v1.2.3@" + digest, "gateway:0.1.0"},
		{"a repository that pins a digest itself", []string{"manager.image.repository=r.example.com/m@" + digest},
			"r.example.com/m@" + digest, "gateway:0.1.0"},
		// values.yaml's commented tag: "" and digest: "", uncommented, are the defaults.
		{"empty tag and digest", []string{"manager.image.tag=", "manager.image.digest=", "gateway.image.digest="},
			"controller:0.1.0", "gateway:0.1.0"},
		{"a registry's port, nested paths, tags as OCI spells them", []string{
			"manager.image.repository=localhost:5000/tool-gate/sub__dir/manager", "manager.image.tag=v1.2.3-rc.1_b7",
			"gateway.image.repository=r.example.com/gw", "gateway.image.tag=_x"},
			"localhost:5000/tool-gate/sub__dir/manager:v1.2.3-rc.1_b7", "r.example.com/gw:_x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := map[string]string{"toolgate-controller-manager": tc.manager, "toolgate-gateway": tc.gateway}
			if d := cmp.Diff(want, images(t, tc.set...)); d != "" {
				t.Errorf("images (-want +got):\n%s", d)
			}
		})
	}
	for _, tc := range []struct{ set, want string }{
		{"manager.image.digest=sha256:" + strings.Repeat("A", 64), "/manager/image/digest"},
		{"gateway.image.digest=sha256:" + strings.Repeat("a", 63), "/gateway/image/digest"},
		{"manager.image.digest=sha512:" + strings.Repeat("a", 64), "/manager/image/digest"},
		{"manager.image.digest=" + strings.Repeat("a", 64), "/manager/image/digest"},
		// Tags: OCI's [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}; a digest goes in image.digest.
		{"manager.image.tag=v1 2", "/manager/image/tag"},
		{"manager.image.tag=-v1", "/manager/image/tag"},
		{"manager.image.tag=.v1", "/manager/image/tag"},
		{"manager.image.tag=v1:latest", "/manager/image/tag"},
		{"manager.image.tag=v1@" + digest, "/manager/image/tag"},
		{"manager.image.tag=" + strings.Repeat("v", 129), "/manager/image/tag"},
		{"manager.image.tag=-1", "/manager/image/tag"},
		{"gateway.image.tag=latest!", "/gateway/image/tag"},
		// Repositories: lower-case paths, a tag in the tag.
		{"manager.image.repository=Controller", "/manager/image/repository"},
		{"manager.image.repository=r.example.com/m:v1", "/manager/image/repository"},
		{"manager.image.repository=r.example.com/m/", "/manager/image/repository"},
		{"manager.image.repository=https://r.example.com/m", "/manager/image/repository"},
		{"gateway.image.repository=gate way", "/gateway/image/repository"},
	} {
		refused(t, tc.set, tc.want)
	}
	out, err := helmTemplate(t, "toolgate", operatorNamespace, "--set", "manager.image.repository=r.example.com/m@"+digest,
		"--set", "manager.image.digest="+digest)
	if err == nil || !strings.Contains(out, "image.digest") {
		t.Errorf("a digest in both the repository and image.digest: %v: %.400s", err, out)
	}
}

// Without a cluster to read (helm template, Argo CD's rendering, --dry-run=client) the signing
// key Secret renders with no data at all: never an empty map or placeholder that applying could
// write over the operator's key (TestChartForcedUpgradeKeepsTheSigningKey: with a cluster, the
// live data).
func TestChartSigningKeyRendersNoDataWithoutACluster(t *testing.T) {
	for _, o := range renderChart(t) {
		if o.GetKind() == "Secret" && o.GetName() == "toolgate-ledger-signing-key" {
			if _, found := o.Object["data"]; found {
				t.Errorf("helm template rendered the signing key Secret with data: %v", o.Object["data"])
			}
			if _, found := o.Object["stringData"]; found {
				t.Errorf("helm template rendered the signing key Secret with stringData: %v", o.Object["stringData"])
			}
			return
		}
	}
	t.Error("no signing key Secret rendered")
}
