package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// growth measures toolgate alone as history grows: a plan that already holds 1,000 and 5,000
// calls against an empty one, and a plan among 500 in its namespace against a plan alone in
// another. Every history is made first; then the cases of a comparison take turns, rotated per
// round, as the modes do, so a busy moment of this shared machine falls on all of them rather
// than on one case's cell. Each cell pools its rounds (perRun creates in all).
func (b *bench) growth(ctx context.Context, rounds, perRun int) error {
	fmt.Printf("\n## Growth (toolgate; %d measured creates per cell, after the history was made; at 1 client "+
		"call by call in turns, at 8 in batches of at most %d, cases rotated per round)\n\n", perRun, maxBatch)
	var histories []growthCase
	var settled []string
	for _, history := range []int{0, 1000, 5000} {
		p, err := b.plan(ctx, fmt.Sprintf("history-%d", history))
		if err != nil {
			return err
		}
		c := growthCase{name: fmt.Sprintf("%d calls in the plan", history), plan: p}
		if history == 0 {
			// The empty plan's cells at 1 client leave perRun calls in it: the cells at 8
			// clients take a new empty plan.
			c.renew = func(ctx context.Context, clients int) (*benchPlan, error) {
				return b.plan(ctx, fmt.Sprintf("history-0-%d-clients", clients))
			}
		} else {
			made, err := b.batch(ctx, groupToolgate, p, history, 8)
			if err != nil {
				return err
			}
			settled = append(settled, fmt.Sprintf("%d creates from 8 clients: %.2f s", history, made.settle.Seconds()))
		}
		histories = append(histories, c)
	}
	if err := b.growthTable(ctx, histories, rounds, perRun); err != nil {
		return err
	}
	fmt.Printf("\nsettle (the last create until the plan's status counts every admitted call) after %s\n",
		strings.Join(settled, ", after "))
	fmt.Printf("\nmanager RSS with %s: %s\n\n", "the history above", rss(b.local.ManagerPID()))

	return b.namespaces(ctx, rounds, perRun)
}

// namespaces measures a plan among 500 in its namespace against a plan alone in another. The
// baseline and a second plan alone (an A/A control: what two cases that differ in nothing
// measure apart) each have a namespace of their own; so do 500 plans, with no calls yet, so that
// the one thing they differ in from the baseline is the number of plans. A fourth case puts the
// 500 plans in the benchmark's namespace, which by now also holds thousands of calls. Each cell
// takes perRun creates.
func (b *bench) namespaces(ctx context.Context, rounds, perRun int) error {
	fmt.Printf("\nplans in the namespace (the 1-plan cases, and 500 plans with no calls yet, each in a " +
		"namespace of their own):\n\n")
	alone, err := b.namespaceWith(ctx, "bench-alone", "alone", 0)
	if err != nil {
		return err
	}
	control, err := b.namespaceWith(ctx, "bench-alone-2", "alone-2", 0)
	if err != nil {
		return err
	}
	many, err := b.namespaceWith(ctx, "bench-many", "among-many", 499)
	if err != nil {
		return err
	}
	busy, err := b.plan(ctx, "among-many")
	if err != nil {
		return err
	}
	if err := b.idlePlans(ctx, benchNS, 499); err != nil {
		return err
	}
	err = b.growthTable(ctx, []growthCase{
		{name: "1 plan in the namespace", plan: alone},
		{name: "1 plan in another namespace (A/A control)", plan: control},
		{name: "500 plans in the namespace", plan: many},
		{name: "500 plans among the calls above", plan: busy},
	}, rounds, perRun)
	if err != nil {
		return err
	}
	fmt.Printf("\nmanager RSS at the end: %s\n", rss(b.local.ManagerPID()))
	return nil
}

// namespaceWith creates namespace ns, plan name in it and idle more plans beside it.
func (b *bench) namespaceWith(ctx context.Context, ns, name string, idle int) (*benchPlan, error) {
	if err := b.admin.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		return nil, err
	}
	p, err := b.planIn(ctx, ns, name)
	if err != nil {
		return nil, err
	}
	return p, b.idlePlans(ctx, ns, idle)
}

// idlePlans creates n more plans in namespace ns and waits until the operator has locked them,
// so that the measurement does not share the machine with that work. Their ServiceAccounts need
// not exist for the plans to be stored and locked.
func (b *bench) idlePlans(ctx context.Context, ns string, n int) error {
	for i := range n {
		plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("idle-%d", i)},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: fmt.Sprintf("idle-agent-%d", i),
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: openProfile}}}
		if err := b.admin.Create(ctx, plan); err != nil {
			return err
		}
	}
	if err := waitFor(ctx, 2*time.Minute, func() bool { return b.allLocked(ctx, ns) }); err != nil {
		return fmt.Errorf("the %d plans in %s were not locked: %w", n, ns, err)
	}
	return nil
}

