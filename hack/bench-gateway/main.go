// Command bench-gateway measures what toolgate-gateway adds to an MCP tools/call (`make
// bench-gateway`, results in docs/benchmarks.md). In one run, on one real kube-apiserver and etcd
// with toolgate's webhook (envtest, the operator in this process), it times, at 1 and 8 concurrent
// clients (at 1 client the modes take turns call by call; at 8 each mode runs in a batch of its
// own, the batches rotated per round):
//
//   - direct: tools/call straight to the upstream MCP server (the Go SDK's, over Streamable HTTP);
//   - gateway: the same call through the gateway, as an agent with a pod-bound token;
//   - create: the AgentToolCall create alone, with the same token, through the API server;
//   - relay: the call through a plain MCP relay (the Go SDK's server forwarding on a pool of client
//     sessions, as the gateway does, but with no gate): what proxying MCP itself costs.
//
// It also counts this process's CPU time per call in each mode (the clients, the upstream, the
// relay, the gateway and toolgate's webhook all run here; kube-apiserver and etcd do not): on a
// shared machine CPU time is steadier than latency, and gateway − relay − create is the gate's own.
//
// The gateway's own cost is gateway − direct − create; the target is at most 1 ms at p50. At 1
// client it is also printed call for call: the median of each gateway call's latency less that of
// the direct call and the create made next to it, which a busy moment cannot bias toward one mode.
// Last, 8 clients each take turns through the modes the same way, so every mode meets the same
// mixed load, and the same call-for-call median is printed for them: the gateway's own share at
// that load, without the extra CPU the gateway batch puts on the shared cores.
//
// With -deployed the operator (the manager binary) and the gateway (the toolgate-gateway binary)
// run as processes of their own instead, as e2e runs them; the CPU column is then the gateway
// process's own, and -gateway-cpu N gives it CPU N alone (deployed.go).
//
// The process runs its collector as the gateway binary does (GOGC gateway.DefaultGCPercent), so
// the direct calls, the relay and toolgate's webhook get it too; GOGC=100 in the environment
// measures the runtime's default instead.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/gateway"
	"github.com/toolgate/toolgate/internal/gctuning"
	"github.com/toolgate/toolgate/internal/metrics"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

const (
	ns           = "bench"
	agentSA      = "agent"
	tool         = "bench-read"
	audience     = "toolgate-gateway"
	modeDirect   = "direct"
	modeGateway  = "gateway"
	modeCreate   = "create"
	modeRelay    = "relay"
	upstreamTool = "read_file"
	pathArg      = "path"
	// perStep keeps each step's attempts under the profile's maxRetriesPerStep.
	perStep = 90
)

func main() {
	rounds := flag.Int("rounds", 3, "rounds; each runs every mode once, in a rotated order")
	perRun := flag.Int("calls", 200, "calls per mode, round and client count")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the measured calls to this file")
	mem := flag.String("memprofile", "", "write a profile of what the measured calls allocated to this file")
	large := flag.Int("large", 0, "measure instead this many concurrent calls answered with the largest message, "+
		"through a gateway with its budget for answers held at once and one without")
	deployed := flag.Bool("deployed", false, "run the operator (the manager binary) and the gateway (the "+
		"toolgate-gateway binary) as processes of their own, as they are deployed, instead of in this process; "+
		"the relay mode is left out")
	gatewayCPU := flag.Int("gateway-cpu", -1, "with -deployed: give the gateway this CPU alone, and every other "+
		"process of the benchmark the others (-1: all processes share all CPUs)")
	gatewayPprof := flag.String("gateway-pprof", "", "with -deployed: serve the gateway's net/http/pprof on this "+
		"loopback address (127.0.0.1:6061, say), to profile it while the benchmark runs")
	var gatewayEnv []string
	flag.Func("gateway-env", "with -deployed: KEY=value to add to the gateway's environment (GOGC=800, say); repeatable",
		func(kv string) error {
			if !strings.Contains(kv, "=") {
				return fmt.Errorf("%q: want KEY=value", kv)
			}
			gatewayEnv = append(gatewayEnv, kv)
			return nil
		})
	flag.Parse()
	logf.SetLogger(logr.Discard())
	cpuProfile, memProfile = *profile, *mem
	gogc, fromEnv := gctuning.ApplyGCPercent(os.Getenv, gateway.DefaultGCPercent)
	source := "the gateway's default"
	if fromEnv {
		source = "from the environment"
	}
	fmt.Printf("GOGC %d (%s)\n", gogc, source)
	var err error
	if *deployed {
		err = runDeployed(context.Background(), *rounds, *perRun, *gatewayCPU, *gatewayPprof, gatewayEnv)
	} else {
		err = run(context.Background(), *rounds, *perRun, *large)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-gateway:", err)
		os.Exit(1)
	}
}

