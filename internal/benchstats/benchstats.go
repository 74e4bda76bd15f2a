// Package benchstats holds what the benchmark programs in hack/ report latencies with, so that
// each reports a percentile and a time the same way.
package benchstats

import (
	"fmt"
	"slices"
	"time"
)

// Percentile is the p-th percentile of ds by nearest rank (the sample at index len*p/100 of the
// sorted samples, the last one at most); ds is left as it is. ds must not be empty.
func Percentile(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

// Millis writes d in milliseconds, to two decimals: "1.05 ms".
func Millis(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
