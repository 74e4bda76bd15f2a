// Command bench-lookups measures the webhook's and the lock's live lookups through a real
// kube-apiserver and etcd as a namespace's history grows: a plan's ToolApprovals and a
// ServiceAccount's AgentPlans, each found by the CRD's selectable field (what toolgate does),
// against a list of the whole namespace (what it did before, the baseline), with no other
// objects and with -history approvals of other plans and plans of other ServiceAccounts beside
// them. Lookups alternate between the two ways, so both see the same API server.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/benchstats"
	"github.com/toolgate/toolgate/internal/controller"
)

func main() {
	history := flag.Int("history", 1000,
		"approvals of other plans, and plans of other ServiceAccounts, in the grown namespace")
	lookups := flag.Int("lookups", 300, "lookups per way and cell")
	flag.Parse()
	if err := run(context.Background(), *history, *lookups); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, history, lookups int) error {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return err
	}
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		return err
	}
	env := &envtest.Environment{
		CRDDirectoryPaths: []string{filepath.Join("config", "crd", "bases")}, ErrorIfCRDPathMissing: true}
	cfg, err := env.Start()
	if err != nil {
		return err
	}
	defer func() { _ = env.Stop() }()
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return err
	}
	fmt.Printf("live lookups through kube-apiserver, p50 / p99 of %d each; "+
		"baseline = a list of the whole namespace\n\n", lookups)
	fmt.Println("| lookup | namespace holds | by selectable field | whole namespace (before) | field ÷ namespace |")
	fmt.Println("|---|---|---|---|---|")
	for _, others := range []int{0, history} {
		ns := fmt.Sprintf("lookups-%d", others)
		if err := populate(ctx, c, ns, others); err != nil {
			return err
		}
		byField := func() error { _, err := controller.ApprovalsOfPlan(ctx, c, ns, "target"); return err }
		whole := func() error { return c.List(ctx, &safetyv1alpha1.ToolApprovalList{}, client.InNamespace(ns)) }
		what := fmt.Sprintf("a plan's ToolApprovals | 1 + %d of other plans", others)
		if err := row(what, lookups, byField, whole); err != nil {
			return err
		}
		byField = func() error { _, err := controller.PlansOfServiceAccount(ctx, c, ns, "agent"); return err }
		whole = func() error { return c.List(ctx, &safetyv1alpha1.AgentPlanList{}, client.InNamespace(ns)) }
		what = fmt.Sprintf("a ServiceAccount's AgentPlans | 1 + %d of other ServiceAccounts", others)
		if err := row(what, lookups, byField, whole); err != nil {
			return err
		}
	}
	return nil
}

// populate makes ns with the target plan, its approval, and others more of each beside them.
func populate(ctx context.Context, c client.Client, ns string, others int) error {
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		return err
	}
	for i := 0; i <= others; i++ {
		name, sa := "target", "agent"
		if i > 0 {
			name, sa = fmt.Sprintf("old-%d", i), fmt.Sprintf("agent-%d", i)
		}
		p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: sa}}
		a := &safetyv1alpha1.ToolApproval{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name + "-read"},
			Spec: safetyv1alpha1.ToolApprovalSpec{Plan: name, Tool: "read-file", Approver: "person@example.com", Uses: 1}}
		for _, o := range []client.Object{p, a} {
			if err := c.Create(ctx, o); err != nil {
				return err
			}
		}
	}
	return nil
}

// row times the two ways alternately and prints their p50 and p99.
func row(what string, n int, byField, whole func() error) error {
	var a, b []time.Duration
	for range n {
		for _, way := range []struct {
			f   func() error
			out *[]time.Duration
		}{{byField, &a}, {whole, &b}} {
			start := time.Now()
			if err := way.f(); err != nil {
				return err
			}
			*way.out = append(*way.out, time.Since(start))
		}
	}
	pa, pb := quantile(a, 0.5), quantile(b, 0.5)
	fmt.Printf("| %s | %s / %s | %s / %s | %.2f× |\n", what, ms(pa), ms(quantile(a, 0.99)), ms(pb), ms(quantile(b, 0.99)),
		float64(pa)/float64(pb))
	return nil
}

func quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

// ms writes a latency as every benchmark of hack/ does.
var ms = benchstats.Millis
