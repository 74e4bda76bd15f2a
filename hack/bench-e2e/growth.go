package main

import (
	"context"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// growth measures toolgate alone as history grows: a plan that already holds 1,000 and 5,000
// calls against an empty one, and a plan among 500 in its namespace against the same plan alone.
func (b *bench) growth(ctx context.Context, perRun int) error {
	fmt.Printf("\n## Growth (toolgate; %d measured creates per cell, after the history was made)\n\n", perRun)
	fmt.Println("| case | clients | p50 | p99 | throughput | p50 ÷ baseline |")
	fmt.Println("|---|---|---|---|---|---|")
	baseline := map[int]*result{}
	var settled []string
	for _, history := range []int{0, 1000, 5000} {
		p, err := b.plan(ctx, fmt.Sprintf("history-%d", history))
		if err != nil {
			return err
		}
		if history > 0 {
			made, err := b.batch(ctx, groupToolgate, p, history, 8)
			if err != nil {
				return err
			}
			settled = append(settled, fmt.Sprintf("%d creates from 8 clients: %.2f s", history, made.settle.Seconds()))
		}
		for _, clients := range []int{1, 8} {
			r, err := b.batch(ctx, groupToolgate, p, perRun, clients)
			if err != nil {
				return err
			}
			if history == 0 {
				baseline[clients] = r
			}
			fmt.Printf("| %d calls in the plan | %d | %s | %s | %.0f/s | %.2f× |\n", history, clients,
				ms(r.pct(50)), ms(r.pct(99)), r.throughput(), ratio(r.pct(50), baseline[clients].pct(50)))
		}
	}
	fmt.Printf("\nsettle (the last create until the plan's status counts every admitted call) after %s\n",
		strings.Join(settled, ", after "))
	fmt.Printf("\nmanager RSS with %s: %s\n", "the history above", rss(b.local.ManagerPID()))

	alone, err := b.plan(ctx, "among-many")
	if err != nil {
		return err
	}
	one := map[int]*result{}
	for _, clients := range []int{1, 8} {
		if one[clients], err = b.batch(ctx, groupToolgate, alone, perRun, clients); err != nil {
			return err
		}
	}
	// 499 more plans: their ServiceAccounts need not exist for the plans to be stored and locked.
	for i := range 499 {
		plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: benchNS, Name: fmt.Sprintf("idle-%d", i)},
			Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: fmt.Sprintf("idle-agent-%d", i),
				ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: openProfile}}}
		if err := b.admin.Create(ctx, plan); err != nil {
			return err
		}
	}
	for _, clients := range []int{1, 8} {
		r, err := b.batch(ctx, groupToolgate, alone, perRun, clients)
		if err != nil {
			return err
		}
		fmt.Printf("| 1 plan in the namespace | %d | %s | %s | %.0f/s | 1.00× |\n", clients,
			ms(one[clients].pct(50)), ms(one[clients].pct(99)), one[clients].throughput())
		fmt.Printf("| 500 plans in the namespace | %d | %s | %s | %.0f/s | %.2f× |\n", clients,
			ms(r.pct(50)), ms(r.pct(99)), r.throughput(), ratio(r.pct(50), one[clients].pct(50)))
	}
	fmt.Printf("\nmanager RSS at the end: %s\n", rss(b.local.ManagerPID()))
	return nil
}
