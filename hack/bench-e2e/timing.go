package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Where a toolgate admission's time goes: kube-apiserver times each webhook call (TLS and the
// webhook's own time), and the manager times its handler (decode to answer) and each of the
// ledger's commits (the write and fdatasync that every answer waits for). The benchmark reads
// both around every batch, so a mode's means come from the same creates as its latencies.

// timer is a histogram's sum (seconds) and count over some interval.
type timer struct{ sum, count float64 }

func (t timer) add(o timer) timer { return timer{t.sum + o.sum, t.count + o.count} }
func (t timer) sub(o timer) timer { return timer{t.sum - o.sum, t.count - o.count} }

// mean is the mean in milliseconds, or "" when nothing was timed.
func (t timer) mean() string {
	if t.count <= 0 {
		return ""
	}
	return ms(time.Duration(t.sum / t.count * float64(time.Second)))
}

// histogramPart is a histogram's _sum or _count sample as a timer.
func histogramPart(name string, v float64) timer {
	if strings.HasSuffix(name, "_sum") {
		return timer{sum: v}
	}
	return timer{count: v}
}

// The timers of a batch.
const (
	timerWebhook  = "webhook"  // the mode's webhook call, as kube-apiserver timed it
	timerHandling = "handling" // toolgate's handler, decode to answer (the manager's histogram)
	timerCommit   = "commit"   // one ledger commit: write and fdatasync of a batch of records
	timerRecords  = "records"  // count: records made durable (over commit's count: per batch)
)

// managerSeries maps the manager's metrics onto the timers.
var managerSeries = map[string]string{
	"toolgate_admission_handling_seconds":     timerHandling,
	"toolgate_ledger_commit_seconds":          timerCommit,
	"toolgate_ledger_committed_records_total": timerRecords,
}

// managerMetrics reads the manager's metrics endpoint: plain HTTP on a loopback port of its own,
// which only the benchmark starts the manager with (the shipped manifests serve it over HTTPS
// behind authentication).
type managerMetrics struct{ addr string }

// args are the manager flags that serve its metrics on a free loopback port.
func (m *managerMetrics) args() ([]string, error) {
	addr, err := freeLoopbackAddr()
	m.addr = addr
	return []string{"--metrics-bind-address", m.addr, "--metrics-secure=false"}, err
}

// freeLoopbackAddr is a loopback address with a port free now, for a manager listener.
func freeLoopbackAddr() (string, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := lis.Addr().String()
	return addr, lis.Close()
}

// scrape reads the manager's timers now; nil when they cannot be read (the table then shows
// nothing for them, rather than failing the run).
func (m *managerMetrics) scrape(ctx context.Context) map[string]timer {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+m.addr+"/metrics", nil)
	if err != nil {
		return nil
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil
	}
	defer func() { _ = resp.Body.Close() }()
	out := map[string]timer{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		series, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(series, "#") {
			continue
		}
		v, _ := strconv.ParseFloat(value, 64)
		if name, ok := managerSeries[series]; ok { // a counter
			out[name] = out[name].add(timer{count: v})
			continue
		}
		base := strings.TrimSuffix(strings.TrimSuffix(series, "_sum"), "_count")
		if name, ok := managerSeries[base]; ok && base != series {
			out[name] = out[name].add(histogramPart(series, v))
		}
	}
	if sc.Err() != nil {
		return nil
	}
	return out
}

// since is what the manager timed after before (a scrape).
func (m *managerMetrics) since(ctx context.Context, before map[string]timer) map[string]timer {
	after := m.scrape(ctx)
	if after == nil || before == nil {
		return nil
	}
	out := map[string]timer{}
	for name, t := range after {
		out[name] = t.sub(before[name])
	}
	return out
}

// timingRow is one client count's breakdown: the null webhook's call and toolgate's, and what
// of toolgate's the manager timed.
func timingRow(clients int, null, toolgate *result) string {
	commits := toolgate.timers[timerCommit]
	perCommit := ""
	if commits.count > 0 {
		perCommit = fmt.Sprintf("%.2f", toolgate.timers[timerRecords].count/commits.count)
	}
	return fmt.Sprintf("| %d | %s | %s | %s | %s | %s |", clients, null.timers[timerWebhook].mean(),
		toolgate.timers[timerWebhook].mean(), toolgate.timers[timerHandling].mean(), commits.mean(), perCommit)
}

// timingHeader introduces the timing rows.
var timingHeader = "\nWhere the webhook's time goes (means over the same creates; " +
	"kube-apiserver times the webhook call,\n" +
	"the manager its handler and the ledger's commits, which every answer waits for)\n\n" +
	"| clients | null webhook call | toolgate webhook call | of it, toolgate's handler (decode to answer) | " +
	"one ledger commit (write + fdatasync) | records per commit |\n|---|---|---|---|---|---|"
