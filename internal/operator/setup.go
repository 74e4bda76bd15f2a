// Package operator wires toolgate's controllers and webhooks into a manager. main.go, the envtest
// suites and the e2e binary all use it, so tests exercise the production wiring.
package operator

import (
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/serving"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// Options configure the operator.
type Options struct {
	Controllers controller.Options
	// DisableWebhooks skips registering admission webhooks (for running controllers alone).
	DisableWebhooks bool
	// Ledger records every AgentToolCall decision; nil records nothing.
	Ledger webhookv1alpha1.DecisionLog
	// Flood refuses denied calls beyond the AuditLedger's rate, RateLimited; nil refuses none.
	Flood *audit.FloodControl
	// ServiceAccountApprovers are ServiceAccounts ("namespace:name") trusted to approve tool calls.
	ServiceAccountApprovers []string
	// Owner and Peers: which replica decides counters, and the channel the others forward on
	// (webhookv1alpha1.Options); nil Owner means this one.
	Owner webhookv1alpha1.CounterOwner
	Peers *serving.Peers
	// Counters is handed the gate's counters (webhookv1alpha1.CounterStore); nil makes one.
	Counters *webhookv1alpha1.CounterStore
}

// Setup registers every controller and webhook with mgr.
func Setup(mgr ctrl.Manager, opts Options) error {
	if opts.Controllers.Clock == nil {
		opts.Controllers.Clock = clock.RealClock{}
	}
	if c, ok := opts.Ledger.(audit.ConfigLog); ok && opts.Controllers.Configs == nil {
		opts.Controllers.Configs = c // plan locks beside the changes that led to them
	}
	counters := opts.Counters
	if counters == nil {
		counters = &webhookv1alpha1.CounterStore{}
	}
	if opts.Controllers.Counters == nil && !opts.DisableWebhooks {
		opts.Controllers.Counters = counters
	}
	if err := controller.SetupWithManager(mgr, opts.Controllers); err != nil {
		return err
	}
	if opts.DisableWebhooks {
		return nil
	}
	return webhookv1alpha1.SetupWithManager(mgr, webhookv1alpha1.Options{
		Clock: opts.Controllers.Clock, Ledger: opts.Ledger, Flood: opts.Flood, ServiceAccountApprovers: opts.ServiceAccountApprovers,
		Counters: counters, Owner: opts.Owner, Peers: opts.Peers,
	})
}
