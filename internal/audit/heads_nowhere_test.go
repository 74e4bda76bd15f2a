package audit

import (
	"context"
	"errors"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/metrics"
)

// Without the AuditLedger the publisher has nowhere to publish; that is not an error it returns
// (it tries again every 10 s), but it must be visible: Unpublished and the gauge say so until a
// head is published, and the log says it once (noLedger).
func TestAPublisherWithoutAnAuditLedgerSaysSo(t *testing.T) {
	key, err := ledger.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config(nil, t.TempDir(), "toolgate-0", clocktesting.NewFakeClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)))
	cfg.SigningKey = key
	j, err := ledger.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = j.Close() }()
	if err := (&Log{Journal: j}).RecordDecision(t.Context(), Decision{Decision: "allow", Call: "c", Namespace: "ns"}); err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	al := &safetyv1alpha1.AuditLedger{ObjectMeta: metav1.ObjectMeta{Name: LedgerName}}
	// The API server answers NotFound to a status apply of an object that does not exist; the fake
	// client would create it.
	c := fake.NewClientBuilder().WithScheme(scheme).WithStatusSubresource(al).WithInterceptorFuncs(interceptor.Funcs{
		SubResourceApply: func(ctx context.Context, c client.Client, sub string, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
			if err := c.Get(ctx, client.ObjectKey{Name: LedgerName}, &safetyv1alpha1.AuditLedger{}); err != nil {
				return err
			}
			return c.SubResource(sub).Apply(ctx, obj, opts...)
		}}).Build()
	p := &HeadPublisher{Client: c, Journal: j}
	if err := p.Unpublished(); err != nil {
		t.Fatalf("before any try: %v", err)
	}
	for range 2 {
		if err := p.Publish(t.Context()); err != nil {
			t.Fatalf("publishing without an AuditLedger: %v, want nil (it tries again)", err)
		}
		if err := p.Unpublished(); !errors.Is(err, ErrNoAuditLedger) {
			t.Fatalf("without an AuditLedger: Unpublished() = %v", err)
		}
		if g := gauge(t); g != 1 {
			t.Fatalf("toolgate_ledger_heads_unpublished = %v, want 1", g)
		}
	}
	if err := c.Create(t.Context(), al); err != nil {
		t.Fatal(err)
	}
	if err := p.Publish(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := p.Unpublished(); err != nil {
		t.Errorf("published: Unpublished() = %v", err)
	}
	if g := gauge(t); g != 0 {
		t.Errorf("published: toolgate_ledger_heads_unpublished = %v, want 0", g)
	}
	if err := c.Get(t.Context(), client.ObjectKeyFromObject(al), al); err != nil {
		t.Fatal(err)
	}
	if len(al.Status.SignedHeads) != 1 {
		t.Errorf("published heads: %+v", al.Status.SignedHeads)
	}
}

func gauge(t *testing.T) float64 {
	t.Helper()
	var m dto.Metric
	if err := metrics.LedgerHeadsUnpublished.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetGauge().GetValue()
}
