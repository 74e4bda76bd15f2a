package metrics

import "github.com/prometheus/client_golang/prometheus"

// LedgerHeadsUnpublished is 1 while this process's ledger writer has a signed head and no
// AuditLedger to publish it into (audit.HeadPublisher): nothing outside the volume anchors the
// ledger then, so records cut from its end are not detected (docs/ledger.md, Publishing).
var LedgerHeadsUnpublished = prometheus.NewGauge(prometheus.GaugeOpts{Name: "toolgate_ledger_heads_unpublished",
	Help: "1 while the ledger writer's signed head has nowhere to be published (no AuditLedger default): nothing " +
		"outside the volume anchors the ledger (docs/ledger.md, Publishing)."})
