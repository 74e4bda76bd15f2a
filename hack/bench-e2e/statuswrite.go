package main

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// statusWrites measures what one write of a plan's status costs the API server, the write every
// batch of admissions waits for: step counters as the map status.usage.stepAttempts against the
// keyed list the field replaced (status.usage.steps, still in the schema for old plans), and a
// ConfigMap of as many keys as a yardstick; shapes interleaved per round.
func (b *bench) statusWrites(ctx context.Context, rounds, perShape int) error {
	cfg := rest.CopyConfig(b.local.Admin)
	cfg.QPS = -1 // no client-side rate limit: the API server's time is what is measured
	c, err := client.New(cfg, client.Options{Scheme: b.scheme})
	if err != nil {
		return err
	}
	if _, err := b.plan(ctx, "status-writes"); err != nil {
		return err
	}
	meta := metav1.ObjectMeta{Namespace: benchNS, Name: "status-writes"}
	cm := &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{}}
	for k := range 100 {
		cm.Data[fmt.Sprint("s", k)] = "1"
	}
	if err := c.Create(ctx, cm); err != nil {
		return err
	}
	type shape struct {
		name  string
		write func(i int) (time.Duration, error)
	}
	planWrite := func(steps int, legacy, patch bool) func(int) (time.Duration, error) {
		return func(i int) (time.Duration, error) {
			for {
				plan := &safetyv1alpha1.AgentPlan{}
				if err := c.Get(ctx, client.ObjectKey{Namespace: benchNS, Name: "status-writes"}, plan); err != nil {
					return 0, err
				}
				before := plan.DeepCopy()
				u := &plan.Status.Usage
				u.Calls++
				u.StepAttempts, u.Steps = nil, nil
				for k := range steps {
					if legacy {
						u.Steps = append(u.Steps, safetyv1alpha1.StepUsage{Step: fmt.Sprint("s", k), Attempts: int32(i)})
					} else {
						if u.StepAttempts == nil {
							u.StepAttempts = map[string]int32{}
						}
						u.StepAttempts[fmt.Sprint("s", k)] = int32(i)
					}
				}
				t := time.Now()
				var err error
				if patch {
					err = c.Status().Patch(ctx, plan, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
				} else {
					err = c.Status().Update(ctx, plan)
				}
				if apierrors.IsConflict(err) { // the plan controller wrote it: not a sample
					continue
				}
				return time.Since(t), err
			}
		}
	}
	shapes := []shape{
		{"plan status, 1 step counter", planWrite(1, false, false)},
		{"plan status, 100 step counters (map: stepAttempts)", planWrite(100, false, false)},
		{"plan status, 100 step counters (map), as a merge patch of what changed", planWrite(100, false, true)},
		{"plan status, 100 step counters (keyed list: the former steps)", planWrite(100, true, false)},
		{"ConfigMap, 100 keys (yardstick)", func(i int) (time.Duration, error) {
			cm.Data["s0"] = fmt.Sprint(i)
			t := time.Now()
			err := c.Update(ctx, cm)
			return time.Since(t), err
		}},
	}
	lat := make([][]time.Duration, len(shapes))
	for r := range rounds {
		for k := range shapes {
			s := (k + r) % len(shapes)
			for i := range perShape {
				d, err := shapes[s].write(r*perShape + i + 1)
				if err != nil {
					return fmt.Errorf("%s: %w", shapes[s].name, err)
				}
				lat[s] = append(lat[s], d)
			}
		}
	}
	fmt.Printf("\n## One status write (%d rounds of %d writes per shape, interleaved)\n\n", rounds, perShape)
	fmt.Println("| write | p50 | p90 | ÷ ConfigMap p50 |")
	fmt.Println("|---|---|---|---|")
	yard := (&result{lat: lat[len(shapes)-1]}).pct(50)
	for k, s := range shapes {
		r := &result{lat: lat[k]}
		fmt.Printf("| %s | %s | %s | %.2f× |\n", s.name, ms(r.pct(50)), ms(r.pct(90)), ratio(r.pct(50), yard))
	}
	return nil
}