var cpuProfile, memProfile string

// env is what the modes share.
type env struct {
	upstreamURL, gatewayURL, relayURL string
	token                             string // pod-bound, for the gateway's audience and the API server's
	agent                             client.Client
	seq                               int // calls so far, for distinct steps and paths
	// gatewayWith starts another gateway, with the options change makes, and returns its URL.
	gatewayWith func(change func(*gateway.Options)) (string, func(), error)
	// cpu is the CPU time the process measured has used: this one, or the gateway's when the
	// gateway runs as a process of its own.
	cpu func() time.Duration
	// gatewayMetrics reads the measured gateway's metrics (own.go).
	gatewayMetrics gatewayMetrics
}

func run(ctx context.Context, rounds, perRun, large int) error {
	dir, err := os.MkdirTemp("", "toolgate-bench-gateway-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	fmt.Println("starting the control plane and the operator")
	cluster, err := testenv.StartOperator(dir, "bench")
	if err != nil {
		return err
	}
	defer func() { _ = cluster.Stop() }()
	e, stop, err := setUp(ctx, cluster)
	if err != nil {
		return err
	}
	defer stop()
	metrics.RegisterGateway()
	e.gatewayMetrics = func(context.Context) (map[string]*dto.MetricFamily, error) {
		families, err := ctrlmetrics.Registry.Gather()
		byName := map[string]*dto.MetricFamily{}
		for _, f := range families {
			byName[f.GetName()] = f
		}
		return byName, err
	}
	if large > 0 {
		return e.large(ctx, large, rounds)
	}

	if err := e.measureAll(ctx, []string{modeDirect, modeGateway, modeCreate, modeRelay}, rounds, perRun,
		"CPU per call in this process"); err != nil {
		return err
	}
	// What a higher GOGC costs in memory, with everything in this process: an upper bound on
	// the gateway's share.
	fmt.Printf("\npeak resident memory of this process (VmHWM): %s\n", peakRSS())
	return nil
}

// measureAll warms modes up, then measures them at 1 and 8 clients, each mode in batches, and
// under the mixed load, and prints the tables; cpuColumn names what e.cpu counts.
func (e *env) measureAll(ctx context.Context, modes []string, rounds, perRun int, cpuColumn string) error {
	for _, m := range modes { // warm up connections, discovery, caches
		if _, err := e.batch(ctx, m, 20, 8); err != nil {
			return fmt.Errorf("warming up %s: %w", m, err)
		}
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if memProfile != "" {
		runtime.MemProfileRate = 4096
		defer func() {
			if f, err := os.Create(memProfile); err == nil {
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				_ = f.Close()
			}
		}()
	}
	fmt.Printf("\n%d rounds, %d calls per mode, round and client count\n\n", rounds, perRun)
	fmt.Printf("| clients | mode | p50 | p99 | %s |\n", cpuColumn)
	fmt.Println("|---|---|---|---|---|")
	for _, clients := range []int{1, 8} {
		if err := e.timedOwn(ctx, fmt.Sprintf("%d | ", clients), func() error {
			pooled, cpu, err := e.measure(ctx, modes, rounds, perRun, clients)
			if err == nil {
				report(modes, clients, pooled, cpu)
			}
			return err
		}); err != nil {
			return err
		}
	}
	return e.reportMixed(ctx, modes, rounds, perRun, mixedClients)
}

// mixedClients is the client count of the mixed measurement.
const mixedClients = 8

// reportMixed measures mixedClients clients that each take turns through the modes, call by
// call: every mode's calls meet the same load, made of all four modes, so a gateway call's
// latency less that of the direct call and the create its client made in the same turn is the
// gateway's own share at that load, where the batches' difference of p50s also holds the extra
// CPU the gateway mode puts on the two shared cores (upstream, API server, gateway and clients
// all run on them).
func (e *env) reportMixed(ctx context.Context, modes []string, rounds, perRun, clients int) error {
	return e.timedOwn(ctx, "", func() error {
		pooled := lats{}
		for r := range rounds {
			lat, _, err := e.interleaved(ctx, modes, perRun/clients, clients, r)
			if err != nil {
				return fmt.Errorf("%d clients, mixed: %w", clients, err)
			}
			for _, m := range modes {
				pooled[m] = append(pooled[m], lat[m]...)
			}
		}
		fmt.Printf("\n%d clients, each taking turns through the modes (%d turns per client and round)\n\n",
			clients, perRun/clients)
		fmt.Println("| mode | p50 | p99 |")
		fmt.Println("|---|---|---|")
		for _, m := range modes {
			fmt.Printf("| %s | %s | %s |\n", m, ms(pct(pooled[m], 50)), ms(pct(pooled[m], 99)))
		}
		printPaired(modes, pooled, "")
		return nil
	})
}

// measure runs rounds of perRun calls of every mode from clients concurrent clients and returns
// each mode's latencies and the process CPU time spent in its calls.
func (e *env) measure(ctx context.Context, modes []string, rounds, perRun, clients int) (lats, cpus, error) {
	pooled, cpu := lats{}, cpus{}
	for r := range rounds {
		if clients == 1 { // one call at a time: the modes can take turns call by call
			lat, used, err := e.interleaved(ctx, modes, perRun, 1, r)
			if err != nil {
				return nil, nil, fmt.Errorf("1 client: %w", err)
			}
			for _, m := range modes {
				pooled[m] = append(pooled[m], lat[m]...)
				cpu[m] += used[m]
			}
			continue
		}
		// Concurrent clients: each mode in a batch of its own, so that one mode's load does not
		// slow the others' calls.
		for k := range modes {
			m := modes[(k+r)%len(modes)]
			before := e.cpu()
			lat, err := e.batch(ctx, m, perRun, clients)
			if err != nil {
				return nil, nil, fmt.Errorf("%s, %d clients: %w", m, clients, err)
			}
			cpu[m] += e.cpu() - before
			pooled[m] = append(pooled[m], lat...)
		}
	}
	return pooled, cpu, nil
}

// report prints one client count's rows.
func report(modes []string, clients int, pooled lats, cpu cpus) {
	perCall := func(m string) time.Duration { return cpu[m] / time.Duration(len(pooled[m])) }
	relay := slices.Contains(modes, modeRelay)
	for _, m := range modes {
		fmt.Printf("| %d | %s | %s | %s | %s |\n", clients, m, ms(pct(pooled[m], 50)), ms(pct(pooled[m], 99)),
			ms(perCall(m)))
	}
	if relay {
		fmt.Printf("| %d | gate's CPU: gateway − relay − create | | | %s |\n", clients,
			ms(perCall(modeGateway)-perCall(modeRelay)-perCall(modeCreate)))
	}
	for _, p := range []int{50, 99} {
		own := pct(pooled[modeGateway], p) - pct(pooled[modeDirect], p) - pct(pooled[modeCreate], p)
		fmt.Printf("| %d | gateway − direct − create, p%d | %s | |\n", clients, p, ms(own))
	}
	if relay {
		gate := pct(pooled[modeGateway], 50) - pct(pooled[modeRelay], 50) - pct(pooled[modeCreate], 50)
		fmt.Printf("| %d | gateway − relay − create, p50 | %s | |\n", clients, ms(gate))
	}
	if clients == 1 {
		printPaired(modes, pooled, "1 | ")
	}
}

// printPaired prints the call-for-call medians of gateway − direct − create, and of gateway −
// relay − create when the relay was measured; prefix starts each row.
func printPaired(modes []string, pooled lats, prefix string) {
	fmt.Printf("| %smedian of gateway − direct − create, call for call | %s | |\n", prefix,
		ms(pct(paired(pooled, modeDirect, modeCreate), 50)))
	if slices.Contains(modes, modeRelay) {
		fmt.Printf("| %smedian of gateway − relay − create, call for call | %s | |\n", prefix,
			ms(pct(paired(pooled, modeRelay, modeCreate), 50)))
	}
}

// setUp registers the tool, an open profile, the ToolServer and a locked plan, starts the upstream
// and the gateway (as its own ServiceAccount with the shipped role, reading through a cache as
// cmd/toolgate-gateway does), and makes the agent's pod-bound token.
func setUp(ctx context.Context, cluster *testenv.Cluster) (_ *env, stopAll func(), err error) {
	var stops []func() // what was started, stopped in reverse
	stopAll = func() {
		for _, stop := range slices.Backward(stops) {
			stop()
		}
	}
	defer func() {
		if err != nil {
			stopAll()
		}
	}()
	upstream := startUpstream()
	stops = append(stops, upstream.Close)
	token, agent, err := world(ctx, cluster.Client, cluster.Config, cluster.Scheme, upstream.URL)
	if err != nil {
		return nil, nil, err
	}
	gwCfg, err := testenv.Gateway(ctx, cluster.Config, testenv.OperatorNamespace, testenv.GatewayServiceAccount)
	if err != nil {
		return nil, nil, err
	}
	gwCache, err := cache.New(gwCfg, cache.Options{Scheme: cluster.Scheme})
	if err != nil {
		return nil, nil, err
	}
	cacheCtx, stopCache := context.WithCancel(ctx)
	stops = append(stops, stopCache)
	go func() { _ = gwCache.Start(cacheCtx) }()
	if !gwCache.WaitForCacheSync(ctx) {
		return nil, nil, fmt.Errorf("the gateway's cache did not sync")
	}
	gwClient, err := client.New(gwCfg, client.Options{Scheme: cluster.Scheme,
		Cache: &client.CacheOptions{Reader: gwCache}})
	if err != nil {
		return nil, nil, err
	}
	cs, err := kubernetes.NewForConfig(gwCfg)
	if err != nil {
		return nil, nil, err
	}
	gwOpts := gateway.Options{Reader: gwClient, APIServer: gwCfg,
		TokenReviews: cs.AuthenticationV1().TokenReviews(), Scheme: cluster.Scheme, Mapper: gwClient.RESTMapper(),
		Audience: audience, Version: ns}
	gatewayWith := func(change func(*gateway.Options)) (string, func(), error) {
		opts := gwOpts
		change(&opts)
		gw, err := gateway.New(opts)
		if err != nil {
			return "", nil, err
		}
		server := httptest.NewServer(gw.Handler())
		return server.URL, func() { server.Close(); gw.Close() }, nil
	}
	gwURL, stopGateway, err := gatewayWith(func(*gateway.Options) {})
	if err != nil {
		return nil, nil, err
	}
	stops = append(stops, stopGateway)
	// Prime the cache: every kind the gateway reads, before anything is measured.
	for _, list := range []client.ObjectList{&safetyv1alpha1.ToolServerList{}, &safetyv1alpha1.AgentToolList{},
		&safetyv1alpha1.AgentPlanList{}} {
		if err := gwClient.List(ctx, list); err != nil {
			return nil, nil, err
		}
	}
	relay, err := startRelay(ctx, upstream.URL)
	if err != nil {
		return nil, nil, err
	}
	stops = append(stops, relay.Close)
	return &env{upstreamURL: upstream.URL, gatewayURL: gwURL, relayURL: relay.URL, token: token, agent: agent,
		gatewayWith: gatewayWith, cpu: processCPU}, stopAll, nil
}

// world registers the tool, an open profile, the ToolServer in front of upstream and the agent's
// plan, waits for the plan's lock, and returns the agent's pod-bound token (for the API server and
// the gateway's audience) and a client that uses it.
func world(ctx context.Context, admin client.Client, adminCfg *rest.Config, scheme *kruntime.Scheme,
	upstream string) (string, client.Client, error) {
	for _, obj := range []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: testenv.OperatorNamespace}},
		&safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: "bench-open"},
			Spec: safetyv1alpha1.SafetyProfileSpec{RequireSandbox: new(false), RequireCheckpoints: new(false),
				MaxRetriesPerStep: new(int32(100)), MaxStepsPerPlan: new(int32(safetyv1alpha1.MaxStepsLimit))}},
		&safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: tool},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}},
		&safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: largeTool},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}},
	} {
		if err := admin.Create(ctx, obj); client.IgnoreAlreadyExists(err) != nil {
			return "", nil, err
		}
	}
	served := safetyv1alpha1.ServedTool{AgentTool: tool, UpstreamName: upstreamTool,
		Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{pathArg}}}
	servedLarge := safetyv1alpha1.ServedTool{AgentTool: largeTool, UpstreamName: upstreamLargeTool,
		Arguments: safetyv1alpha1.ToolArgumentMap{Paths: []string{pathArg}}}
	if err := admin.Create(ctx, &safetyv1alpha1.ToolServer{ObjectMeta: metav1.ObjectMeta{Name: "bench-upstream"},
		Spec: safetyv1alpha1.ToolServerSpec{URL: upstream,
			Tools: []safetyv1alpha1.ServedTool{served, servedLarge}}}); err != nil {
		return "", nil, err
	}
	agentCfg, err := testenv.AgentConfig(ctx, adminCfg, ns, agentSA)
	if err != nil {
		return "", nil, err
	}
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "plan"},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: agentSA,
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "bench-open"}}}
	if err := admin.Create(ctx, plan); err != nil {
		return "", nil, err
	}
	if err := waitFor(time.Minute, func() bool {
		return admin.Get(ctx, client.ObjectKeyFromObject(plan), plan) == nil && plan.Status.Snapshot != nil
	}); err != nil {
		return "", nil, fmt.Errorf("plan not locked: %w", err)
	}
	token, err := testenv.AudiencePodToken(ctx, adminCfg, ns, agentSA, "agent-pod", true, audience)
	if err != nil {
		return "", nil, err
	}
	agent, err := client.New(withToken(agentCfg, token), client.Options{Scheme: scheme})
	if err != nil {
		return "", nil, err
	}
	return token, agent, nil
}

