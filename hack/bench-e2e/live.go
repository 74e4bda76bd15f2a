package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// livePlans spreads the live calls over plans, each with its own counters.
const livePlans = 4

// live measures the manager's memory with n calls alive at once (admitted, never finished, so the
// finished-call TTL keeps none of them from the cache), each as large as the CRD allows where it
// counts: 32 paths of 1 KiB and a 1 KiB working directory. The shipped memory limit is set from
// this number (docs/benchmarks.md).
func (b *bench) live(ctx context.Context, n int) error {
	fmt.Printf("\n## Memory with %d live calls (32 paths of 1 KiB and a 1 KiB cwd each)\n\n", n)
	before := memory(b.local.ManagerPID())
	start := time.Now()
	for k := range livePlans {
		p, err := b.plan(ctx, fmt.Sprintf("live-%d", k))
		if err != nil {
			return err
		}
		if err := b.createLarge(ctx, p, n/livePlans, 8); err != nil {
			return err
		}
	}
	fmt.Printf("created in %s\n\n", time.Since(start).Round(time.Second))
	fmt.Println("| manager | RSS | peak RSS (VmHWM) |")
	fmt.Println("|---|---|---|")
	fmt.Printf("| before | %s |\n", before)
	fmt.Printf("| with %d live calls | %s |\n", n, memory(b.local.ManagerPID()))
	return nil
}

// createLarge creates n large calls of plan p from clients concurrent clients and waits until the
// plan's usage counts them.
func (b *bench) createLarge(ctx context.Context, p *benchPlan, n, clients int) error {
	start0 := p.seq
	p.seq += n
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := c; i < n; i += clients {
				if err := p.agent.Create(ctx, largeCall(p.name, start0+i)); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	p.toolgate += int64(n)
	want := p.toolgate
	return waitFor(ctx, 2*time.Minute, func() bool { return b.admitted(ctx, p.name) >= want })
}

// largeCall is callObject for toolgate with the largest arguments the CRD accepts per path.
func largeCall(plan string, i int) *unstructured.Unstructured {
	u := callObject(groupToolgate, benchNS, plan, i)
	u.SetName(fmt.Sprintf("%s-large-%d", plan, i))
	long := func(prefix string) string {
		s := prefix + strings.Repeat("segment-0123456789/", 1024/19+1)
		return s[:1024]
	}
	paths := make([]any, 32)
	for k := range paths {
		paths[k] = long(fmt.Sprintf("src/%d/%d/", i, k))
	}
	u.Object["spec"].(map[string]any)["arguments"] = map[string]any{"paths": paths, "cwd": long("/workspace/")}
	return u
}
