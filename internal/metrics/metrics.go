// Package metrics holds toolgate's Prometheus metrics, registered with controller-runtime's
// registry so the manager's metrics endpoint serves them. Labels are bounded: decision, reason and
// mode, never plan, call or user names.
package metrics

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
)

var (
	// Decisions counts admission decisions on AgentToolCalls.
	Decisions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "toolgate_decisions_total",
		Help: "AgentToolCall admission decisions by decision (allow, deny, would_deny), reason and enforcement mode.",
	}, []string{"decision", "reason", "mode"})

	// EvaluationSeconds is the time the engine spends on one call.
	EvaluationSeconds = histogram("toolgate_evaluation_seconds",
		"Time internal/safety.Evaluate takes for one AgentToolCall.",
		prometheus.ExponentialBuckets(1e-6, 4, 10))

	// HandlingSeconds is the time the webhook takes to answer, from decode to response.
	HandlingSeconds = histogram("toolgate_admission_handling_seconds",
		"Time the AgentToolCall webhook takes to answer an admission request.",
		prometheus.ExponentialBuckets(5e-5, 4, 10))

	// LedgerFailures counts decisions whose record could not be made durable.
	LedgerFailures = counter("toolgate_ledger_failures_total",
		"Admission decisions whose ledger record could not be made durable (denied LedgerUnavailable, or lost under failurePolicy Ignore).")

	// LedgerCommitSeconds is how long the ledger takes to make one batch of decisions durable
	// (its write and fdatasync): the disk's share of every decision's latency, as
	// etcd_disk_wal_fsync_duration_seconds is etcd's. Every webhook answer waits for one.
	LedgerCommitSeconds = histogram("toolgate_ledger_commit_seconds",
		"Time the decision ledger takes to write and sync one batch of records (group commit).",
		prometheus.ExponentialBuckets(5e-5, 2, 14))

	// LedgerCommittedRecords counts the records the ledger made durable; divided by the commit
	// histogram's count it is how many records a batch held.
	LedgerCommittedRecords = counter("toolgate_ledger_committed_records_total",
		"Records the decision ledger made durable.")

	// LoopForgottenLive counts calls the loop detector forgot while they still counted
	// (docs/engine.md, Loop detection): rising, a namespace makes more distinct calls a minute than
	// --loop-memory, and its new calls start counting from what those had.
	LoopForgottenLive = counter("toolgate_loop_forgotten_live_total",
		"Calls the loop detector forgot while they still had runs within the loop window, because their namespace made more "+
			"distinct calls within it than --loop-memory; new calls there start counting from what those had, and a share "+
			"growing with the rate is denied ToolLoopDetected (docs/engine.md, Loop detection).")

	// LoopMemoryBytes is what the loop detector holds over every namespace, against
	// --loop-memory-total.
	LoopMemoryBytes = prometheus.NewGauge(prometheus.GaugeOpts{Name: "toolgate_loop_memory_bytes",
		Help: "Bytes the loop detector's calls and timestamps hold over every namespace; past --loop-memory-total the " +
			"namespace holding the most gives memory back and over-counts its new calls (docs/engine.md, Loop detection)."})

	registerOnce sync.Once
)

// counter is a counter without labels.
func counter(name, help string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
}

// histogram is a histogram of seconds.
func histogram(name, help string, buckets []float64) prometheus.Histogram {
	return prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets})
}

// ObserveLedgerCommit is the ledger's ObserveCommit: one durable batch of records.
func ObserveLedgerCommit(records int, took time.Duration) {
	LedgerCommitSeconds.Observe(took.Seconds())
	LedgerCommittedRecords.Add(float64(records))
}

// Register adds toolgate's metrics to controller-runtime's registry once per process.
func Register() {
	registerOnce.Do(func() {
		ctrlmetrics.Registry.MustRegister(Decisions, EvaluationSeconds, HandlingSeconds, LedgerFailures,
			LedgerCommitSeconds, LedgerCommittedRecords, LoopForgottenLive, LoopMemoryBytes, LedgerHeadsUnpublished)
	})
}

// GatewayCallSeconds is where a tools/call request's time in toolgate-gateway goes, by outcome
// (forwarded: admitted and sent upstream; unsent: admitted, never sent; denied) and part: total,
// from the request's arrival to the handler's return; agent, reading the request's body and
// writing the answer, at the agent's pace; api_server, the caller's TokenReview when not cached
// and the AgentToolCall create, as a client makes them, encoding and decoding included; report,
// the call's outcome written as the plan's cost reporter; upstream, getting a session with the
// ToolServer (a connect included) and each HTTP request to it, from its start to its answer's last
// byte or the call's end; turn, the wait for the plan's metered call in progress. What is left is
// GatewayOwnSeconds.
var GatewayCallSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
	Name: "toolgate_gateway_call_seconds",
	Help: "Time a tools/call request spends in toolgate-gateway, by outcome (forwarded, unsent, denied) and part " +
		"(total, agent, api_server, report, upstream, turn).",
	Buckets: prometheus.ExponentialBuckets(1e-4, 2, 21), // 100 µs to 105 s
}, []string{"outcome", "part"})

// GatewayOwnSeconds is what toolgate-gateway itself adds to a tools/call: the request's total less
// every part of GatewayCallSeconds but the total (issue 19's "gateway's own added latency": what a
// call through the gateway takes beyond the create and the direct call). Its MCP client's encoding
// of the call and decoding of the answer are the gateway's own: a direct client does that work
// once, the gateway's path twice. Only a request that submitted one call is observed (a JSON-RPC
// batch of several is not: their parts overlap).
var GatewayOwnSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
	Name: "toolgate_gateway_call_own_seconds",
	Help: "Time toolgate-gateway itself adds to a tools/call (total less its waits on the agent, the API server, " +
		"the report, the upstream and the plan's metered turn), by outcome (forwarded, unsent, denied).",
	// 25 µs to 76 ms in steps of 1.2×: fine enough below a millisecond to tell the gateway's own
	// share from its 1 ms target.
	Buckets: prometheus.ExponentialBuckets(2.5e-5, 1.2, 45),
}, []string{"outcome"})

var registerGatewayOnce sync.Once

// RegisterGateway adds toolgate-gateway's metrics to controller-runtime's registry once per
// process.
func RegisterGateway() {
	registerGatewayOnce.Do(func() { ctrlmetrics.Registry.MustRegister(GatewayCallSeconds, GatewayOwnSeconds) })
}
