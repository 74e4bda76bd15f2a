package testenv

import (
	"context"
	"net"
	"sync"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
)

// OTLPReceiver is an OTLP/gRPC trace collector served in the test's process: what a platform's
// collector receives from toolgate's processes. It keeps every span exported to it.
type OTLPReceiver struct {
	coltracepb.UnimplementedTraceServiceServer
	// Addr is the loopback address to export to, over plain gRPC.
	Addr string

	mu    sync.Mutex
	spans []*tracepb.Span
}

// ListenOTLP serves an OTLPReceiver until stop is called.
func ListenOTLP() (r *OTLPReceiver, stop func(), err error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	r = &OTLPReceiver{Addr: lis.Addr().String()}
	server := grpc.NewServer()
	coltracepb.RegisterTraceServiceServer(server, r)
	go func() { _ = server.Serve(lis) }()
	return r, server.Stop, nil
}

// ExportEnv are the environment variables that make a toolgate binary export its spans to r, at
// once rather than every five seconds.
func (r *OTLPReceiver) ExportEnv() []string {
	return []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://" + r.Addr, "OTEL_EXPORTER_OTLP_INSECURE=true",
		"OTEL_BSP_SCHEDULE_DELAY=100"}
}

// Export implements the OTLP trace service.
func (r *OTLPReceiver) Export(_ context.Context, req *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	return &coltracepb.ExportTraceServiceResponse{}, nil
}

// Where returns the received spans whose string attribute key is value.
func (r *OTLPReceiver) Where(key, value string) []*tracepb.Span {
	return r.matching(func(s *tracepb.Span) bool { return SpanAttrs(s)[key] == value })
}

// InTrace returns the received spans of the trace traceID (its 16 bytes) named name.
func (r *OTLPReceiver) InTrace(traceID []byte, name string) []*tracepb.Span {
	return r.matching(func(s *tracepb.Span) bool { return s.Name == name && string(s.TraceId) == string(traceID) })
}

func (r *OTLPReceiver) matching(keep func(*tracepb.Span) bool) []*tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*tracepb.Span
	for _, s := range r.spans {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// SpanAttrs are a span's string attributes.
func SpanAttrs(s *tracepb.Span) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes {
		m[kv.Key] = kv.Value.GetStringValue()
	}
	return m
}
