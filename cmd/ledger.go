package main

import (
	"context"
	"fmt"
	"os"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// openLedger opens this replica's journal with the configuration of the cluster's AuditLedger,
// read live because the cache has not started yet. Rotation, retention and redaction settings
// apply from the next start; the failure policy is read per decision and applies at once.
func openLedger(mgr ctrl.Manager, dir, writer string) (*ledger.Journal, webhookv1alpha1.DecisionLog, error) {
	if dir == "" {
		setupLog.Info("The decision ledger is disabled (--ledger-dir is empty)")
		return nil, nil, nil
	}
	var spec *safetyv1alpha1.AuditLedgerSpec
	al := &safetyv1alpha1.AuditLedger{}
	err := mgr.GetAPIReader().Get(context.Background(), client.ObjectKey{Name: audit.LedgerName}, al)
	switch {
	case err == nil:
		spec = &al.Spec
	case !apierrors.IsNotFound(err) && !apierrors.IsForbidden(err):
		return nil, nil, fmt.Errorf("reading AuditLedger %s: %w", audit.LedgerName, err)
	}
	j, err := ledger.Open(audit.Config(spec, dir, writer, nil))
	if err != nil {
		return nil, nil, err
	}
	return j, &audit.Log{Journal: j}, nil
}

// defaultWriter is the pod name in a cluster, the host name elsewhere.
func defaultWriter() string {
	if name := os.Getenv("POD_NAME"); name != "" {
		return name
	}
	host, _ := os.Hostname()
	return host
}
