package tracing

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace/noop"
)

// A platform's collector commonly takes OTLP over HTTP (port 4318): the OpenTelemetry
// specification makes http/protobuf the recommended default of OTEL_EXPORTER_OTLP_PROTOCOL, and
// "the other OTEL_* knobs" the package comment promises include it. A manager configured with
// OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf and an HTTP endpoint must deliver its decision spans
// there, not speak gRPC to an HTTP receiver and lose every span silently.
func TestFromEnvironmentHonoursTheOTLPProtocol(t *testing.T) {
	var (
		mu    sync.Mutex
		paths []string
	)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	}))
	defer receiver.Close()

	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "2000")
	t.Cleanup(func() { otel.SetTracerProvider(noop.NewTracerProvider()) })

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	stop, on, err := FromEnvironment(ctx, "toolgate-test", "test")
	if err != nil {
		t.Fatalf("FromEnvironment: %v", err)
	}
	if !on {
		t.Fatal("an OTLP endpoint is configured, but tracing is off")
	}
	Record(ctx, Decision{Namespace: "team-a", Plan: "p", Call: "c", Tool: "shell", Decision: "deny",
		Reason: "ToolSafetyViolation", Mode: "Enforce"})
	stop() // flushes

	mu.Lock()
	defer mu.Unlock()
	if slices.Contains(paths, "POST /v1/traces") {
		return
	}
	t.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf: the OTLP/HTTP receiver got %q, want a POST /v1/traces "+
		"(the exporter is always OTLP/gRPC, so the decision span was lost)", paths)
}

// OTEL_SDK_DISABLED=true is the specification's switch that turns the SDK off whatever else is
// set (an operator's way to stop exporting without removing the endpoint from a shared ConfigMap).
func TestFromEnvironmentHonoursSDKDisabled(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317")
	t.Setenv("OTEL_SDK_DISABLED", "true")
	t.Cleanup(func() { otel.SetTracerProvider(noop.NewTracerProvider()) })
	stop, on, err := FromEnvironment(context.Background(), "toolgate-test", "test")
	if err != nil {
		t.Fatalf("FromEnvironment: %v", err)
	}
	defer stop()
	if on {
		t.Error("OTEL_SDK_DISABLED=true, but FromEnvironment started exporting spans")
	}
}
