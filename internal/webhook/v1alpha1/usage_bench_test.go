package v1alpha1

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// BenchmarkAgentToolCallHandlerHistory is the allowed read-file admission of
// BenchmarkAgentToolCallHandler with history around it: 5,000 calls of the plan already stored,
// or 499 other plans (with spend) in the namespace. Admission reads every fact by key, so the rows
// should match the empty case; compare them as ratios within one run.
//
//	go test ./internal/webhook/v1alpha1/ -run '^$' -bench HandlerHistory -benchtime 2s -count 3 -benchmem
func BenchmarkAgentToolCallHandlerHistory(b *testing.B) {
	for _, bc := range []struct {
		name         string
		calls, plans int
	}{
		{"calls-0", 0, 1}, {"calls-5000", 5000, 1}, {"plans-1", 0, 1}, {"plans-500", 0, 500},
	} {
		b.Run(bc.name, func(b *testing.B) {
			h, clk := newBenchAgentToolCallHandler(b)
			c := h.Reader.(client.Client)
			ctx := context.Background()
			for i := range bc.calls {
				call := benchCall(fmt.Sprintf("old-%d", i), "read-file", "")
				call.Spec.Arguments.Paths = []string{fmt.Sprintf("src/old/%d.go", i)}
				if err := c.Create(ctx, call); err != nil {
					b.Fatal(err)
				}
			}
			for i := 1; i < bc.plans; i++ {
				p := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("other-%d", i),
					UID: types.UID(fmt.Sprintf("uid-%d", i))}, Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "other"}}
				if err := c.Create(ctx, p); err != nil {
					b.Fatal(err)
				}
				p.Status.Usage = safetyv1alpha1.PlanUsage{Calls: 10, AccumulatedCost: "0.01"}
				if err := c.Status().Update(ctx, p); err != nil {
					b.Fatal(err)
				}
				h.totals.observe(p) // as the plan informer would
			}
			srv := &webhook.Admission{Handler: h}
			bodies := stepBodies(b, benchCall("a", "read-file", ""))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				clk.SetTime(clk.Now().Add(time.Minute))
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodPost, AgentToolCallPath, bytes.NewReader(bodies[i%len(bodies)]))
				req.Header.Set("Content-Type", "application/json")
				srv.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), []byte(`"allowed":true`)) {
					b.Fatalf("not admitted: %s", rec.Body.String())
				}
				i++
				forgetUsage(h, int64(i))
			}
		})
	}
}
