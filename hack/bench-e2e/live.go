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

// live measures the manager's memory with n calls alive at once, each as large as the CRD allows
// where it counts (32 paths of 1 KiB and a 1 KiB working directory), and each reported finished
// at once: the manager caches finished calls only, until their TTL (an hour by default) deletes
// them, so it holds as many as finish within one TTL; n stands for that. The shipped memory limit is set from this
// number (docs/benchmarks.md).
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
	fmt.Printf("created and finished in %s", time.Since(start).Round(time.Second))
	// The manager records each completion and marks the call; measure once that work is done.
	if err := waitFor(ctx, 5*time.Minute, func() bool { return managerIdle(ctx) }); err != nil {
		return fmt.Errorf("the manager did not go idle after the live calls: %w", err)
	}
	fmt.Printf("; the manager idle at %s\n\n", time.Since(start).Round(time.Second))
	fmt.Println("| manager | RSS | peak RSS (VmHWM) |")
	fmt.Println("|---|---|---|")
	fmt.Printf("| before | %s |\n", before)
	fmt.Printf("| with %d live calls | %s |\n", n, memory(b.local.ManagerPID()))
	return nil
}

// managerIdle says whether the manager used at most one clock tick (10 ms, 2% of a CPU) over the
// next half second.
func managerIdle(ctx context.Context) bool {
	before := processCPU()
	select {
	case <-ctx.Done():
		return false
	case <-time.After(500 * time.Millisecond):
	}
	return cpuSince(before)["manager"] <= clockTick
}

// createLarge creates n large finished calls of plan p from clients concurrent clients and waits until the
// plan's usage counts them.
func (b *bench) createLarge(ctx context.Context, p *benchPlan, n, clients int) error {
	start0 := p.seq
	p.seq += n
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := c; i < n; i += clients {
				call := largeCall(p.name, start0+i)
				if err := p.agent.Create(ctx, call); err != nil {
					errs <- err
					return
				}
				call.Object["status"] = map[string]any{"phase": "Succeeded"}
				if err := p.agent.Status().Update(ctx, call); err != nil {
					errs <- fmt.Errorf("finishing %s: %w", call.GetName(), err)
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
	return b.settled(ctx, p, n)
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
