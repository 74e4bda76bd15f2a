// Command bench-hook measures what toolgate-hook costs a coding agent per tool use: the built
// binary, run as Claude Code runs it (a new process per tool use, the payload on stdin, a
// pod-bound token in a file), deciding an allowed and a denied Read through a real kube-apiserver
// and etcd with toolgate's webhook and operator (envtest, in this process). Beside it, in the same
// rounds: the binary started and stopped without a decision (-h, which exits at once: the cost of a
// process), and, with -base REV, the hook built from git revision REV, so that a change is measured
// against its baseline in one run. Each variant's invocations go once through a counting TLS proxy
// in front of the API server too, to count the requests one tool use makes, by path.
package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/benchstats"
	"github.com/toolgate/toolgate/internal/testenv"
)

func main() {
	base := flag.String("base", "", "a git revision whose toolgate-hook is measured beside the working tree's")
	rounds := flag.Int("rounds", 3, "rounds; each runs every variant, in an order rotated per round")
	calls := flag.Int("calls", 40, "tool uses per variant, payload and round")
	flag.Parse()
	ctrl.SetLogger(logr.Discard()) // the operator's logs are not what is measured
	if err := run(context.Background(), *base, *rounds, *calls); err != nil {
		fmt.Fprintln(os.Stderr, "bench-hook:", err)
		os.Exit(1)
	}
}

// payload is a PreToolUse payload of a Read of path, %d in path being the tool use's number: each
// tool use reads another file, so that it is another step of the plan, never a repeat for the
// loop limit.
func payload(path string) string {
	b, _ := json.Marshal(map[string]any{"session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/workspace/app",
		"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Read",
		"tool_input": map[string]string{"file_path": path}, "tool_use_id": "toolu_1"})
	return string(b)
}

var (
	allowPayload = payload("/workspace/app/docs/%d.md")
	denyPayload  = payload("/workspace/app/%d/.env")
)

// variant is one hook binary.
type variant struct{ name, binary string }

const (
	namespace = "bench-hook"
	pod       = "coding-agent-0"
)

func run(ctx context.Context, base string, rounds, calls int) error {
	dir, err := os.MkdirTemp("", "toolgate-bench-hook-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	variants, err := build(dir, base)
	if err != nil {
		return err
	}
	fmt.Println("starting the control plane and the operator")
	cluster, err := testenv.StartOperator(filepath.Join(dir, "ledger"), "bench")
	if err != nil {
		return err
	}
	defer func() { _ = cluster.Stop() }()
	tokenFile, err := setUp(ctx, cluster, dir)
	if err != nil {
		return err
	}
	caFile := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(caFile, cluster.Config.CAData, 0o600); err != nil {
		return err
	}
	args := func(server, ca string) []string {
		return []string{"--server", server, "--certificate-authority", ca,
			"--namespace", namespace, "--token-file", tokenFile}
	}
	for _, v := range variants { // each variant decides once before it is timed: the plan is locked, caches are warm
		for _, p := range []string{allowPayload, denyPayload} {
			if _, err := decide(ctx, v.binary, p, args(cluster.Config.Host, caFile)); err != nil {
				return fmt.Errorf("%s: %w", v.name, err)
			}
		}
	}

	fmt.Println("\nrequests to the API server per tool use (through a counting proxy), by method and path:")
	proxy, proxyCA, err := countingProxy(cluster.Config, dir)
	if err != nil {
		return err
	}
	defer proxy.Close()
	for _, v := range variants {
		proxy.reset()
		if _, err := decide(ctx, v.binary, allowPayload, args(proxy.URL, proxyCA)); err != nil {
			return fmt.Errorf("%s through the proxy: %w", v.name, err)
		}
		fmt.Printf("  %-10s %d: %s\n", v.name, proxy.total(), strings.Join(proxy.paths(), ", "))
	}

	return measure(ctx, variants, rounds, calls, args(cluster.Config.Host, caFile))
}

// measure times each variant's allowed and denied tool uses and its bare process, rounds times
// calls, the variants' order rotated per round, and prints the quantiles.
func measure(ctx context.Context, variants []variant, rounds, calls int, args []string) error {
	times := map[string][]time.Duration{}
	order := slices.Clone(variants)
	for r := range rounds {
		for _, v := range order {
			for range calls {
				for _, p := range []struct{ kind, payload string }{{"allow", allowPayload}, {"deny", denyPayload}} {
					d, err := decide(ctx, v.binary, p.payload, args)
					if err != nil {
						return fmt.Errorf("%s, round %d: %w", v.name, r+1, err)
					}
					times[v.name+" "+p.kind] = append(times[v.name+" "+p.kind], d)
				}
				d, err := started(ctx, v.binary)
				if err != nil {
					return err
				}
				times[v.name+" process"] = append(times[v.name+" process"], d)
			}
		}
		order = append(order[1:], order[0])
	}
	fmt.Printf("\nper tool use, %d rounds x %d: p50 / p99 (wall time from the process's start to its exit)\n",
		rounds, calls)
	for _, k := range slices.Sorted(maps.Keys(times)) {
		fmt.Printf("  %-24s %s / %s\n", k, benchstats.Millis(benchstats.Percentile(times[k], 50)),
			benchstats.Millis(benchstats.Percentile(times[k], 99)))
	}
	return nil
}

// build compiles the working tree's hook and, with base, the hook of that revision.
func build(dir, base string) ([]variant, error) {
	root, err := testenv.RepoRoot()
	if err != nil {
		return nil, err
	}
	out := make([]variant, 0, 2)
	out = append(out, variant{name: "tree", binary: filepath.Join(dir, "hook-tree")})
	if err := goBuild(root, out[0].binary); err != nil {
		return nil, err
	}
	if base == "" {
		return out, nil
	}
	src := filepath.Join(dir, "base-src")
	if err := os.Mkdir(src, 0o755); err != nil {
		return nil, err
	}
	archive := exec.Command("sh", "-c", `git -C "$1" archive "$2" | tar -x -C "$3"`, "sh", root, base, src)
	if b, err := archive.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("git archive %s: %w: %s", base, err, b)
	}
	v := variant{name: "base", binary: filepath.Join(dir, "hook-base")}
	if err := goBuild(src, v.binary); err != nil {
		return nil, err
	}
	return append(out, v), nil
}

