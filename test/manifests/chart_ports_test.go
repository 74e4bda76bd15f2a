package manifests

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Two of the manager's listeners on one port render a pod whose second server cannot bind, so it
// never starts and the webhook, failing closed, refuses every AgentToolCall create: the chart
// refuses the values instead, naming both and the port. A listener that is off (metrics, the
// webhook and with it the peer listener) takes no port.
func TestChartRefusesPortCollisions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--set", "manager.healthProbe.port=9443"},
			[]string{"manager.healthProbe.port and webhook.port are both 9443"}},
		{[]string{"--set", "metrics.port=8081"}, []string{"manager.healthProbe.port and metrics.port are both 8081"}},
		{[]string{"--set", "webhook.port=8443"}, []string{"metrics.port and webhook.port are both 8443"}},
		{[]string{"--set", "metrics.port=9444"}, []string{"metrics.port and manager.peerPort are both 9444"}},
		{[]string{"--set", "manager.healthProbe.port=9444"},
			[]string{"manager.healthProbe.port and manager.peerPort are both 9444"}},
	} {
		out, err := helmTemplate(t, "toolgate", operatorNamespace, tc.args...)
		if err == nil {
			t.Errorf("%q rendered", tc.args)
			continue
		}
		for _, w := range append(tc.want, "so the pod would never start") {
			if !strings.Contains(out, w) {
				t.Errorf("%q: the error does not say %q: %.600s", tc.args, w, out)
			}
		}
	}
	for _, args := range [][]string{
		{"--set", "metrics.enabled=false", "--set", "metrics.port=9443"},
		{"--set", "webhook.enabled=false", "--set", "webhook.port=8081"},
		// Without the webhooks there is no peer listener either.
		{"--set", "webhook.enabled=false", "--set", "metrics.port=9444"},
		{"--set", "manager.healthProbe.port=9090", "--set", "metrics.port=9091", "--set", "webhook.port=9092"},
	} {
		if out, err := helmTemplate(t, "toolgate", operatorNamespace, args...); err != nil {
			t.Errorf("%q: %v: %.600s", args, err, out)
		}
	}
}

// The peer listener's port is one value, manager.peerPort: the manager's --peer-port, its
// containerPort and the NetworkPolicy that admits the replicas to it. With the port in
// manager.args, the policy and the containerPort stayed at 9444 and the replicas' forwarding was
// dropped. -1 (or no listener: no webhooks, no leader election) renders neither port nor policy.
func TestChartPeerPortIsOnePort(t *testing.T) {
	peer := func(args ...string) []string {
		var got []string
		for _, o := range renderChart(t, args...) {
			switch {
			case o.GetName() == "toolgate-peers-from-replicas":
				rules, _, _ := unstructured.NestedSlice(o.Object, "spec", "ingress")
				for _, r := range rules {
					ps, _, _ := unstructured.NestedSlice(r.(map[string]any), "ports")
					for _, p := range ps {
						got = append(got, fmt.Sprintf("policy %v", p.(map[string]any)["port"]))
					}
				}
			case o.GetKind() == "Deployment" && o.GetName() == "toolgate-controller-manager":
				cs, _, _ := unstructured.NestedSlice(o.Object, "spec", "template", "spec", "containers")
				c := cs[0].(map[string]any)
				for _, a := range c["args"].([]any) {
					if strings.HasPrefix(a.(string), "--peer-port") {
						got = append(got, a.(string))
					}
				}
				ps, _, _ := unstructured.NestedSlice(c, "ports")
				for _, p := range ps {
					if p.(map[string]any)["name"] == "peers" {
						got = append(got, fmt.Sprintf("container %v", p.(map[string]any)["containerPort"]))
					}
				}
			}
		}
		return sorted(got)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"--peer-port=9444", "container 9444", "policy 9444"}},
		{[]string{"--set", "manager.peerPort=9555"}, []string{"--peer-port=9555", "container 9555", "policy 9555"}},
		{[]string{"--set", "manager.peerPort=-1"}, []string{"--peer-port=-1"}},
		{[]string{"--set", "webhook.enabled=false"}, []string{"--peer-port=9444"}},
		{[]string{"--set-json", `manager.args=["--leader-elect=false"]`}, []string{"--peer-port=9444"}},
	} {
		if got := peer(tc.args...); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.args, got, tc.want)
		}
	}
	out, err := helmTemplate(t, "toolgate", operatorNamespace, "--set", "manager.peerPort=0")
	if err == nil || !strings.Contains(out, "/manager/peerPort") {
		t.Errorf("manager.peerPort=0 rendered (err %v): %.300s", err, out)
	}
	out, err = helmTemplate(t, "toolgate", operatorNamespace, "--set", "manager.peerPort=8081")
	if err == nil || !strings.Contains(out, "manager.healthProbe.port and manager.peerPort are both 8081") {
		t.Errorf("manager.peerPort=8081 rendered (err %v): %.300s", err, out)
	}
}
