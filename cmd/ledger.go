package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/metrics"
	webhookv1alpha1 "github.com/toolgate/toolgate/internal/webhook/v1alpha1"
)

// openLedger opens this replica's journal with the configuration of the cluster's AuditLedger,
// read live because the cache has not started yet. Later edits of rotation, compression,
// retention and redaction are applied to the running journal by the AuditLedger controller; the
// failure policy is read per decision and applies at once. A spec the journal refuses does not
// stop the manager: the journal opens with the defaults and the controller reports the spec
// (Ready=False, ConfigRejected). The decision log keeps an account of records that fail and a
// LossFlusher, on every replica, records it as soon as the journal is writable again.
func openLedger(mgr ctrl.Manager, dir, writer, keyNamespace string) (
	*ledger.Journal, webhookv1alpha1.DecisionLog, *audit.FloodControl, error) {
	if dir == "" {
		setupLog.Info("The decision ledger is disabled (--ledger-dir is empty)")
		return nil, nil, nil, nil
	}
	// The cache has not started: read and fill the signing key Secret directly.
	direct, err := client.New(mgr.GetConfig(), client.Options{Scheme: mgr.GetScheme()})
	if err != nil {
		return nil, nil, nil, err
	}
	keyName := client.ObjectKey{Namespace: keyNamespace, Name: audit.SigningSecretName}
	key, err := audit.LoadSigningKey(context.Background(), direct, keyName)
	if err != nil {
		return nil, nil, nil, err
	}
	var spec *safetyv1alpha1.AuditLedgerSpec
	al := &safetyv1alpha1.AuditLedger{}
	err = mgr.GetAPIReader().Get(context.Background(), client.ObjectKey{Name: audit.LedgerName}, al)
	switch {
	case err == nil:
		spec = &al.Spec
	case !apierrors.IsNotFound(err) && !apierrors.IsForbidden(err):
		return nil, nil, nil, fmt.Errorf("reading AuditLedger %s: %w", audit.LedgerName, err)
	}
	config := func(spec *safetyv1alpha1.AuditLedgerSpec) ledger.Config {
		cfg := audit.Config(spec, dir, writer, nil)
		cfg.SigningKey, cfg.ObserveCommit = key, metrics.ObserveLedgerCommit
		return cfg
	}
	j, err := openWaiting(config(spec))
	if _, refused := errors.AsType[*ledger.ConfigError](err); refused {
		setupLog.Error(audit.SpecError(err), "The ledger refuses the AuditLedger's settings; opening it with the defaults")
		j, err = openWaiting(config(nil))
	}
	if err != nil {
		return nil, nil, nil, err
	}
	log := &audit.Log{Journal: j, FailurePolicy: audit.FailurePolicyFrom(mgr.GetClient())}
	flood := &audit.FloodControl{Log: log, Settings: audit.FloodSettingsFrom(mgr.GetClient())}
	publisher := &audit.HeadPublisher{Client: mgr.GetClient(), Journal: j}
	for _, r := range []manager.Runnable{&audit.LossFlusher{Log: log}, publisher, flood} {
		if err := mgr.Add(r); err != nil {
			_ = j.Close()
			return nil, nil, nil, err
		}
	}
	return j, log, flood, nil
}

// writerWait is how long the manager waits for its chain while another journal holds it: the
// leader's AuditLedger controller maintains the chains of writers that no longer run
// (Journal.MaintainIdle), and a container restarted under the same pod name can find its own
// chain held for the moments that takes.
const writerWait = 2 * time.Minute

// openWaiting opens the journal, retrying while another journal holds the writer's chain.
func openWaiting(cfg ledger.Config) (*ledger.Journal, error) {
	deadline := time.Now().Add(writerWait)
	for {
		j, err := ledger.Open(cfg)
		if !errors.Is(err, ledger.ErrWriterInUse) || time.Now().After(deadline) {
			return j, err
		}
		setupLog.Info("The ledger writer's chain is held by another journal; waiting", "writer", cfg.Writer)
		time.Sleep(time.Second)
	}
}

// defaultWriter is the pod name in a cluster, the host name elsewhere.
func defaultWriter() string {
	if name := os.Getenv("POD_NAME"); name != "" {
		return name
	}
	host, _ := os.Hostname()
	return host
}