// batch makes n calls in mode from clients concurrent clients (each with its own MCP session)
// and returns each call's latency.
func (e *env) batch(ctx context.Context, mode string, n, clients int) ([]time.Duration, error) {
	first := e.seq
	e.seq += n
	lat := make([]time.Duration, n)
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			do, closeFn, err := e.caller(ctx, mode)
			if err != nil {
				errs <- err
				return
			}
			defer closeFn()
			for i := c; i < n; i += clients {
				k := first + i
				t := time.Now()
				if err := do(k); err != nil {
					errs <- fmt.Errorf("call %d: %w", k, err)
					return
				}
				lat[i] = time.Since(t)
			}
		})
	}
	wg.Wait()
	close(errs)
	return lat, <-errs
}

// caller returns what one client does for call k in mode.
func (e *env) caller(ctx context.Context, mode string) (func(k int) error, func(), error) {
	step := func(k int) string { return fmt.Sprintf("s%d", k/perStep) }
	path := func(k int) string { return fmt.Sprintf("src/f%d.go", k) }
	if mode == modeCreate {
		return func(k int) error {
			call, err := toolcall.Build(toolcall.Invocation{Namespace: ns, Plan: "plan", Tool: tool, Step: step(k),
				Arguments: []byte(fmt.Sprintf(`{"path":%q}`, path(k))), Map: toolcall.ArgumentMap{Paths: []string{pathArg}}})
			if err != nil {
				return err
			}
			return e.agent.Create(ctx, call)
		}, func() {}, nil
	}
	url, name, httpClient := e.upstreamURL, upstreamTool, http.DefaultClient
	switch mode {
	case modeGateway:
		url, name, httpClient = e.gatewayURL, tool, testenv.BearerClient(e.token)
	case modeRelay:
		url = e.relayURL
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: httpClient, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return nil, nil, err
	}
	return func(k int) error {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"path": path(k)},
			Meta: mcp.Meta{gateway.MetaStep: step(k)}})
		if err == nil && res.IsError {
			err = fmt.Errorf("tool error: %v", res.Content[0])
		}
		return err
	}, func() { _ = session.Close() }, nil
}

