package main

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/benchstats"
	"github.com/toolgate/toolgate/internal/testenv"
)

type bench struct {
	local  *testenv.Local
	admin  client.Client
	scheme *runtime.Scheme
	// manager reads the manager's own metrics (timing.go).
	manager *managerMetrics
	// apiProfiles, when set, is where each 8-client batch of 1,000 creates or more leaves a CPU
	// profile of kube-apiserver (-apiserver-profiles).
	apiProfiles string
	// nullDelay is how long the null webhook waits before each answer (-null-delay).
	nullDelay time.Duration
}

// benchPlan is a locked plan and its agent (a ServiceAccount of its own, with a real token).
type benchPlan struct {
	ns    string
	name  string
	agent client.Client
	seq   int // calls created for the plan so far, in every group
	// toolgate counts the plan's calls in toolgate's group, all admitted.
	toolgate int64
}

// setUp makes the namespace, the tool, an open profile, the other groups' CRDs and the null webhook.
func (b *bench) setUp(ctx context.Context, dir string) error {
	if err := b.admin.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: benchNS}}); err != nil {
		return err
	}
	for _, group := range []string{groupNone, groupNull} {
		if err := copyCallCRD(ctx, b.admin, group); err != nil {
			return fmt.Errorf("CRD for %s: %w", group, err)
		}
	}
	if err := startNullWebhook(ctx, b.local, b.admin, dir, b.nullDelay); err != nil {
		return err
	}
	open := safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: openProfile},
		Spec: safetyv1alpha1.SafetyProfileSpec{RequireSandbox: new(false), RequireCheckpoints: new(false),
			// 90 calls a step (modes.go), so a plan takes 90,000 calls: long runs (-calls 2000) too.
			MaxRetriesPerStep: new(int32(100)), MaxStepsPerPlan: new(int32(1000))}}
	if err := b.admin.Create(ctx, &open); err != nil {
		return err
	}
	tool := safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: benchTool},
		Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead,
			Description: "a read-only tool for the benchmark"}}
	return b.admin.Create(ctx, &tool)
}

// plan creates plan name in the benchmark's namespace for a new agent, lets that agent create
// calls in the benchmark's other groups too, and waits until the plan is locked.
func (b *bench) plan(ctx context.Context, name string) (*benchPlan, error) {
	return b.planIn(ctx, benchNS, name)
}

// planIn is plan in namespace ns.
func (b *bench) planIn(ctx context.Context, ns, name string) (*benchPlan, error) {
	sa := "agent-" + name
	cfg, err := testenv.AgentConfig(ctx, b.local.Admin, ns, sa)
	if err != nil {
		return nil, err
	}
	cs, err := kubernetes.NewForConfig(b.local.Admin)
	if err != nil {
		return nil, err
	}
	meta := metav1.ObjectMeta{Namespace: ns, Name: sa + "-bench-groups"}
	role := &rbacv1.Role{ObjectMeta: meta, Rules: []rbacv1.PolicyRule{{
		APIGroups: []string{groupNone, groupNull}, Resources: []string{"agenttoolcalls"}, Verbs: []string{"create"}}}}
	if _, err := cs.RbacV1().Roles(ns).Create(ctx, role, metav1.CreateOptions{}); err != nil {
		return nil, err
	}
	binding := &rbacv1.RoleBinding{ObjectMeta: meta,
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: meta.Name},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: ns, Name: sa}}}
	if _, err := cs.RbacV1().RoleBindings(ns).Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		return nil, err
	}
	agent, err := client.New(cfg, client.Options{Scheme: b.scheme})
	if err != nil {
		return nil, err
	}
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: sa,
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: openProfile}}}
	if err := b.admin.Create(ctx, plan); err != nil {
		return nil, err
	}
	err = waitFor(ctx, time.Minute, func() bool {
		return b.admin.Get(ctx, client.ObjectKeyFromObject(plan), plan) == nil && plan.Status.Snapshot != nil
	})
	return &benchPlan{ns: ns, name: name, agent: agent}, err
}

// admitted is the plan's status.usage.calls.
func (b *bench) admitted(ctx context.Context, plan *benchPlan) int64 {
	p := &safetyv1alpha1.AgentPlan{}
	if b.admin.Get(ctx, client.ObjectKey{Namespace: plan.ns, Name: plan.name}, p) != nil {
		return -1
	}
	return p.Status.Usage.Calls
}

// settled counts n more admitted calls of plan p and waits until its status.usage counts every
// admitted call.
func (b *bench) settled(ctx context.Context, p *benchPlan, n int) error {
	p.toolgate += int64(n)
	want := p.toolgate
	if err := waitFor(ctx, 2*time.Minute, func() bool { return b.admitted(ctx, p) >= want }); err != nil {
		return fmt.Errorf("usage did not settle: %w", err)
	}
	return nil
}

