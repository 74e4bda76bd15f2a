package v1alpha1_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/internal/tracing"
)

// tracedToReceiver starts decision tracing, for the rest of the spec, to an OTLP receiver of its
// own, and returns the receiver and the shutdown that flushes the spans to it.
func tracedToReceiver() (*testenv.OTLPReceiver, func(context.Context) error) {
	GinkgoHelper()
	receiver, stop, err := testenv.ListenOTLP()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stop)
	shutdown, err := tracing.Start(ctx, "toolgate-test", "test",
		otlptracegrpc.WithEndpoint(receiver.Addr), otlptracegrpc.WithInsecure())
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { otel.SetTracerProvider(noop.NewTracerProvider()) })
	return receiver, shutdown
}
