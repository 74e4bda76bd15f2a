package gctuning

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestApplyGCPercent(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })

	cases := []struct {
		name     string
		gogc     string
		want     int
		fromEnv  bool
		inEffect int // what the collector runs with afterwards (set to 100 before each case)
	}{
		{name: "no GOGC: the binary's default", gogc: "", want: 400, inEffect: 400},
		{name: "GOGC wins", gogc: "150", want: 150, fromEnv: true, inEffect: 100},
		{name: "GOGC=off wins", gogc: "off", want: -1, fromEnv: true, inEffect: 100},
		{name: "a negative GOGC is off", gogc: "-3", want: -1, fromEnv: true, inEffect: 100},
		{name: "an unreadable GOGC is the runtime's 100", gogc: "lots", want: 100, fromEnv: true, inEffect: 100},
		{name: "the runtime reads no plus sign", gogc: "+200", want: 100, fromEnv: true, inEffect: 100},
		{name: "nor a number past int32", gogc: "4294967296", want: 100, fromEnv: true, inEffect: 100},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			debug.SetGCPercent(100)
			got, fromEnv := ApplyGCPercent(func(k string) string {
				if k == "GOGC" {
					return c.gogc
				}
				return ""
			}, 400)
			if got != c.want || fromEnv != c.fromEnv {
				t.Fatalf("ApplyGCPercent = %d, %v; want %d, %v", got, fromEnv, c.want, c.fromEnv)
			}
			if now := debug.SetGCPercent(100); now != c.inEffect {
				t.Fatalf("the collector runs with GOGC %d; want %d", now, c.inEffect)
			}
		})
	}
}

func TestMemoryLimitInEffect(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	debug.SetMemoryLimit(math.MaxInt64)
	if got := MemoryLimitInEffect(); got != 0 {
		t.Fatalf("with no limit: %d, want 0", got)
	}
	debug.SetMemoryLimit(200 << 20)
	if got := MemoryLimitInEffect(); got != 200<<20 {
		t.Fatalf("with a 200 MiB limit: %d", got)
	}
}