// batch creates n calls of plan in group from clients concurrent clients and measures each create.
// For toolgate it then waits until the plan's usage counts every admitted call (settle) and counts
// the API writes toolgate's objects took, per call.
func (b *bench) batch(ctx context.Context, group string, p *benchPlan, n, clients int) (*result, error) {
	before, err := b.scrape(ctx)
	if err != nil {
		return nil, err
	}
	var managerBefore map[string]timer
	if group == groupToolgate { // only toolgate's creates reach the manager
		managerBefore = b.manager.scrape(ctx)
	}
	start0 := p.seq
	p.seq += n
	lat := make([]time.Duration, n)
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	cpu0 := processCPU()
	begin := time.Now()
	profiled := b.profileAPIServer(ctx, group, start0, n, clients)
	for c := range clients {
		wg.Go(func() {
			for i := c; i < n; i += clients {
				obj := callObject(group, p.ns, p.name, start0+i)
				t := time.Now()
				if err := p.agent.Create(ctx, obj); err != nil {
					errs <- fmt.Errorf("create %s: %w", obj.GetName(), err)
					return
				}
				lat[i] = time.Since(t)
			}
		})
	}
	wg.Wait()
	wall := time.Since(begin)
	if err := <-profiled; err != nil {
		return nil, fmt.Errorf("profiling kube-apiserver: %w", err)
	}
	close(errs)
	if err := <-errs; err != nil {
		return nil, err
	}
	res := &result{lat: lat, wall: wall, n: n}
	if group == groupToolgate {
		done := time.Now()
		if err := b.settled(ctx, p, n); err != nil {
			return nil, err
		}
		res.settle = time.Since(done)
	}
	res.cpu = cpuSince(cpu0) // for toolgate, with the counters' flush the settle waited for
	after, err := b.scrape(ctx)
	if err != nil {
		return nil, err
	}
	delta := after.writes[group] - before.writes[group] +
		ifNot(group, after.writes[groupToolgate]-before.writes[groupToolgate])
	res.writes = float64(delta) / float64(n)
	res.reads = map[string]int64{}
	for resource, v := range after.reads {
		if d := v - before.reads[resource]; d > 0 {
			res.reads[resource] = d
		}
	}
	hook := callWebhooks[group]
	res.timers = map[string]timer{timerWebhook: after.hooks[hook].sub(before.hooks[hook])}
	if group == groupToolgate {
		maps.Copy(res.timers, b.manager.since(ctx, managerBefore))
	}
	return res, nil
}

func ifNot(group string, v int64) int64 {
	if group == groupToolgate {
		return 0
	}
	return v
}

// apiMetrics are the kube-apiserver counters a batch is measured by: its writes (POST, PUT, PATCH,
// DELETE) per API group, its reads per resource, and the time its validating webhooks took as the API server saw it, by
// webhook name (apiserver_admission_webhook_admission_duration_seconds: sum and count).
type apiMetrics struct {
	writes map[string]int64
	reads  map[string]int64 // GET, LIST and WATCH, by resource
	hooks  map[string]timer
}

// hookMetric is the histogram of one webhook call's duration, TLS and the webhook's own time
// included, that kube-apiserver keeps per webhook.
const hookMetric = "apiserver_admission_webhook_admission_duration_seconds"

// scrape reads kube-apiserver's /metrics as the admin.
func (b *bench) scrape(ctx context.Context) (*apiMetrics, error) {
	cs, err := kubernetes.NewForConfig(b.local.Admin)
	if err != nil {
		return nil, err
	}
	data, err := cs.RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	out := &apiMetrics{writes: map[string]int64{}, reads: map[string]int64{}, hooks: map[string]timer{}}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), "{")
		if !ok {
			continue
		}
		labels, value, _ := strings.Cut(rest, "} ")
		v, _ := strconv.ParseFloat(value, 64)
		switch name {
		case "apiserver_request_total":
			switch label(labels, "verb") {
			case "POST", "PUT", "PATCH", "DELETE":
				out.writes[label(labels, "group")] += int64(v)
			case "GET", "LIST", "WATCH":
				out.reads[label(labels, "resource")] += int64(v)
			}
		case hookMetric + "_sum", hookMetric + "_count":
			hook := label(labels, "name")
			out.hooks[hook] = out.hooks[hook].add(histogramPart(name, v))
		}
	}
	return out, sc.Err()
}

func label(labels, name string) string {
	_, rest, ok := strings.Cut(labels, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// result is a set of measured creates.
type result struct {
	lat    []time.Duration
	wall   time.Duration
	n      int
	writes float64
	settle time.Duration
	runs   int
	cpu    map[string]time.Duration // by process, summed
	// timers are the batch's means: its webhook as the API server timed it, and for toolgate
	// the manager's own timings (timing.go).
	timers map[string]timer
	// reads are the API server's reads during the batch, by resource, anyone's.
	reads map[string]int64
}

// merge pools two results (nil-safe): latencies together, throughput from the summed wall time,
// writes and settle averaged over the runs.
func (r *result) merge(o *result) *result {
	if r == nil {
		o.runs = 1
		return o
	}
	cpu := maps.Clone(r.cpu)
	for k, v := range o.cpu {
		cpu[k] += v
	}
	timers := maps.Clone(r.timers)
	for k, v := range o.timers {
		timers[k] = timers[k].add(v)
	}
	reads := maps.Clone(r.reads)
	for k, v := range o.reads {
		reads[k] += v
	}
	return &result{lat: append(r.lat, o.lat...), wall: r.wall + o.wall, n: r.n + o.n,
		writes: (r.writes*float64(r.runs) + o.writes) / float64(r.runs+1),
		settle: max(r.settle, o.settle), runs: r.runs + 1, cpu: cpu, timers: timers, reads: reads}
}

func (r *result) pct(p int) time.Duration { return benchstats.Percentile(r.lat, p) }

func (r *result) throughput() float64 { return float64(r.n) / r.wall.Seconds() }

func (r *result) row(clients int, mode string) string {
	settle := ""
	if r.settle > 0 {
		settle = fmt.Sprintf("%.2f s (max)", r.settle.Seconds())
	}
	return fmt.Sprintf("| %d | %s | %s | %s | %s | %.0f/s | %.2f | %s |", clients, mode,
		ms(r.pct(50)), ms(r.pct(90)), ms(r.pct(99)), r.throughput(), r.writes, settle)
}

// ms writes a latency as every benchmark of hack/ does.
var ms = benchstats.Millis

func splitLines(s string) []string { return strings.Split(s, "\n") }
