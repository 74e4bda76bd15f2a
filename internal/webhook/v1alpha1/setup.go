package v1alpha1

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/go-logr/logr"
	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/metrics"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/internal/serving"
)

// The gate reads the tool registry (through the manager's cache) to decide every call.
// +kubebuilder:rbac:groups=safety.toolgate.dev,resources=agenttools,verbs=get;list;watch

// Options configure the webhooks.
type Options struct {
	// Clock is the time source; nil means the real clock.
	Clock clock.PassiveClock
	// Ledger records every AgentToolCall decision before it is answered; nil records nothing.
	Ledger DecisionLog
	// Flood refuses denied calls beyond the AuditLedger's rate, RateLimited; nil refuses none.
	Flood *audit.FloodControl
	// ServiceAccountApprovers are ServiceAccounts ("namespace:name") trusted to create
	// ToolApprovals; people always may, other ServiceAccounts never.
	ServiceAccountApprovers []string
	// Owner says which replica decides plans' counters; nil means this one, always (one replica,
	// or no leader election). Set, Peers must be too: the others forward to the owner through it.
	Owner CounterOwner
	// Peers is the replicas' channel to one another, where the owner takes forwarded reviews.
	Peers *serving.Peers
	// Counters, when set, is given the gate's counters, so the plan controller can wait for a
	// plan's to be stored (controller.Options.Counters).
	Counters *CounterStore
	// UsageFlushInterval is the least time between two writes of one plan's counters into its
	// status, and the pause in its decisions a write waits for; UsageFlushMaxInterval the longest
	// a write waits for that pause. 0 means DefaultUsageFlushInterval and
	// DefaultUsageFlushMaxInterval.
	UsageFlushInterval, UsageFlushMaxInterval time.Duration
	// LoopMemory is how many distinct calls per namespace the loop detector remembers; 0 means
	// safety.DefaultLoopKeys. LoopMemoryTotal is how many bytes its calls and stamps may hold over
	// every namespace; 0 means safety.DefaultLoopMemoryBytes.
	LoopMemory      int
	LoopMemoryTotal int64
}

// MaxLoopMemoryTotal is the largest --loop-memory-total: 1 TiB, beyond any manager's memory.
const MaxLoopMemoryTotal = 1 << 40

// AgentToolCallPath is where the API server sends AgentToolCall admission reviews.
const AgentToolCallPath = "/validate-safety-toolgate-dev-v1alpha1-agenttoolcall"

// ToolApprovalPath is where the API server sends ToolApproval admission reviews.
const ToolApprovalPath = "/validate-safety-toolgate-dev-v1alpha1-toolapproval"

// SetupWithManager registers every toolgate admission webhook with mgr; main.go and the envtest
// suites share it. The AgentToolCall handler reads facts through the manager's cache, whose
// indexes the controller package registers.
func SetupWithManager(mgr ctrl.Manager, opts Options) error {
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	loops, err := loopDetector(opts)
	if err != nil {
		return err
	}
	operator, err := whoAmI(mgr.GetConfig())
	if err != nil {
		return fmt.Errorf("asking the API server which user the operator is: %w", err)
	}
	configs, _ := opts.Ledger.(audit.ConfigLog)
	for _, setup := range []func(ctrl.Manager, audit.ConfigLog) error{
		SetupSafetyProfileWebhookWithManager,
		SetupAutomationProfileWebhookWithManager,
		SetupProjectPolicyWebhookWithManager,
		setupRecordedKinds,
		setupToolServerWebhook,
	} {
		if err := setup(mgr, configs); err != nil {
			return err
		}
	}
	metrics.Register()
	handler := NewAgentToolCallHandler(mgr.GetClient(), admission.NewDecoder(mgr.GetScheme()), opts.Clock)
	handler.Ledger = opts.Ledger
	handler.loops = loops
	if err := handler.watchTotals(mgr); err != nil {
		return err
	}
	if err := handler.usage.setFlushIntervals(opts.UsageFlushInterval, opts.UsageFlushMaxInterval); err != nil {
		return err
	}
	if err := mgr.Add(handler.usage); err != nil {
		return err
	}
	if opts.Counters != nil {
		opts.Counters.attach(handler.usage)
	}
	if opts.Owner != nil {
		handler.usage.deciding = opts.Owner.Deciding
		handler.usage.term, handler.usage.untrusting = nil, true
		if t, ok := opts.Owner.(interface{ Term() uint64 }); ok {
			handler.usage.term, handler.usage.untrusting = t.Term, false
		}
	}
	handler.Flood = opts.Flood
	// The counter reads plans live: its writes race the plan controller's, and a stale read
	// would only conflict.
	handler.denials = newDenialCounter(mgr.GetAPIReader(), mgr.GetClient())
	if err := mgr.Add(handler.denials); err != nil {
		return err
	}
	handler.approvals = &approvalGate{live: mgr.GetAPIReader(), writer: mgr.GetClient()}
	handler.Operator = operator
	handler.Live = mgr.GetAPIReader()
	handler.pins = &toolPinner{live: mgr.GetAPIReader(), writer: mgr.GetClient(), clock: opts.Clock}
	if err := registerAgentToolCall(mgr, opts, &callReviewServer{handler: handler, log: ctrl.Log.WithName("admission")}); err != nil {
		return err
	}

	// Live: approvals are rare, and a plan being deleted must be seen as such at once (check).
	approvals := &ToolApprovalHandler{Reader: mgr.GetAPIReader(), Decoder: handler.Decoder, ServiceAccountApprovers: map[string]bool{}}
	if l, ok := opts.Ledger.(audit.ApprovalLog); ok {
		approvals.Ledger = l
	}
	for _, sa := range opts.ServiceAccountApprovers {
		user, err := ServiceAccountUsername(sa)
		if err != nil {
			return fmt.Errorf("ServiceAccount approver: %w", err)
		}
		approvals.ServiceAccountApprovers[user] = true
	}
	mgr.GetWebhookServer().Register(ToolApprovalPath, &webhook.Admission{Handler: approvals})

	plans := &AgentPlanHandler{Reader: mgr.GetAPIReader(), Decoder: handler.Decoder, Clock: opts.Clock, Operator: operator}
	if l, ok := opts.Ledger.(audit.PlanLog); ok {
		plans.Ledger = l
	}
	plans.Configs = configs
	mgr.GetWebhookServer().Register(AgentPlanPath, &webhook.Admission{Handler: plans})
	return nil
}

