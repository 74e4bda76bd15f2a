package main

import (
	"errors"
	"net/http"
	"sync/atomic"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"

	"github.com/toolgate/toolgate/internal/certs"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// setupWebhooks registers the admission webhooks once the serving certificate exists: with
// rotation on, the operator makes it first. The returned readiness check fails until then, so no
// Service routes admission reviews to a replica that cannot answer them.
func setupWebhooks(mgr ctrl.Manager, disabled, rotate bool, o certs.Options,
	opts webhookv1alpha1.Options) (healthz.Checker, error) {
	if disabled {
		return healthz.Ping, nil
	}
	provided := make(chan struct{})
	close(provided)
	var ready <-chan struct{} = provided
	if rotate {
		var err error
		if ready, err = certs.AddRotator(mgr, o); err != nil {
			return nil, err
		}
	}
	var registered atomic.Bool
	go func() {
		<-ready
		if err := webhookv1alpha1.SetupWithManager(mgr, opts); err != nil {
			setupLog.Error(err, "Failed to set up webhooks")
			return
		}
		registered.Store(true)
		setupLog.Info("Webhooks registered")
	}()
	return func(req *http.Request) error {
		if !registered.Load() {
			return errors.New("webhooks are not registered yet: waiting for the serving certificate")
		}
		return mgr.GetWebhookServer().StartedChecker()(req)
	}, nil
}
