package safety

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestZZReviewCost(t *testing.T) {
	p := mustCompile(t, &Profile{}, classRules)
	for _, c := range []struct{ name, cmd string }{
		{"proc deep", "cat /proc/x/" + strings.Repeat("a/", (MaxCommandBytes-20)/2)},
		{"nonproc deep", "cat /prxc/x/" + strings.Repeat("a/", (MaxCommandBytes-20)/2)},
		{"proc slashes", "cat /proc/x" + strings.Repeat("/", MaxCommandBytes-20)},
		{"proc dotdot", "cat /proc/x/y" + strings.Repeat("/a/..", (MaxCommandBytes-20)/5)},
		{"proc cwd chain", "cat " + strings.Repeat("/proc/self/cwd", (MaxCommandBytes-20)/14)},
		{"two paths", "cat /proc/x/" + strings.Repeat("a/", (MaxCommandBytes-40)/4) + " /proc/y/" + strings.Repeat("a/", (MaxCommandBytes-40)/4)},
	} {
		start := time.Now()
		d := Evaluate(p, shCall(c.cmd))
		fmt.Printf("%-15s len=%d %v %s %v\n", c.name, len(c.cmd), time.Since(start), d.Verdict, d.RuleID)
	}
	for _, c := range []struct{ name, path string }{
		{"read proc deep", "/proc/x/" + strings.Repeat("a/", (64<<10)/2)},
		{"read nonproc deep", "/prxc/x/" + strings.Repeat("a/", (64<<10)/2)},
	} {
		start := time.Now()
		d := Evaluate(p, readCall(c.path))
		fmt.Printf("%-15s len=%d %v %s %v\n", c.name, len(c.path), time.Since(start), d.Verdict, d.RuleID)
	}
	for _, c := range []string{"/proc/x/" + strings.Repeat("a/", (64<<10)/2)} {
		var ms1, ms2 = testing.AllocsPerRun(1, func() { resolvePath("/w", c) }), 0
		_ = ms2
		fmt.Println("allocs", ms1)
		r := testing.Benchmark(func(b *testing.B) { b.ReportAllocs(); for i := 0; i < b.N; i++ { resolvePath("/w", c) } })
		fmt.Println(r, r.MemString())
	}
}
