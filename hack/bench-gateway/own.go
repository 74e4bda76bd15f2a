package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/toolgate/toolgate/internal/testenv"
)

// The gateway's own view of its calls (metrics.GatewayOwnSeconds, and the waits it leaves out,
// metrics.GatewayCallSeconds): each forwarded tools/call's time in the gateway, less its waits on
// the agent, the API server, the report, the upstream and the plan's metered turn. Under load on
// shared cores the end-to-end difference gateway − direct − create also holds the other
// processes' queueing behind the gateway's CPU; this is the share spent in the gateway itself,
// queueing for its own CPU included.
const (
	gatewayOwnSeconds  = "toolgate_gateway_call_own_seconds"
	gatewayCallSeconds = "toolgate_gateway_call_seconds"
)

// waitParts are the parts of gatewayCallSeconds that are waits, of which the mean is printed.
var waitParts = []string{"api_server", "upstream", "agent", "report", "turn"}

// gatewayMetrics reads the gateway's metrics: its process's endpoint, or this process's registry.
type gatewayMetrics func(ctx context.Context) (map[string]*dto.MetricFamily, error)

// ownSnapshot is the forwarded calls' histograms at one moment: "own", and the waits by part.
type ownSnapshot map[string]*dto.Histogram

func (e *env) ownSnapshot(ctx context.Context) (ownSnapshot, error) {
	families, err := e.gatewayMetrics(ctx)
	if err != nil {
		return nil, err
	}
	s := ownSnapshot{"own": testenv.Histogram(families, gatewayOwnSeconds, map[string]string{"outcome": "forwarded"})}
	for _, part := range waitParts {
		s[part] = testenv.Histogram(families, gatewayCallSeconds, map[string]string{"outcome": "forwarded", "part": part})
	}
	return s, nil
}

// timedOwn runs measure between two snapshots of the gateway's histograms and prints, with prefix,
// the quantiles of its own time observed meanwhile, and the mean of each wait.
func (e *env) timedOwn(ctx context.Context, prefix string, measure func() error) error {
	before, err := e.ownSnapshot(ctx)
	if err != nil {
		return err
	}
	if err := measure(); err != nil {
		return err
	}
	after, err := e.ownSnapshot(ctx)
	if err != nil {
		return err
	}
	b, a := before["own"], after["own"]
	if a == nil {
		return errors.New("the gateway observed no forwarded call")
	}
	n := a.GetSampleCount() - b.GetSampleCount()
	fmt.Printf("| %sin the gateway, own: p50 / p99 of %d calls | %s | %s | |\n", prefix, n,
		quantile(b, a, 0.50), quantile(b, a, 0.99))
	means := make([]string, 0, len(waitParts))
	for _, part := range waitParts {
		sum := after[part].GetSampleSum() - before[part].GetSampleSum()
		means = append(means, fmt.Sprintf("%s %s", part, ms(time.Duration(sum/float64(max(1, n))*float64(time.Second)))))
	}
	fmt.Printf("| %sin the gateway, mean waits: %s | | | |\n", prefix, strings.Join(means, ", "))
	return nil
}

// quantile estimates the q-quantile of what a histogram observed between before (nil: nothing)
// and after, interpolating linearly within the bucket it falls in, as histogram_quantile does.
func quantile(before, after *dto.Histogram, q float64) string {
	prior := map[float64]uint64{}
	for _, b := range before.GetBucket() {
		prior[b.GetUpperBound()] = b.GetCumulativeCount()
	}
	total := after.GetSampleCount() - before.GetSampleCount()
	if total == 0 {
		return "—"
	}
	rank := q * float64(total)
	lower, below := 0.0, uint64(0)
	for _, b := range after.GetBucket() {
		upper, count := b.GetUpperBound(), b.GetCumulativeCount()-prior[b.GetUpperBound()]
		if float64(count) >= rank {
			at := lower + (upper-lower)*(rank-float64(below))/float64(max(1, count-below))
			return ms(time.Duration(at * float64(time.Second)))
		}
		lower, below = upper, count
	}
	if math.IsInf(lower, 1) {
		return "—"
	}
	return "> " + ms(time.Duration(lower*float64(time.Second)))
}
