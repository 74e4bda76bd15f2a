package main

import (
	"context"
	"fmt"
	"math"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/toolgate/toolgate/internal/testenv"
)

// The gateway's own view of its calls (metrics.GatewayCallSeconds): each forwarded tools/call's
// time in the gateway, less its waits on the API server and the upstream. Under load on shared
// cores the end-to-end difference gateway − direct − create also holds the other processes'
// queueing behind the gateway's CPU; this is the share spent in the gateway itself, queueing for
// its own CPU included.
const gatewayCallSeconds = "toolgate_gateway_call_seconds"

// ownParts are the parts printed, in order.
var ownParts = []string{"own", "api_server", "upstream", "total"}

// gatewayMetrics reads the gateway's metrics: its process's endpoint, or this process's registry.
type gatewayMetrics func(ctx context.Context) (map[string]*dto.MetricFamily, error)

// ownSnapshot is the forwarded calls' histograms by part at one moment.
type ownSnapshot map[string]*dto.Histogram

func (e *env) ownSnapshot(ctx context.Context) (ownSnapshot, error) {
	families, err := e.gatewayMetrics(ctx)
	if err != nil {
		return nil, err
	}
	s := ownSnapshot{}
	for _, part := range ownParts {
		s[part] = testenv.Histogram(families, gatewayCallSeconds, map[string]string{"outcome": "forwarded", "part": part})
	}
	return s, nil
}

// timedOwn runs measure between two snapshots of the gateway's histograms and prints, with prefix,
// the quantiles of what was observed meanwhile.
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
	for _, part := range ownParts {
		b, a := before[part], after[part]
		if a == nil {
			return fmt.Errorf("the gateway observed no forwarded call's %s time", part)
		}
		n := a.GetSampleCount() - b.GetSampleCount()
		fmt.Printf("| %sin the gateway, %s: p50 / p99 of %d calls | %s | %s | |\n", prefix, part, n,
			quantile(b, a, 0.50), quantile(b, a, 0.99))
	}
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
