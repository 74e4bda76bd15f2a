package v1alpha1

import (
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/toolgate/toolgate/internal/metrics"
)

// The gauge toolgate_loop_memory_bytes shows what the handler's loop detector holds after each
// call it counts, so a platform sees the detector approach --loop-memory-total.
func TestLoopMemoryGaugeFollowsTheDetector(t *testing.T) {
	srv, h, _ := newBenchHandler(t)
	for i, name := range []string{"a", "b", "c"} {
		serve(t, srv, review(t, agentUser, benchCall(name, "read-file", "")))
		held := h.loops.MemoryHeld()
		if held <= 0 {
			t.Fatalf("after %d calls the detector holds %d bytes", i+1, held)
		}
		gauge := &dto.Metric{}
		if err := metrics.LoopMemoryBytes.Write(gauge); err != nil {
			t.Fatal(err)
		}
		if got := gauge.GetGauge().GetValue(); got != float64(held) {
			t.Fatalf("after %d calls the gauge says %v bytes; the detector holds %d", i+1, got, held)
		}
	}
}
