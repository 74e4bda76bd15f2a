package controller

import (
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
)

// Options configure toolgate's controllers.
type Options struct {
	// Clock is the time source of every reconciler; nil means the real clock.
	Clock clock.PassiveClock
}

// SetupWithManager registers every toolgate controller and index with mgr. main.go and the envtest
// suites both call it, so tests run exactly the production wiring.
func SetupWithManager(mgr ctrl.Manager, opts Options) error {
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	return nil
}
