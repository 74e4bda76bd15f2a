package main

import (
	"context"
	"os"

	"github.com/toolgate/toolgate/internal/tracing"
)

// startTracing exports decision spans over OTLP when the standard OTEL_* variables name an
// endpoint, and returns what flushes them at exit (a no-op when tracing is off).
func startTracing() func() {
	stop, on, err := tracing.FromEnvironment(context.Background(), "toolgate-manager", version)
	if err != nil {
		setupLog.Error(err, "Failed to set up tracing")
		os.Exit(1)
	}
	if on {
		setupLog.Info("Tracing decisions over OTLP")
	}
	return stop
}
