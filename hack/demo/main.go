// Command demo runs toolgate locally with nothing but Go: it starts the pinned kube-apiserver and
// etcd on loopback, applies the CRDs, builds and starts the real manager binary against them
// (webhooks over TLS on loopback), applies config/samples, shows what toolgate holds, and keeps
// everything running until Ctrl-C. `make demo` runs it.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/pkg/agent"
)

func main() {
	// The demo's clients log nothing worth showing; without a logger controller-runtime prints a
	// stack trace saying so on the first client it makes.
	ctrllog.SetLogger(logr.Discard())
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	dir, err := testenv.Path("bin", "demo")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	release, err := lock(dir)
	if err != nil {
		return err
	}
	defer release()
	_ = os.Remove(filepath.Join(dir, "manager")) // always run the manager built from this tree

	step("building or reusing the control plane (the first build takes about 10 minutes; progress below)")
	step("starting kube-apiserver and etcd on loopback and applying toolgate's CRDs with kubectl")
	local, err := testenv.StartLocal(ctx, dir, os.Stdout)
	if err != nil {
		return err
	}
	defer func() {
		step("stopping the manager, kube-apiserver and etcd")
		_ = local.Stop()
	}()

	step("building and starting the manager binary as its own ServiceAccount (webhooks over mutual TLS on 127.0.0.1)")
	if err := local.StartManager(ctx); err != nil {
		return err
	}

	step("applying config/samples with kubectl, once the manager has written the built-in profiles")
	if err := local.ApplySamples(ctx, os.Stdout); err != nil {
		return err
	}
	step("kubectl get toolgate -A")
	if _, err := local.KubectlRun(ctx, os.Stdout, "get", "toolgate", "-A"); err != nil {
		return err
	}

	if err := submitCalls(ctx, local); err != nil {
		return err
	}

	fmt.Printf("\nPoint your own kubectl at it (the pinned kubectl and the toolgate plugin on the PATH):\n"+
		"  export KUBECONFIG=%s PATH=%s:%s:$PATH\n"+
		"  kubectl get toolgate -A\n  kubectl toolgate explain -n payments fix-rounding-bug\n\n"+
		"Manager log: %s\nPress Ctrl-C to stop and clean up.\n",
		local.Kubeconfig, filepath.Dir(local.Kubectl), dir, filepath.Join(dir, "manager.log"))
	<-ctx.Done()
	return nil
}

// lock refuses to start a second demo: two would fight over bin/demo and confuse the user.
func lock(dir string) (func(), error) {
	path := filepath.Join(dir, "demo.pid")
	if data, err := os.ReadFile(path); err == nil {
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(data))); pid > 0 && syscall.Kill(pid, 0) == nil {
			return nil, fmt.Errorf("a demo is already running (pid %d); stop it with Ctrl-C or kill %d", pid, pid)
		}
	}
	if err := os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return nil, err
	}
	return func() { _ = os.Remove(path) }, nil
}

func step(msg string) { fmt.Printf("[%s] %s\n", time.Now().Format("15:04:05"), msg) }

// submitCalls acts as the coding agent: with a real ServiceAccount token it submits the sample
// calls, one admitted and one denied with a typed reason.
func submitCalls(ctx context.Context, local *testenv.Local) error {
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		return err
	}
	admin, err := client.New(local.Admin, client.Options{Scheme: scheme})
	if err != nil {
		return err
	}
	step("waiting for the operator to lock plan payments/fix-rounding-bug")
	plan := &safetyv1alpha1.AgentPlan{}
	for plan.Status.Snapshot == nil {
		if err := admin.Get(ctx, client.ObjectKey{Namespace: demoNamespace, Name: "fix-rounding-bug"}, plan); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	snap := plan.Status.Snapshot
	fmt.Printf("  locked %s profile %q (%s)\n", snap.Provenance, snap.ProfileName, snap.Hash)

	coder, err := testenv.Agent(ctx, local.Admin, scheme, demoNamespace, "coding-agent")
	if err != nil {
		return err
	}
	for _, file := range []string{"allowed.yaml", "denied.yaml"} {
		call, err := readCall(file)
		if err != nil {
			return err
		}
		step(fmt.Sprintf("agent system:serviceaccount:payments:coding-agent submits %s (tool %s)", call.Name, call.Spec.Tool))
		fmt.Println("  " + agent.Describe(agent.Submit(ctx, coder, call)))
	}
	step("kubectl get agenttoolcalls -n payments (a denied call is never stored)")
	if _, err = local.KubectlRun(ctx, os.Stdout, "get", "agenttoolcalls", "-n", demoNamespace); err != nil {
		return err
	}
	if err := approvalFlow(ctx, local, admin, coder); err != nil {
		return err
	}
	if err := gatewayFlow(ctx, local); err != nil {
		return err
	}
	step("verifying the decision ledger in " + local.LedgerDir)
	report, err := ledger.Verify(local.LedgerDir)
	if err != nil {
		return err
	}
	fmt.Println("  " + report.Summary())
	return nil
}

func readCall(file string) (*safetyv1alpha1.AgentToolCall, error) {
	return testenv.ReadObject[safetyv1alpha1.AgentToolCall]("config", "samples", "calls", file)
}
