package gctuning

import (
	"strings"
	"testing"
)

func TestSoftMemoryLimit(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want int64
		err  string
	}{
		{name: "no limit", env: map[string]string{}, want: 0},
		{name: "128Mi", env: map[string]string{MemoryLimitEnv: "134217728"}, want: 120795955},
		{name: "GOMEMLIMIT wins", env: map[string]string{MemoryLimitEnv: "134217728", "GOMEMLIMIT": "64MiB"}, want: 0},
		{name: "a quantity, not bytes", env: map[string]string{MemoryLimitEnv: "128Mi"}, err: MemoryLimitEnv},
		{name: "zero", env: map[string]string{MemoryLimitEnv: "0"}, err: "positive"},
		{name: "negative", env: map[string]string{MemoryLimitEnv: "-5"}, err: "positive"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := SoftMemoryLimit(func(k string) string { return c.env[k] })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("SoftMemoryLimit = %d, %v; want %d", got, err, c.want)
			}
		})
	}
}