// growthCase is one cell row of a growth comparison: a plan and what its history is.
type growthCase struct {
	name string
	plan *benchPlan
	// renew, when set, gives the case a new plan before the cells of each client count after
	// the first, so that its history stays what its name says.
	renew func(ctx context.Context, clients int) (*benchPlan, error)
}

// growthTable measures cases (the first is the baseline) at 1 and 8 clients and prints one row
// per case and client count. At 1 client the cases take turns call by call, in a new random
// order each turn (turns), so that every case meets the machine as it is at that moment; at 8
// clients each case runs in batches of its own, taking turns per round, so that a case whose
// calls cost more CPU shows it in its own latency and throughput.
func (b *bench) growthTable(ctx context.Context, cases []growthCase, rounds, perRun int) error {
	fmt.Println("| case | clients | p50 | p99 | throughput | p50 ÷ baseline | " +
		"CPU per create (8 clients: all processes) | ÷ baseline |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for k, clients := range []int{1, 8} {
		for i, c := range cases {
			if k > 0 && c.renew != nil {
				p, err := c.renew(ctx, clients)
				if err != nil {
					return err
				}
				cases[i].plan = p
			}
		}
		measure := b.turns
		if clients > 1 {
			measure = func(ctx context.Context, cases []growthCase, n int) ([]*result, error) {
				return b.roundsOfBatches(ctx, cases, rounds, n, clients)
			}
		}
		pooled, err := measure(ctx, cases, perRun)
		if err != nil {
			return err
		}
		for i, c := range cases {
			r := pooled[i]
			cpu, cpuRatio := "", "" // the turns at 1 client share their CPU time
			if r.cpu != nil {
				cpu, cpuRatio = ms(r.cpuPerCreate()), fmt.Sprintf("%.2f×", ratio(r.cpuPerCreate(), pooled[0].cpuPerCreate()))
			}
			fmt.Printf("| %s | %d | %s | %s | %.0f/s | %.2f× | %s | %s |\n", c.name, clients,
				ms(r.pct(50)), ms(r.pct(99)), r.throughput(), ratio(r.pct(50), pooled[0].pct(50)), cpu, cpuRatio)
		}
	}
	return nil
}

// maxBatch bounds the creates of one case's batch at 8 clients: about 0.2 s of them.
const maxBatch = 100

// roundsOfBatches measures perRun creates of each case from clients concurrent clients, in one
// batch per case and round, the cases rotated per round, and pools each case's rounds.
func (b *bench) roundsOfBatches(ctx context.Context, cases []growthCase, rounds, perRun, clients int) (
	[]*result, error,
) {
	pooled := make([]*result, len(cases))
	// Batches of about maxBatch creates, so that a busy second of this shared machine, which moves
	// one batch, is one of many in a cell; and whole rotations only, so that every case goes first
	// in a round equally often.
	rounds = max(rounds, (perRun+maxBatch-1)/maxBatch)
	rounds = (rounds + len(cases) - 1) / len(cases) * len(cases)
	for r := range rounds {
		n := perRun / rounds
		if r < perRun%rounds {
			n++
		}
		for k := range cases {
			i := (k + r) % len(cases)
			res, err := b.batch(ctx, groupToolgate, cases[i].plan, n, clients)
			if err != nil {
				return nil, fmt.Errorf("%s, %d clients: %w", cases[i].name, clients, err)
			}
			pooled[i] = pooled[i].merge(res)
		}
	}
	return pooled, nil
}

// allLocked reports whether every plan in namespace ns is locked.
func (b *bench) allLocked(ctx context.Context, ns string) bool {
	plans := &safetyv1alpha1.AgentPlanList{}
	if b.admin.List(ctx, plans, client.InNamespace(ns)) != nil {
		return false
	}
	for _, p := range plans.Items {
		if p.Status.Snapshot == nil {
			return false
		}
	}
	return true
}

// turns creates n calls in each case's plan from one client, one call per case a turn in a new
// random order each turn, and measures each create; a case's throughput is one over its mean
// latency. It then waits until each plan's status counts every call.
func (b *bench) turns(ctx context.Context, cases []growthCase, n int) ([]*result, error) {
	out := make([]*result, len(cases))
	for i := range cases {
		out[i] = &result{lat: make([]time.Duration, 0, n), n: n, runs: 1}
	}
	for range n {
		for _, i := range rand.Perm(len(cases)) {
			p := cases[i].plan
			obj := callObject(groupToolgate, p.ns, p.name, p.seq)
			p.seq++
			t := time.Now()
			if err := p.agent.Create(ctx, obj); err != nil {
				return nil, fmt.Errorf("%s: create %s: %w", cases[i].name, obj.GetName(), err)
			}
			d := time.Since(t)
			out[i].lat = append(out[i].lat, d)
			out[i].wall += d
		}
	}
	for _, c := range cases {
		if err := b.settled(ctx, c.plan, n); err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
	}
	return out, nil
}
