package manifests

import (
	"strings"
	"testing"
)

// A flag the chart sets from a value (or from the release's names) given again in
// gateway.extraArgs or manager.args fails the render, naming the argument, the flag and the value
// it would override. The binaries parse flags with Go's flag package, where the last of two wins
// silently: gateway.extraArgs=[--audience=other] ran a gateway checking tokens for "other" while
// gateway.audience, which the chart's NOTES tell agents to request, still said toolgate-gateway;
// manager.args=[--health-probe-bind-address=:9000] left the probes on 8081 and the pod never
// ready. Both spellings Go's flag reads (-flag, --flag; =value or the next argument) are caught;
// other flags still pass.
func TestChartRefusesFlagsItSetsItself(t *testing.T) {
	gateway := []string{"--set", "gateway.enabled=true"}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{append(gateway, "--set-json", `gateway.extraArgs=["--audience=other"]`),
			[]string{"gateway.extraArgs", `"--audience=other"`, "gateway.audience", `"toolgate-gateway"`}},
		{append(gateway, "--set", "gateway.audience=mine", "--set-json", `gateway.extraArgs=["-audience","other"]`),
			[]string{"gateway.extraArgs", `"-audience"`, `gateway.audience ("mine")`}},
		{append(gateway, "--set-json", `gateway.extraArgs=["--listen=:9000"]`), []string{"--listen", ":8443"}},
		{append(gateway, "--set-json", `gateway.extraArgs=["--tls-key-file=/k"]`),
			[]string{"--tls-key-file", "gateway.tlsSecretName"}},
		{append(gateway, "--set-json", `gateway.extraArgs=["--metrics-bind-address=0"]`), []string{"--metrics-bind-address"}},
		{append(gateway, "--set-json", `gateway.extraArgs=["--health-probe-bind-address=:1"]`),
			[]string{"--health-probe-bind-address"}},
		{[]string{"--set-json", `manager.args=["--leader-elect","--health-probe-bind-address=:9000"]`},
			[]string{"manager.args", `"--health-probe-bind-address=:9000"`, "manager.healthProbe.port (8081)"}},
		{[]string{"--set-json", `manager.args=["--metrics-bind-address",":9090"]`},
			[]string{"--metrics-bind-address", `metrics.enabled and metrics.port (":8443")`}},
		{[]string{"--set-json", `manager.args=["--metrics-secure=false"]`}, []string{"metrics.secure (true)"}},
		{[]string{"--set-json", `manager.args=["-webhook-port=9000"]`}, []string{"--webhook-port", "webhook.port (9443)"}},
		{[]string{"--set-json", `manager.args=["--disable-webhooks"]`},
			[]string{"--disable-webhooks", "webhook.enabled (true)"}},
		{[]string{"--set", "webhook.enabled=false", "--set-json", `manager.args=["--webhook-port=9443"]`},
			[]string{"--webhook-port", "webhook.enabled (false)"}},
		{[]string{"--set-json", `manager.args=["--cert-secret-name=mine"]`}, []string{"toolgate-webhook-server-cert"}},
		{[]string{"--set-json", `manager.args=["--cert-secret-namespace=elsewhere"]`}, []string{"toolgate-system"}},
		{[]string{"--set-json", `manager.args=["--webhook-configuration-name=x"]`}, []string{"--webhook-configuration-name"}},
		{[]string{"--set-json", `manager.args=["--cert-dns-name=x"]`},
			[]string{"toolgate-webhook-service.toolgate-system.svc"}},
		{[]string{"--set-json", `manager.args=["--webhook-cert-path=/x"]`}, []string{"--webhook-cert-path"}},
		{[]string{"--set-json", `webhook.mutualTLS.clientNames=["kube-apiserver"]`,
			"--set-json", `manager.args=["--webhook-client-name=other"]`},
			[]string{"--webhook-client-name", `webhook.mutualTLS.clientNames ("kube-apiserver")`}},
		{[]string{"--set", "certManager.enabled=true", "--set-json", `manager.args=["--metrics-cert-path=/x"]`},
			[]string{"--metrics-cert-path", "certManager.enabled"}},
		// The NetworkPolicy and the containerPort follow manager.peerPort, the claim's mount the
		// chart's path: another --peer-port or --ledger-dir left them where they were.
		{[]string{"--set-json", `manager.args=["--leader-elect","--peer-port=9000"]`},
			[]string{`"--peer-port=9000"`, "manager.peerPort (9444"}},
		{[]string{"--set-json", `manager.args=["--leader-elect","-peer-port","9000"]`}, []string{"--peer-port"}},
		{[]string{"--set-json", `manager.args=["--leader-elect","--ledger-dir=/var/lib/toolgate/l"]`},
			[]string{`"--ledger-dir=/var/lib/toolgate/l"`, "/var/lib/toolgate/ledger, where it mounts"}},
		{[]string{"--set-json", `manager.args=["--ledger-dir="]`}, []string{"--ledger-dir"}},
		// Rendered through tpl, as the container's arguments are.
		{[]string{"--set-json", `manager.args=["--cert-secret-namespace={{ .Release.Namespace }}"]`},
			[]string{`"--cert-secret-namespace=toolgate-system"`}},
	} {
		out, err := helmTemplate(t, "toolgate", operatorNamespace, tc.args...)
		if err == nil {
			t.Errorf("%q rendered", tc.args)
			continue
		}
		for _, w := range append(tc.want, "of a flag given twice, the last silently wins") {
			if !strings.Contains(out, w) {
				t.Errorf("%q: the error does not say %q: %.600s", tc.args, w, out)
			}
		}
	}
	// Flags the chart does not set pass, and so do the legacy client-authentication flags, which
	// replace the chart's own (webhook.mutualTLS) rather than repeat them.
	for _, args := range [][]string{
		// --audience-file is not --audience: a flag is matched by its whole name.
		append(gateway, "--set-json", `gateway.extraArgs=["--namespace=team-a","--upstream-sessions","4","--audience-file"]`),
		{"--set-json", `manager.args=["--leader-elect","--pprof-bind-address=:6060"]`},
		// The chart's own ledger path, as the default arguments gave it before the chart did.
		{"--set-json", `manager.args=["--leader-elect","--ledger-dir=/var/lib/toolgate/ledger"]`},
		{"--set-json", `manager.args=["--leader-elect","--webhook-client-ca=/x/ca.crt","--webhook-client-name=a"]`},
		{"--set", "webhook.enabled=false", "--set-json", `manager.args=["--cert-secret-name=x","--webhook-client-name=a"]`},
		{"--set-json", `manager.args=["--webhook-client-name=a"]`}, // mutual TLS without clientNames: the chart gives none
	} {
		if out, err := helmTemplate(t, "toolgate", operatorNamespace, args...); err != nil {
			t.Errorf("%q: %v: %.600s", args, err, out)
		}
	}
	// -webhook-any-client (one dash, as Go's flag also reads it) replaces the chart's
	// --webhook-client-ca as --webhook-any-client does: the chart adds neither flag nor volume.
	out, err := helmTemplate(t, "toolgate", operatorNamespace, "--set-json", `manager.args=["-webhook-any-client"]`)
	if err != nil || strings.Contains(out, "--webhook-client-ca") || strings.Contains(out, "webhook-client-ca\n") {
		t.Errorf("manager.args=[-webhook-any-client]: %v; the chart still adds its client CA: %.300s", err, out)
	}
}