// requestLogger is the gate's per-review logger: the request's UID only. controller-runtime's
// default encodes six fields into a new logger for every review, which cost the busiest webhook
// 6% of the manager's CPU (the bench-e2e profile); the gate logs little, and its ledger records
// say the rest.
func requestLogger(base logr.Logger, req *admission.Request) logr.Logger {
	if req == nil {
		return base
	}
	return base.WithValues("requestID", req.UID)
}

// registerAgentToolCall serves the gate at AgentToolCallPath: itself, or, with an owner, on the
// replica deciding counters and forwarded to it from every other.
func registerAgentToolCall(mgr ctrl.Manager, opts Options, gate http.Handler) error {
	if opts.Owner == nil {
		mgr.GetWebhookServer().Register(AgentToolCallPath, gate)
		return nil
	}
	if opts.Peers == nil {
		return errors.New("a counter owner needs the peer channel to forward to it")
	}
	// Added once the serving certificate exists (main.go registers the webhooks only then), as
	// the peer listener serves and presents it.
	if err := mgr.Add(opts.Peers); err != nil {
		return err
	}
	peers, err := opts.Peers.Client()
	if err != nil {
		return fmt.Errorf("the peer channel's client: %w", err)
	}
	mgr.GetWebhookServer().Register(AgentToolCallPath, &forwarder{local: gate, owner: opts.Owner, client: peers, path: AgentToolCallPath})
	opts.Peers.Mux().Handle(AgentToolCallPath, &decidingOnly{local: gate, owner: opts.Owner})
	return nil
}

// whoAmI is the username cfg authenticates as (a SelfSubjectReview, what `kubectl auth whoami`
// does): a ServiceAccount in a cluster, the admin in tests.
func whoAmI(cfg *rest.Config) (string, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return "", err
	}
	// Retried for a while: the API server may be briefly unreachable when the operator starts.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var name string
	var last error
	err = wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		review, err := cs.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		if err != nil {
			last = err
			return false, nil
		}
		name = review.Status.UserInfo.Username
		return true, nil
	})
	if err != nil {
		return "", errors.Join(err, last)
	}
	return name, nil
}

// loopDetector is the loop detector the options ask for, or an error naming the flag that is out
// of range: a negative --loop-memory would fall back to the default silently, a huge one overflow
// the floors' count.
func loopDetector(opts Options) (*safety.LoopDetector, error) {
	if opts.LoopMemory < 0 || opts.LoopMemory > safety.MaxLoopKeys {
		return nil, fmt.Errorf("--loop-memory is %d: the loop detector's memory must be a number of calls per namespace "+
			"from 1 to %d, or 0 for the default %d", opts.LoopMemory, safety.MaxLoopKeys, safety.DefaultLoopKeys)
	}
	total := opts.LoopMemoryTotal
	if total != 0 && (total < safety.MinLoopMemoryBytes || total > MaxLoopMemoryTotal) {
		return nil, fmt.Errorf("--loop-memory-total is %d bytes: the loop detector's memory over every namespace must be "+
			"from 16Mi to 1Ti (default 32Mi)", total)
	}
	loops := safety.NewLoopDetector(opts.Clock, opts.LoopMemory)
	loops.ForgotLive = metrics.LoopForgottenLive.Inc
	if total != 0 {
		loops.SetMemoryBudget(total)
	}
	return loops, nil
}
