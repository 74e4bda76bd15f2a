package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	dto "github.com/prometheus/client_model/go"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/cputime"
	"github.com/toolgate/toolgate/internal/gctuning"
	"github.com/toolgate/toolgate/internal/testenv"
)

// gatewayMemoryLimit is config/gateway's limits.memory, 256Mi.
const gatewayMemoryLimit = 256 << 20

// runDeployed measures the gateway as it is deployed: kube-apiserver and etcd, the manager binary
// (the operator and toolgate's webhook, with its ledger on disk) and the toolgate-gateway binary
// each a process of its own, as e2e runs them; the upstream server and the clients stay in this
// process. The CPU column is then the gateway process's own CPU per call. With gatewayCPU ≥ 0 the
// gateway has that CPU to itself and everything else the others: what the gateway adds when it
// is not also queueing behind the API server, etcd, the upstream and the clients on the same two
// cores, as a Deployment with CPU of its own is not.
func runDeployed(ctx context.Context, rounds, perRun, gatewayCPU int, gatewayPprof string, gatewayEnv []string) error {
	dir, err := os.MkdirTemp("", "toolgate-bench-gateway-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	fmt.Println("starting the control plane and the manager binary")
	local, err := testenv.StartLocal(ctx, dir, io.Discard)
	if err != nil {
		return err
	}
	defer func() { _ = local.Stop() }()
	if err := local.StartManager(ctx); err != nil {
		return err
	}
	scheme := kruntime.NewScheme()
	if err := errors.Join(clientgoscheme.AddToScheme(scheme), safetyv1alpha1.AddToScheme(scheme)); err != nil {
		return err
	}
	admin, err := client.New(local.Admin, client.Options{Scheme: scheme})
	if err != nil {
		return err
	}
	upstream := startUpstream()
	defer upstream.Close()
	token, agent, err := world(ctx, admin, local.Admin, scheme, upstream.URL)
	if err != nil {
		return err
	}
	// As config/gateway deploys it: its container's memory limit, under which it runs its
	// collector at --gc-percent.
	limit := fmt.Sprintf("%s=%d", gctuning.MemoryLimitEnv, gatewayMemoryLimit)
	extras := testenv.GatewayExtras{Env: append([]string{limit}, gatewayEnv...), PlainMetrics: true}
	if gatewayPprof != "" {
		extras.Args = []string{"--pprof-bind-address", gatewayPprof}
		fmt.Printf("the gateway's profiling endpoint: http://%s/debug/pprof/\n", gatewayPprof)
	}
	gw, err := local.StartGatewayWith(ctx, audience, extras)
	if err != nil {
		return err
	}
	defer func() { _ = gw.Stop() }()
	if gatewayCPU >= 0 {
		if err := pinProcesses(gw.PID(), gatewayCPU); err != nil {
			return err
		}
		fmt.Printf("the gateway runs on CPU %d alone; this process, kube-apiserver, etcd and the manager on the others\n",
			gatewayCPU)
	} else {
		fmt.Println("all processes share all CPUs")
	}
	pid := gw.PID()
	e := &env{upstreamURL: upstream.URL, gatewayURL: gw.URL, token: token, agent: agent,
		cpu: func() time.Duration { d, _ := cputime.OfProcess(pid); return d },
		gatewayMetrics: func(ctx context.Context) (map[string]*dto.MetricFamily, error) {
			return testenv.Scrape(ctx, http.DefaultClient, gw.MetricsURL)
		}}
	return e.measureAll(ctx, []string{modeDirect, modeGateway, modeCreate}, rounds, perRun,
		"CPU per call in the gateway process")
}