func goBuild(root, out string) error {
	cmd := exec.Command("go", "build", "-o", out, "./cmd/toolgate-hook")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s's toolgate-hook: %w: %s", root, err, b)
	}
	return nil
}

// setUp makes the bench namespace's plan, bound to the agent's pod, and returns its token file.
func setUp(ctx context.Context, cluster *testenv.Cluster, dir string) (string, error) {
	c := cluster.Client
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}); err != nil {
		return "", err
	}
	agent, err := testenv.AgentPod(ctx, cluster.Config, cluster.Scheme, namespace, "coding-agent", pod)
	if err != nil {
		return "", err
	}
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(agent.Config.BearerToken), 0o600); err != nil {
		return "", err
	}
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: "coding"},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coding-agent", PodName: pod,
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "bench-hook"}}}
	for _, obj := range []client.Object{
		&safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: "read"},
			Spec: safetyv1alpha1.AgentToolSpec{ActionClass: safetyv1alpha1.ActionClassRead}},
		&safetyv1alpha1.SafetyProfile{ObjectMeta: metav1.ObjectMeta{Name: "bench-hook"},
			Spec: safetyv1alpha1.SafetyProfileSpec{
				RequireSandbox: new(false), RequireCheckpoints: new(false), RequireHumanApproval: new(false),
				MaxStepsPerPlan: new(int32(1000))}},
		plan,
	} {
		if err := c.Create(ctx, obj); err != nil {
			return "", err
		}
	}
	deadline := time.Now().Add(time.Minute)
	for !meta.IsStatusConditionTrue(plan.Status.Conditions, safetyv1alpha1.AgentPlanLockedCondition) {
		if time.Now().After(deadline) {
			return "", errors.New("the plan was not locked within a minute")
		}
		time.Sleep(50 * time.Millisecond)
		if err := c.Get(ctx, client.ObjectKeyFromObject(plan), plan); err != nil {
			return "", err
		}
	}
	return tokenFile, nil
}

// useNumber numbers the tool uses decide submits.
var useNumber int

// decide runs the hook once on payload and returns its wall time; its answer must be a decision
// toolgate made (admitted or refused), not a failure to ask.
func decide(ctx context.Context, binary, payload string, args []string) (time.Duration, error) {
	useNumber++
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Stdin = strings.NewReader(fmt.Sprintf(payload, useNumber))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("toolgate-hook: %w: %s", err, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "admitted the call") && !strings.Contains(out, "[ToolAccessDenied]") {
		return 0, fmt.Errorf("toolgate-hook answered without toolgate's decision: %s", out)
	}
	return d, nil
}

// started runs the hook with -h, which exits at once: a process's start and end.
func started(ctx context.Context, binary string) (time.Duration, error) {
	start := time.Now()
	err := exec.CommandContext(ctx, binary, "-h").Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		return 0, fmt.Errorf("toolgate-hook -h: %w, want exit status 2", err)
	}
	return time.Since(start), nil
}

// proxy is a TLS reverse proxy to the API server that counts the requests it forwards.
type proxy struct {
	*httptest.Server
	mu       sync.Mutex
	requests map[string]int
}

func countingProxy(cfg *rest.Config, dir string) (*proxy, string, error) {
	target, err := url.Parse(cfg.Host)
	if err != nil {
		return nil, "", err
	}
	transport, err := rest.TransportFor(&rest.Config{TLSClientConfig: rest.TLSClientConfig{CAData: cfg.CAData}})
	if err != nil {
		return nil, "", err
	}
	p := &proxy{requests: map[string]int{}}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.Transport = transport
	p.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.requests[r.Method+" "+r.URL.Path]++
		p.mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	p.EnableHTTP2 = true
	p.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
	p.StartTLS()
	ca := filepath.Join(dir, "proxy-ca.crt")
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.Certificate().Raw})
	return p, ca, os.WriteFile(ca, certPEM, 0o600)
}

func (p *proxy) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.requests)
}

func (p *proxy) total() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.requests {
		n += c
	}
	return n
}

func (p *proxy) paths() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, 0, len(p.requests))
	for k, c := range p.requests {
		out = append(out, fmt.Sprintf("%s x%d", k, c))
	}
	slices.Sort(out)
	return out
}
