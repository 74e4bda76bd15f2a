package manifests

import (
	"strings"
	"testing"
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
		{[]string{"--set", "metrics.port=9444"}, []string{"metrics.port and the manager's peer listener", "both 9444"}},
		{[]string{"--set", "manager.healthProbe.port=9444"},
			[]string{"manager.healthProbe.port and the manager's peer listener", "both 9444"}},
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