// startUpstream is a real MCP server whose read_file answers at once: what is measured is the
// path to it, not a file system.
func startUpstream() *httptest.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench-upstream", Version: "1"}, nil)
	type args struct {
		Path string `json:"path"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: upstreamTool, Description: "Read a file"},
		func(_ context.Context, _ *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "contents of " + in.Path}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: upstreamLargeTool, Description: "Read a large file"},
		func(_ context.Context, _ *mcp.CallToolRequest, _ args) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(largeText)}}}, nil, nil
		})
	return httptest.NewServer(answerLarge(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})))
}

// startRelay is an MCP server that forwards every tools/call to upstream, gating nothing: the MCP
// proxying the gateway does, alone, on as many upstream sessions (round robin) over an HTTP client
// with as many idle connections as the gateway's.
func startRelay(ctx context.Context, upstream string) (*httptest.Server, error) {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 64
	httpClient := &http.Client{Transport: transport}
	sessions := make([]*mcp.ClientSession, gateway.DefaultUpstreamSessions)
	for i := range sessions {
		session, err := mcp.NewClient(&mcp.Implementation{Name: "relay", Version: "1"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: upstream, HTTPClient: httpClient, DisableStandaloneSSE: true}, nil)
		if err != nil {
			return nil, err
		}
		sessions[i] = session
	}
	var next atomic.Uint32
	s := mcp.NewServer(&mcp.Implementation{Name: "relay", Version: "1"}, nil)
	for t, err := range sessions[0].Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		s.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			session := sessions[int(next.Add(1))%len(sessions)]
			return session.CallTool(ctx, &mcp.CallToolParams{Name: req.Params.Name, Arguments: req.Params.Arguments})
		})
	}
	return httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})), nil
}
