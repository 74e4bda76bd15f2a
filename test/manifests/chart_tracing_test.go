package manifests

import (
	"strings"
	"testing"
)

// Issue 18: "The webhook and the gateway emit an OpenTelemetry span per decision (OTLP exporter,
// off unless configured)", configured by the standard OTEL_* environment variables. The chart
// lets the manager's be set (manager.envOverrides) but gives the gateway no way to take an
// environment variable: its schema refuses gateway.env and gateway.envOverrides alike, so a Helm
// install can never turn the gateway's traces on (short of a post-renderer).
func TestChartGatewayTracingCanBeConfigured(t *testing.T) {
	const endpoint = "http://otel-collector.observability:4317"
	var refusals []string
	for _, set := range [][]string{
		{"--set", "gateway.envOverrides.OTEL_EXPORTER_OTLP_ENDPOINT=" + endpoint},
		{"--set", "gateway.env[0].name=OTEL_EXPORTER_OTLP_ENDPOINT", "--set", "gateway.env[0].value=" + endpoint},
		{"--set", "gateway.extraEnv[0].name=OTEL_EXPORTER_OTLP_ENDPOINT", "--set", "gateway.extraEnv[0].value=" + endpoint},
	} {
		args := append([]string{"--set", "gateway.enabled=true"}, set...)
		out, err := helmTemplate(t, "toolgate", operatorNamespace, args...)
		if err != nil {
			refusals = append(refusals, strings.TrimSpace(out))
			continue
		}
		for _, o := range renderChart(t, args...) {
			if o.GetKind() == "Deployment" && strings.HasSuffix(o.GetName(), "gateway") {
				data, _ := o.MarshalJSON()
				if strings.Contains(string(data), endpoint) {
					return
				}
			}
		}
	}
	t.Errorf("no chart value sets the gateway's OTEL_EXPORTER_OTLP_ENDPOINT, "+
		"so its decision spans cannot be turned on:\n%s",
		strings.Join(refusals, "\n"))
}
