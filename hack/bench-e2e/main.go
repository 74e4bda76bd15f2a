// Command bench-e2e measures admission end to end (`make bench-e2e`): the real manager binary as
// its own ServiceAccount, a real kube-apiserver and etcd with mutual TLS to the webhooks, agents
// with real tokens. It compares three modes on one API server — the same AgentToolCall CRD with no
// webhook ("none"), behind a webhook that allows everything ("null"), and behind toolgate —
// interleaved and rotated per round, at 1 and 8 clients, then toolgate alone as a plan's history
// and a namespace's plans grow. It prints p50/p90/p99, throughput, API writes per call, the
// manager's resident memory and the time until usage has settled.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/testenv"
)

const (
	benchNS     = "bench"
	benchTool   = "bench-read"
	openProfile = "bench-open"
)

func main() {
	// 6: a multiple of the three modes and of the growth comparisons' three and two cases, so
	// that each goes first in a round equally often.
	rounds := flag.Int("rounds", 6, "rounds; each runs every mode once, in a rotated order")
	perRun := flag.Int("calls", 400, "creates per mode, round and client count")
	growth := flag.Bool("growth", true, "also measure a plan with 1,000 and 5,000 calls, and 500 plans in the namespace")
	growthCalls := flag.Int("growth-calls", 1200, "creates per growth cell")
	var x extras
	flag.BoolVar(&x.modes, "modes", true,
		"compare the three modes at 1 and 8 clients (false: only what follows, and -cpuprofile profiles nothing)")
	flag.IntVar(&x.live, "live", 10000, "also measure the manager's memory with this many live calls (0: skip)")
	flag.BoolVar(&x.statusWrites, "status-writes", true, "also time one write of a plan's status per step-counter shape")
	flag.StringVar(&x.profile.file, "cpuprofile", "",
		"write a CPU profile of the manager, from the first measured round on, to this file")
	flag.IntVar(&x.profile.seconds, "profile-seconds", 20, "length of the manager's CPU profile")
	flag.StringVar(&x.apiProfiles, "apiserver-profiles", "",
		"a directory: each 8-client batch of 1,000 creates or more leaves a CPU profile of kube-apiserver there")
	flag.DurationVar(&x.nullDelay, "null-delay", 0,
		"the null webhook waits this long before each answer: how the API server's CPU per create "+
			"follows its webhook's latency")
	flag.Func("manager-arg",
		"an extra flag for the manager binary (repeatable), e.g. -manager-arg=--ledger-dir= to measure without the ledger",
		func(s string) error { x.profile.extra = append(x.profile.extra, s); return nil })
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logf.SetLogger(logr.Discard()) // the null webhook's certificate watcher logs; the tables are the output
	if err := run(ctx, *rounds, *perRun, *growth, *growthCalls, x); err != nil {
		fmt.Fprintln(os.Stderr, "bench-e2e:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, rounds, perRun int, growth bool, growthCalls int, x extras) error {
	dir, err := os.MkdirTemp("", "toolgate-bench-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	fmt.Println("starting the control plane and the manager binary")
	local, err := testenv.StartLocal(ctx, dir, nil)
	if err != nil {
		return err
	}
	defer func() { _ = local.Stop() }()
	manager := &managerMetrics{}
	if err := startManager(ctx, local, &x.profile, manager); err != nil {
		return err
	}
	scheme := runtime.NewScheme()
	adders := []func(*runtime.Scheme) error{
		clientgoscheme.AddToScheme, safetyv1alpha1.AddToScheme, apiextensionsv1.AddToScheme}
	for _, add := range adders {
		if err := add(scheme); err != nil {
			return err
		}
	}
	admin, err := client.New(local.Admin, client.Options{Scheme: scheme})
	if err != nil {
		return err
	}
	b := &bench{local: local, admin: admin, scheme: scheme, manager: manager, apiProfiles: x.apiProfiles,
		nullDelay: x.nullDelay}
	if err := b.setUp(ctx, dir); err != nil {
		return err
	}

	if x.modes {
		if err := b.comparison(ctx, rounds, perRun, &x.profile); err != nil {
			return err
		}
	}
	if growth {
		if err := b.growth(ctx, rounds, growthCalls); err != nil {
			return err
		}
	}
	return b.extras(ctx, rounds, x)
}

// compare runs rounds of perRun creates in every mode (rotated per round) from clients concurrent
// clients, prints the latency rows, and returns the CPU rows and, last, the timing row.
func (b *bench) compare(ctx context.Context, modes []string, p *benchPlan,
	rounds, perRun, clients int) ([]string, error) {
	pooled := map[string]*result{}
	for r := range rounds {
		for k := range modes {
			mode := modes[(k+r)%len(modes)]
			res, err := b.batch(ctx, mode, p, perRun, clients)
			if err != nil {
				return nil, fmt.Errorf("%s, %d clients: %w", mode, clients, err)
			}
			pooled[mode] = pooled[mode].merge(res)
		}
	}
	var cpuRows []string
	for _, mode := range modes {
		fmt.Println(pooled[mode].row(clients, modeName(mode)))
		cpuRows = append(cpuRows, pooled[mode].cpuRow(clients, modeName(mode)))
	}
	n, t := pooled[groupNull], pooled[groupToolgate]
	fmt.Printf("| %d | toolgate ÷ null | %.2f× | %.2f× | %.2f× | %.2f× | | |\n", clients,
		ratio(t.pct(50), n.pct(50)), ratio(t.pct(90), n.pct(90)), ratio(t.pct(99), n.pct(99)), t.throughput()/n.throughput())
	return append(cpuRows, timingRow(clients, n, t)), nil
}

// startManager starts the manager binary (with the profile's flags) and waits until it leads.
func startManager(ctx context.Context, local *testenv.Local, p *profiler, m *managerMetrics) error {
	args, err := p.managerArgs()
	if err != nil {
		return err
	}
	metricsArgs, err := m.args()
	if err != nil {
		return err
	}
	args = append(metricsArgs, args...) // -manager-arg comes last, so it may override them
	if err := local.StartManager(ctx, args...); err != nil {
		return err
	}
	return local.AwaitLeader(ctx, time.Minute)
}

// extras are the measurements after the comparison and the growth cases.
type extras struct {
	modes        bool // compare the three modes (off: growth and the rest only)
	live         int
	statusWrites bool
	profile      profiler
	apiProfiles  string
	nullDelay    time.Duration
}

func (b *bench) extras(ctx context.Context, rounds int, x extras) error {
	if x.statusWrites {
		if err := b.statusWrites(ctx, rounds, 100); err != nil {
			return err
		}
	}
	if x.live > 0 {
		return b.live(ctx, x.live)
	}
	return nil
}

func modeName(group string) string {
	switch group {
	case groupNone:
		return "none"
	case groupNull:
		return "null webhook"
	}
	return "toolgate"
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

// memory is a process's resident memory and its peak, as a table's cells.
func memory(pid int) string { return rss(pid) + " | " + statusKB(pid, "VmHWM") }

// rss reads a process's resident memory from /proc.
func rss(pid int) string { return statusKB(pid, "VmRSS") }

// statusKB reads one kB field of a process's /proc status, in MiB.
func statusKB(pid int, field string) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "unknown"
	}
	var kb int
	for _, line := range splitLines(string(data)) {
		if _, err := fmt.Sscanf(line, field+": %d kB", &kb); err == nil {
			return fmt.Sprintf("%.0f MiB", float64(kb)/1024)
		}
	}
	return "unknown"
}

// comparison measures the three modes at 1 and 8 clients, rotated per round, and prints their
// latency, CPU and timing tables.
func (b *bench) comparison(ctx context.Context, rounds, perRun int, profile *profiler) error {
	fmt.Printf("\n## Modes, interleaved and rotated over %d rounds (%d creates per mode, round and client count)\n\n",
		rounds, perRun)
	fmt.Println("| clients | mode | p50 | p90 | p99 | throughput | API writes per call | settle |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	main, err := b.plan(ctx, "main")
	if err != nil {
		return err
	}
	modes := []string{groupNone, groupNull, groupToolgate}
	// Warm up: the clients' discovery of each group and the webhooks' first connections are not
	// what is measured.
	for _, mode := range modes {
		if _, err := b.batch(ctx, mode, main, 20, 8); err != nil {
			return fmt.Errorf("warming up %s: %w", mode, err)
		}
	}
	idle, err := idleCPU(ctx, 5*time.Second)
	if err != nil {
		return err
	}
	profile.start(ctx)
	var cpuRows, timingRows []string
	for _, clients := range []int{1, 8} {
		rows, err := b.compare(ctx, modes, main, rounds, perRun, clients)
		if err != nil {
			return err
		}
		cpuRows = append(cpuRows, rows[:len(rows)-1]...)
		timingRows = append(timingRows, rows[len(rows)-1])
	}
	fmt.Printf("\nCPU per create, by process (toolgate's includes its counters' flush until settled)\n\n")
	fmt.Printf("| clients | mode | %s | all | API reads per create (the most read) |\n|---|---|%s---|---|\n",
		strings.Join(cpuProcesses, " | "), strings.Repeat("---|", len(cpuProcesses)))
	for _, row := range cpuRows {
		fmt.Println(row)
	}
	fmt.Println(timingHeader)
	for _, row := range timingRows {
		fmt.Println(row)
	}
	fmt.Printf("\nCPU while idle (no creates, before the rounds), per second: %s\n", idle)
	fmt.Printf("\nmanager RSS after the comparison: %s\n", rss(b.local.ManagerPID()))
	return profile.wait()
}
