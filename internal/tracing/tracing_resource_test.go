package tracing

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace/noop"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
)

type resourceReceiver struct {
	coltracepb.UnimplementedTraceServiceServer
	mu    sync.Mutex
	attrs map[string]string
}

func (r *resourceReceiver) Export(_ context.Context, req *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, kv := range rs.GetResource().GetAttributes() {
			r.attrs[kv.Key] = kv.GetValue().GetStringValue()
		}
	}
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

// OTEL_SERVICE_NAME is the specification's way for a platform to name a service ("sets the value
// of the service.name resource attribute"); a platform running toolgate in several clusters sets
// it per install, as for every other instrumented workload. The manager merges its hard-coded
// "toolgate-manager" over the environment's resource, so OTEL_SERVICE_NAME is silently ignored
// (OTEL_RESOURCE_ATTRIBUTES' other keys do arrive).
func TestFromEnvironmentHonoursOTELServiceName(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	recv := &resourceReceiver{attrs: map[string]string{}}
	server := grpc.NewServer()
	coltracepb.RegisterTraceServiceServer(server, recv)
	go func() { _ = server.Serve(lis) }()
	defer server.Stop()

	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+lis.Addr().String())
	t.Setenv("OTEL_EXPORTER_OTLP_INSECURE", "true")
	t.Setenv("OTEL_SERVICE_NAME", "toolgate-payments-prod")
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "k8s.cluster.name=prod-eu")
	t.Cleanup(func() { otel.SetTracerProvider(noop.NewTracerProvider()) })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	stop, on, err := FromEnvironment(ctx, "toolgate-manager", "test")
	if err != nil || !on {
		t.Fatalf("FromEnvironment: on %v, %v", on, err)
	}
	Record(ctx, Decision{Namespace: "team-a", Plan: "p", Call: "c", Tool: "shell", Decision: "allow", Mode: "Enforce"})
	stop()

	recv.mu.Lock()
	defer recv.mu.Unlock()
	if recv.attrs["k8s.cluster.name"] != "prod-eu" {
		t.Fatalf("fixture: OTEL_RESOURCE_ATTRIBUTES did not arrive: %v", recv.attrs)
	}
	if got := recv.attrs["service.name"]; got != "toolgate-payments-prod" {
		t.Errorf("OTEL_SERVICE_NAME=toolgate-payments-prod, but the spans' service.name is %q", got)
	}
}
