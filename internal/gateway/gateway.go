// Package gateway is toolgate-gateway: an MCP server over Streamable HTTP in front of the
// upstream MCP servers registered as ToolServers. Every tools/call becomes an AgentToolCall that
// the gateway creates with the caller's own token, so the admission webhook judges the agent
// itself; only admitted calls reach the upstream server.
package gateway

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/trace"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	authenticationv1client "k8s.io/client-go/kubernetes/typed/authentication/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// Keys of a tools/call request's _meta the gateway reads: the agent's claims about the call.
const (
	// MetaStep names the plan step the call serves; without it the step is the tool and a
	// digest of its arguments (toolcall.StepFor), so repeating a call counts as a retry.
	MetaStep = "safety.toolgate.dev/step"
	// MetaSandboxID names the sandbox the tool runs in.
	MetaSandboxID = "safety.toolgate.dev/sandbox-id"
	// MetaTraceparent is the MCP client's W3C trace context (the OpenTelemetry conventions for
	// MCP): carried to the call, so the decision's span joins the client's trace; never decides.
	MetaTraceparent = "traceparent"
	// MetaDenial is the key of a denied call's result _meta that holds the Denied.
	MetaDenial = "safety.toolgate.dev/denial"
)

// ReasonPlanNotFound is the reason of a call whose caller no plan is bound to.
const ReasonPlanNotFound = toolcall.ReasonPlanNotFound

// DefaultReviewTTL is how long a successful TokenReview is reused (reviewcache.go says why that
// is safe).
const DefaultReviewTTL = 10 * time.Second

const maxCachedReviews = 4096

// DefaultReportTimeout is how long a call's report is tried, again after each transient
// failure, before the agent is answered without it.
const DefaultReportTimeout = 10 * time.Second

// maxReportRetryDelay caps the back-off between a report's tries.
const maxReportRetryDelay = 5 * time.Second

// createTimeout bounds an AgentToolCall's create: the API server's admission (the webhook's own
// timeout is 5 s) and its write.
const createTimeout = 30 * time.Second

// DefaultUpstreamCallTimeout bounds one admitted call to an upstream server.
const DefaultUpstreamCallTimeout = 10 * time.Minute

// DefaultGCPercent is the gateway binary's GOGC. The MCP SDK allocates a 32 KiB buffer for every
// JSON message it decodes, several times per message on each of a call's two hops, so at the
// runtime's 100 the collector runs many times a second under load and its work is a third of the
// gateway's CPU (docs/benchmarks.md, "The collector's pace"). The soft memory limit taken from the
// container's limit still holds the heap under it.
const DefaultGCPercent = 400

// MaxRequestBytes bounds an HTTP request body: the largest arguments plus room for the envelope.
const MaxRequestBytes = toolcall.MaxArgumentBytes + 16<<10

// Options configure a Gateway.
type Options struct {
	// Reader is the gateway's own view (as its ServiceAccount) of ToolServers, AgentTools and
	// AgentPlans.
	Reader client.Reader
	// APIServer is where the gateway creates AgentToolCalls. Its credentials are never used for
	// that: each call is created with the caller's bearer token alone.
	APIServer *rest.Config
	// TokenReviews reviews callers' tokens, as the gateway's ServiceAccount.
	TokenReviews authenticationv1client.TokenReviewInterface
	Scheme       *runtime.Scheme
	Mapper       meta.RESTMapper
	// Audience is the audience a caller's token must carry.
	Audience string
	// Namespace, when set, is the only namespace whose agents the gateway serves (a gateway per
	// namespace, whose Reader caches that namespace's plans alone); any other caller is refused
	// with HTTP 403 (servedNamespace).
	Namespace string
	// ResolvePlan finds the caller's plan; CallerPlan when nil.
	ResolvePlan PlanResolver
	// Reporter writes, as the gateway's own ServiceAccount, the outcome (phase and cost) of the
	// admitted calls of plans that name the gateway as spec.costReporter; nothing is reported
	// when nil.
	Reporter client.Client
	// Identity is the username the API server authenticates Reporter as (see Identity); it is
	// required with Reporter.
	Identity string
	// ReviewTTL is how long a successful TokenReview is reused for the same token; 0 means
	// DefaultReviewTTL, a negative value disables the cache.
	ReviewTTL time.Duration
	// Clock is the cache's clock; the real one when nil.
	Clock clock.PassiveClock
	// UpstreamHTTPClient speaks to the ToolServers; when nil, one that keeps enough idle
	// connections per server for the sessions' concurrent calls.
	UpstreamHTTPClient *http.Client
	// UpstreamSessions is how many MCP sessions the gateway keeps with each ToolServer; 0 means
	// DefaultUpstreamSessions.
	UpstreamSessions int
	// UpstreamCallTimeout bounds one admitted call to its upstream, which outlives the agent's
	// request (forward says why); 0 means DefaultUpstreamCallTimeout.
	UpstreamCallTimeout time.Duration
	// MaxUpstreamMessageBytes bounds one message from a ToolServer, a JSON answer or one
	// server-sent event, and its list of tools, all pages together (listTools); 0 means DefaultMaxUpstreamMessageBytes, and it is at least
	// MinMaxUpstreamMessageBytes. A call answered with more fails (that call alone:
	// limitAnswers), and is reported Failed.
	MaxUpstreamMessageBytes int
	// MaxAnswerBytesHeld bounds the bytes of upstream answers to agents' calls the gateway
	// holds at once (answerBudget); 0 means MaxUpstreamMessageBytes, and it is at least that,
	// so that the largest answer fits.
	MaxAnswerBytesHeld int64
	// ReportTimeout is how long an admitted call's report is tried before its answer goes to the
	// agent without it; 0 means DefaultReportTimeout.
	ReportTimeout time.Duration
	// AnswerWriteTimeout bounds each write of an answer to an agent (deadlineWriter); 0 means
	// DefaultAnswerWriteTimeout.
	AnswerWriteTimeout time.Duration
	// MaxCallsPerCaller bounds the tools/calls one caller has in flight (callsInFlight), and its
	// requests whose body is still arriving (bodiesArriving); 0 means DefaultMaxCallsPerCaller.
	MaxCallsPerCaller int
	// MaxRequestsServed bounds the requests of authenticated callers served at once, shared fairly
	// among them (fairShares); keep it below the listener's connection cap, so that a new agent's
	// connection is always taken in. 0 means DefaultMaxRequestsServed.
	MaxRequestsServed int
	// MaxTokenReviews bounds the TokenReviews in flight at once for tokens never verified before,
	// a quarter of it for those from one source address, and, apart, for tokens verified before
	// (reviewGate); 0 means DefaultMaxTokenReviews.
	MaxTokenReviews int
	// BodyReadTimeout bounds how long a request's body takes to arrive (bodyDeadline); 0 means
	// DefaultBodyReadTimeout.
	BodyReadTimeout time.Duration
	// TracerProvider makes the gateway's spans (callSpans); nil means OpenTelemetry's global one,
	// as it is when New runs.
	TracerProvider trace.TracerProvider
	Version        string
	Log            logr.Logger
}

// Gateway serves MCP to agents.
type Gateway struct {
	opts      Options
	authn     *authenticator
	upstreams *upstreams
	reporter  *costReporter // nil: no reports
	answers   *answerBudget
	offerings offerings
	policies  *policy.SnapshotCache // the plans' compiled snapshots, for tools/list
	metered   meteredTurns
	inFlight  *callsInFlight
	arriving  *callsInFlight // requests whose body is arriving, by caller (bodiesArriving)
	shares    *fairShares    // the requests served at once, shared among callers
	spans     callSpans
	// held are the metered calls' reports still tried in the background (Gateway.report);
	// stopHeld ends them when the gateway closes.
	held     sync.WaitGroup
	heldCtx  context.Context
	stopHeld context.CancelFunc
}

// sized checks the sizes, counts and durations of o, and puts the defaults in place of zeros.
func (o *Options) sized() error {
	if o.UpstreamSessions < 0 || o.UpstreamCallTimeout < 0 || o.MaxUpstreamMessageBytes < 0 || o.ReportTimeout < 0 ||
		o.MaxAnswerBytesHeld < 0 || o.AnswerWriteTimeout < 0 || o.MaxCallsPerCaller < 0 || o.BodyReadTimeout < 0 || o.MaxTokenReviews < 0 ||
		o.MaxRequestsServed < 0 {
		return errors.New("gateway: UpstreamSessions, UpstreamCallTimeout, MaxUpstreamMessageBytes, MaxAnswerBytesHeld, " +
			"ReportTimeout, AnswerWriteTimeout, MaxCallsPerCaller, BodyReadTimeout, MaxTokenReviews and MaxRequestsServed cannot be negative")
	}
	o.MaxCallsPerCaller = cmp.Or(o.MaxCallsPerCaller, DefaultMaxCallsPerCaller)
	o.MaxTokenReviews = cmp.Or(o.MaxTokenReviews, DefaultMaxTokenReviews)
	o.MaxRequestsServed = cmp.Or(o.MaxRequestsServed, DefaultMaxRequestsServed)
	o.MaxUpstreamMessageBytes = cmp.Or(o.MaxUpstreamMessageBytes, DefaultMaxUpstreamMessageBytes)
	if o.MaxUpstreamMessageBytes < MinMaxUpstreamMessageBytes {
		return fmt.Errorf("gateway: MaxUpstreamMessageBytes (--max-upstream-message-bytes) is %d; it must be at least %d",
			o.MaxUpstreamMessageBytes, MinMaxUpstreamMessageBytes)
	}
	o.MaxAnswerBytesHeld = cmp.Or(o.MaxAnswerBytesHeld, int64(o.MaxUpstreamMessageBytes))
	if o.MaxAnswerBytesHeld < int64(o.MaxUpstreamMessageBytes) {
		return fmt.Errorf("gateway: MaxAnswerBytesHeld (--max-answer-bytes-held) is %d; it must be at least "+
			"MaxUpstreamMessageBytes (--max-upstream-message-bytes), %d, so that the largest answer fits",
			o.MaxAnswerBytesHeld, o.MaxUpstreamMessageBytes)
	}
	o.UpstreamSessions = cmp.Or(o.UpstreamSessions, DefaultUpstreamSessions)
	o.UpstreamCallTimeout = cmp.Or(o.UpstreamCallTimeout, DefaultUpstreamCallTimeout)
	o.ReviewTTL = cmp.Or(o.ReviewTTL, DefaultReviewTTL)
	o.ReportTimeout = cmp.Or(o.ReportTimeout, DefaultReportTimeout)
	o.AnswerWriteTimeout = cmp.Or(o.AnswerWriteTimeout, DefaultAnswerWriteTimeout)
	o.BodyReadTimeout = cmp.Or(o.BodyReadTimeout, DefaultBodyReadTimeout)
	return nil
}

// New returns a Gateway for opts.
func New(opts Options) (*Gateway, error) {
	if opts.Reader == nil || opts.APIServer == nil || opts.TokenReviews == nil || opts.Scheme == nil || opts.Mapper == nil {
		return nil, errors.New("gateway: Reader, APIServer, TokenReviews, Scheme and Mapper are required")
	}
	if opts.Audience == "" {
		return nil, errors.New("gateway: an audience is required")
	}
	if opts.Reporter != nil && opts.Identity == "" {
		return nil, errors.New("gateway: a Reporter needs its Identity")
	}
	if opts.ResolvePlan == nil {
		opts.ResolvePlan = CallerPlan
	}
	if opts.UpstreamHTTPClient == nil {
		opts.UpstreamHTTPClient = defaultUpstreamHTTPClient()
	}
	if err := opts.sized(); err != nil {
		return nil, err
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	var reporter *costReporter
	if opts.Reporter != nil {
		reporter = &costReporter{reader: opts.Reader, writer: opts.Reporter, identity: opts.Identity}
	}
	heldCtx, stopHeld := context.WithCancel(context.Background())
	return &Gateway{
		opts:     opts,
		reporter: reporter,
		answers:  newAnswerBudget(opts.MaxAnswerBytesHeld),
		policies: policy.NewSnapshotCache(),
		inFlight: newCallsInFlight(opts.MaxCallsPerCaller),
		arriving: newBodiesArriving(opts.MaxCallsPerCaller),
		shares:   newFairShares(clock.RealClock{}, opts.MaxRequestsServed), // its wait memory is real time
		spans:    newCallSpans(opts.TracerProvider),
		heldCtx:  heldCtx, stopHeld: stopHeld,
		authn: &authenticator{reviews: opts.TokenReviews, audience: opts.Audience,
			cache: newReviewCache(opts.Clock, opts.ReviewTTL, maxCachedReviews), gate: newReviewGate(opts.MaxTokenReviews)},
		upstreams: newUpstreams(opts.UpstreamHTTPClient, opts.Version, opts.UpstreamSessions, opts.MaxUpstreamMessageBytes),
	}, nil
}

// Close ends the gateway's sessions with upstream servers, and the reports still being tried (each
// logs its call and cost as unreported).
func (g *Gateway) Close() {
	g.stopHeld()
	g.held.Wait()
	g.upstreams.close()
}

// Handler is the gateway's MCP endpoint: bearer-token authentication, then MCP over Streamable
// HTTP. It is stateless (no session to pin to a replica), so replicas scale behind a Service.
func (g *Gateway) Handler() http.Handler {
	mcpHandler := mcp.NewStreamableHTTPHandler(g.serverFor, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		JSONResponse:        true,
		MaxRequestBodyBytes: MaxRequestBytes,
		// Agents reach the gateway through a Service, never through a browser on localhost.
		DisableLocalhostProtection: true,
	})
	// The answers a request's call holds stay counted until the request has been answered
	// (answerBudget): until then the SDK holds the answer, decoded and encoded again. Each write
	// of the answer is bounded, so that an agent that does not read it cannot hold its share.
	budgeted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, done := withAnswerHold(r.Context(), g.answers)
		defer done()
		mcpHandler.ServeHTTP(newDeadlineWriter(w, g.opts.AnswerWriteTimeout), r.WithContext(ctx))
	})
	// Timed from before the token's check, which may wait on a TokenReview, to the answer.
	// A request without a verified token closes its connection (unauthenticated_close.go), and
	// every request's body, read or not, arrives in time (body_read.go); a body that is not one
	// well-formed JSON-RPC message is refused before the SDK reads it (envelope.go).
	return bodyDeadline(timed(closeUnlessAuthenticated(
		g.authn.authenticate(keepAliveAuthenticated(g.servedNamespace(g.shared(g.bodiesArriving(wellFormed(budgeted)))))))),
		g.opts.BodyReadTimeout)
}

// unofferedTools handles a tools/call for a tool the gateway does not offer. An unregistered tool
// is submitted anyway, so that the webhook refuses it with its reason (ToolNotRegistered) and the
// ledger holds the refusal. A registered tool that no ToolServer serves is refused here, before
// anything is created: admitting a call the gateway cannot forward would spend the plan's budget.
func (g *Gateway) unofferedTools(routes map[string]route) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if method != "tools/call" || !ok {
				return next(ctx, method, req)
			}
			if _, offered := routes[call.Params.Name]; offered {
				return next(ctx, method, req)
			}
			if !objectName(call.Params.Name) { // no AgentTool's name: submitted, refused ToolNotRegistered (or, empty, by Build)
				return g.callTool(ctx, call, nil)
			}
			switch err := g.opts.Reader.Get(ctx, client.ObjectKey{Name: call.Params.Name}, &safetyv1alpha1.AgentTool{}); {
			case err == nil:
				return nil, g.unserved(ctx, call.Params.Name)
			case !apierrors.IsNotFound(err):
				return nil, fmt.Errorf("reading AgentTool %s: %w", call.Params.Name, err)
			}
			return g.callTool(ctx, call, nil)
		}
	}
}

// callTool gates one call and, when admitted, forwards it to rt's upstream server. rt is nil for
// a tool the gateway does not offer: the call is still submitted, so the decision is recorded,
// and an admitted one is reported failed, unsent.
func (g *Gateway) callTool(ctx context.Context, req *mcp.CallToolRequest, rt *route) (res *mcp.CallToolResult, err error) {
	ctx, span := g.spans.call(ctx, req, rt)
	defer func() { endCallSpan(span, res, err) }()
	return g.gate(ctx, req, rt)
}

// gate is callTool inside its span.
func (g *Gateway) gate(ctx context.Context, req *mcp.CallToolRequest, rt *route) (*mcp.CallToolResult, error) {
	defer timingOf(ctx).begun()()
	log := g.opts.Log.WithValues("tool", req.Params.Name)
	caller, ok := callerOf(req.Extra.TokenInfo)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "no authenticated caller"}
	}
	release, err := g.inFlight.acquire(caller.Username) // before anything is created: refused, it writes nothing
	if err != nil {
		return nil, err
	}
	defer release() // when the call has ended: answered and reported, whether or not its agent still waits
	args := req.Params.Arguments
	if len(args) > toolcall.MaxArgumentBytes {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("arguments are %d bytes, more than the gateway's limit of %d", len(args), toolcall.MaxArgumentBytes)}
	}
	plan, err := g.opts.ResolvePlan(ctx, g.opts.Reader, caller)
	if noPlan, ok := errors.AsType[*NoPlanError](err); ok {
		return denied(toolcall.Result{Reason: ReasonPlanNotFound, Message: noPlan.Message}), nil
	} else if err != nil {
		return nil, err
	}
	step, err := metaClaim(req.Params.Meta, MetaStep)
	if err != nil {
		return nil, err
	}
	sandboxID, err := metaClaim(req.Params.Meta, MetaSandboxID)
	if err != nil {
		return nil, err
	}
	inv := toolcall.Invocation{Namespace: caller.Namespace, Plan: plan, Tool: req.Params.Name, Arguments: args,
		Step: step, SandboxID: sandboxID}
	if rt != nil {
		inv.Map, inv.Cwd = argumentMap(rt.served.Arguments), rt.served.Arguments.WorkingDirectory
		// Judged, and sent, as the upstream takes them: with the defaults its schema fills in, and
		// only with every key it requires.
		schema := rt.upstream.schemas[rt.upstreamName()]
		inv.Map.Present = schema.requiredKeys()
		if err := schema.unseen(req.Params.Name, rt.server.Name); err != nil {
			return nil, err
		}
		if err := schema.judgedUndeclared(inv.Map, req.Params.Name, rt.server.Name); err != nil {
			return nil, err
		}
		if args, err = schema.arguments(args, req.Params.Name); err != nil {
			return nil, err
		}
		inv.Arguments = args
	}
	call, err := toolcall.Build(inv)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	as, err := g.asCaller(caller)
	if err != nil {
		return nil, err
	}
	turn, err := g.meteredTurn(ctx, caller.Namespace, plan, rt)
	if err != nil {
		return nil, err
	}
	defer turn.end() // after the report: the next metered call of the plan is judged with this one's cost
	// Not on the agent's context: an agent that hangs up once its call is sent would leave a call
	// the API server may store, admitted, and the gateway would neither forward nor report it.
	createCtx, cancelCreate := context.WithTimeout(context.WithoutCancel(ctx), createTimeout)
	defer cancelCreate()
	timing, created := timingOf(ctx), time.Now()
	createSpan := g.spans.create(ctx, call)
	result, err := toolcall.Decide(as.Create(createCtx, call))
	timing.since(waitAPIServer, created)
	decided(ctx, createSpan, call, result, err)
	if err != nil {
		log.Error(err, "Creating the AgentToolCall as the caller failed", "caller", caller.Username)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("the API server did not decide the call: %v", err)}
	}
	timing.decided(result.Allowed)
	if !result.Allowed {
		log.V(2).Info("Call denied", "reason", result.Reason, "caller", caller.Username)
		return denied(result), nil
	}
	if rt == nil {
		// Admitted, so registered by now, though not when the gateway last looked (it was made
		// while the call was decided, or the gateway's cache has not seen it yet). Never sent:
		// reported failed at what it reserved, as a call whose route changed is, so that the
		// plan's cost reporter leaves no admitted call of the gateway's unreported.
		err := fmt.Errorf("tool %q was not served when this call was routed, though it is registered now: %w",
			req.Params.Name, errRouteChanged)
		g.report(ctx, call, nil, upstreamAnswer{err: err}, turn)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	return g.forward(ctx, rt, call, args, turn)
}

func (g *Gateway) forward(ctx context.Context, rt *route, call *safetyv1alpha1.AgentToolCall, args json.RawMessage,
	turn *turn) (*mcp.CallToolResult, error) {
	// From here on the call is admitted, and every way out reports its outcome.
	ctx, answered := holdFrom(ctx, g.answers) // the answer's share of the budget outlives an agent that hung up
	defer answered()
	ctx = withAnswerShare(ctx)
	//
	// Not on the agent's context: an agent that hangs up while the upstream works would cancel
	// the call, and the gateway would never read the cost the upstream states in its answer
	// (reportsCost), reporting only the reservation for work that was done. The cost of a call
	// is not the agent's to choose, so an admitted call runs to its answer or its timeout.
	callCtx, cancelCall := context.WithTimeout(context.WithoutCancel(ctx), g.opts.UpstreamCallTimeout)
	defer cancelCall()
	var (
		out     *mcp.CallToolResult
		callErr error
		d       *delivery // the last try's
	)
	// A call the upstream never received (its session had ended, or the server no longer knew
	// it: an upstream restart) is sent again on a session fetched anew: it was admitted, and
	// failing it would cost the agent the call's reservation and a step attempt for the
	// gateway's stale session. A call that may have reached the upstream is never sent twice.
	timing := timingOf(ctx)
	for try := 1; ; try++ {
		routed := time.Now()
		current, up, session, err := g.admittedSession(ctx, rt)
		timing.since(waitUpstream, routed)
		if err != nil {
			g.report(ctx, call, rt, upstreamAnswer{err: err, mayHaveRun: d.mayHaveRun(callErr)}, turn)
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		rt, d = current, &delivery{}
		span, traceMeta := g.spans.upstream(ctx, rt)
		timing.sent()
		out, callErr = session.CallTool(withDelivery(callCtx, d),
			&mcp.CallToolParams{Name: rt.upstreamName(), Arguments: args, Meta: traceMeta})
		timing.upstreamDone()
		endCallSpan(span, out, callErr)
		if rt.server.Spec.SessionScope == safetyv1alpha1.ToolServerSessionScopeCall {
			g.upstreams.end(session) // the call's own: no other call may see what it left in it
		}
		if callErr == nil {
			break
		}
		// A session the SDK ended is dropped by its slot, the whole pool when the server no
		// longer knows the session; any other failure of a call is that call's alone.
		g.upstreams.failed(rt.server.Name, up, session, callErr)
		if try == maxDeliveryTries || !d.unreceived(callErr) {
			break
		}
		g.opts.Log.V(1).Info("The upstream did not receive the call; sending it again on another session",
			"call", call.Name, "namespace", call.Namespace, "toolServer", rt.server.Name, "error", callErr.Error())
	}
	mayHaveRun := d.mayHaveRun(callErr)
	if callErr == nil {
		// Its stated cost is still read (out is reported), and it ran: it fails as one answered
		// over the bound does.
		callErr, mayHaveRun = holdEncoded(callCtx, out), true
	}
	g.report(ctx, call, rt, upstreamAnswer{out: out, err: callErr, mayHaveRun: mayHaveRun}, turn)
	if callErr != nil {
		return nil, fmt.Errorf("ToolServer %s: %w", rt.server.Name, callErr)
	}
	return out, nil
}

// meteredTurn takes the plan's turn for a call of rt when the upstream states the call's cost and
// the gateway reports it (meteredTurns); nil when the call needs no turn.
func (g *Gateway) meteredTurn(ctx context.Context, namespace, plan string, rt *route) (*turn, error) {
	if g.reporter == nil || rt == nil || !rt.served.ReportsCost {
		return nil, nil
	}
	_, reports, err := g.reporter.planFor(ctx, namespace, plan)
	if apierrors.IsNotFound(err) {
		return nil, nil // gone since it was resolved: the webhook refuses the call, and the ledger records it
	} else if err != nil || !reports {
		return nil, err
	}
	waited := time.Now()
	release, err := g.metered.wait(ctx, namespace+"/"+plan)
	timingOf(ctx).since(waitTurn, waited)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("waiting for plan %s's metered call in progress: %v", plan, err)}
	}
	return &turn{release: release}, nil
}

// report reports the outcome of call, admitted, when there is a reporter: before the agent is
// answered, so that its next call is judged with this one's cost counted, and again after each
// transient failure (the reads it needs too) for up to ReportTimeout. Not on the agent's context:
// an agent that hangs up must not take the report with it.
//
// A metered call's report that still fails keeps the plan's metered turn (turn) and is tried on
// in the background until it is written, refused, or the gateway closes: passed on, the turn
// would let the plan's next metered call be judged without this one's stated cost, and a busy
// API server answering 429 would let an agent spend past its budget. The plan's next metered
// calls wait meanwhile (fail closed), and fail if their own requests end first.
func (g *Gateway) report(ctx context.Context, call *safetyv1alpha1.AgentToolCall, rt *route, answer upstreamAnswer, turn *turn) {
	if g.reporter == nil {
		return
	}
	log := g.opts.Log.WithValues("call", call.Name, "namespace", call.Namespace)
	var o *outcome
	attempt := func(ctx context.Context) error {
		if o == nil { // the outcome is made once, so every try writes the same finishedAt
			made, statedErr, err := g.reporter.outcome(ctx, call, rt, answer)
			if err != nil || made == nil {
				return err
			}
			if statedErr != nil {
				log.Error(statedErr, "The upstream stated an unusable cost")
			}
			o = made
		}
		return g.reporter.write(ctx, call, o)
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), g.opts.ReportTimeout)
	defer cancel()
	started := time.Now()
	err := retryTransient(rctx, attempt, maxReportRetryDelay)
	if o != nil { // a report was written, or tried: not the plan's read alone
		timingOf(ctx).since(waitReport, started)
	}
	if err == nil {
		return
	}
	if turn == nil || !errors.Is(err, context.DeadlineExceeded) && !transient(err) {
		log.Error(err, "Reporting the call's outcome failed")
		return
	}
	log.Error(err, "Reporting the call's outcome failed; trying on in the background, holding the plan's metered turn")
	g.held.Add(1)
	turn.holdWhile(func() {
		defer g.held.Done()
		if err := retryTransient(g.heldCtx, attempt, maxReportRetryDelay); err != nil {
			cost := ""
			if o != nil {
				cost = o.cost
			}
			log.Error(err, "The call's outcome was never reported; passing the plan's metered turn on", "unreportedCost", cost)
			return
		}
		log.Info("Reported the call's outcome after retries; passing the plan's metered turn on")
	})
}

// admittedSession is the route and a session for an admitted call routed by rt: its route as the
// ToolServer is now (currentRoute; errRouteChanged when that is not the route it was routed by),
// and a session with its upstream. The connect is not the agent's to cut short (an agent that
// hangs up during it would leave the call unreported), so it waits on a context of its own,
// bounded as every connect is.
func (g *Gateway) admittedSession(ctx context.Context, rt *route) (*route, *upstream, *mcp.ClientSession, error) {
	current, err := g.currentRoute(ctx, rt)
	if err != nil {
		return nil, nil, nil, err
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), connectTimeout)
	defer cancel()
	up, session, err := g.session(cctx, current)
	// The call was judged by the schema of the upstream it was routed to; connected anew since
	// (a try sent again after a restart, another call's reconnect), the upstream may be another
	// version, which fills in other defaults.
	if err == nil && up != current.upstream && !up.describes(current.upstreamName(), current.tool) {
		if current.server.Spec.SessionScope == safetyv1alpha1.ToolServerSessionScopeCall {
			g.upstreams.end(session)
		}
		return nil, nil, nil, fmt.Errorf("ToolServer %s now describes tool %q with another input schema than the one "+
			"this call was judged by: %w", current.server.Name, current.upstreamName(), errRouteChanged)
	}
	return current, up, session, err
}

// session returns a session with rt's upstream for one call: a pooled one, or one of the call's
// own when its ToolServer's sessionScope is Call (upstream.sessionFor), which the caller ends. An
// upstream closed since it was fetched (replaced, or forgotten by another call) hands out no
// session: the ToolServer's current one is fetched once more.
func (g *Gateway) session(ctx context.Context, rt *route) (*upstream, *mcp.ClientSession, error) {
	for try := 0; ; try++ {
		up, err := g.upstreams.get(ctx, rt.server, 0)
		if err != nil {
			return nil, nil, err
		}
		session, err := up.sessionFor(ctx, rt.server.Spec.SessionScope, g.upstreams.maxMessage)
		switch {
		case errors.Is(err, errUpstreamClosed) && try == 0:
			continue
		case err != nil:
			// The server may be down, or back with other tools: reconnect (after the back-off
			// when that fails too) and list its tools again.
			if !errors.Is(err, errUpstreamClosed) {
				g.upstreams.forget(rt.server.Name, up)
			}
			return nil, nil, err
		}
		return up, session, nil
	}
}

// asCaller is a client that authenticates with the caller's token and nothing else.
func (g *Gateway) asCaller(caller *Caller) (client.Client, error) {
	caller.asCallerOnce.Do(func() {
		cfg := rest.AnonymousClientConfig(g.opts.APIServer)
		cfg.BearerToken = caller.Token
		// No client-side rate limit: the API server's priority and fairness limits each agent,
		// as it would if the agent created its calls itself.
		cfg.QPS, cfg.RateLimiter = -1, nil
		caller.asCaller, caller.asCallerErr = client.New(cfg, client.Options{Scheme: g.opts.Scheme, Mapper: g.opts.Mapper})
	})
	return caller.asCaller, caller.asCallerErr
}

// Denied is the structured content of a denial: what a program acts on.
type Denied struct {
	Reason  string `json:"reason"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// denied is the MCP tool error for a denial: "[Reason] message" for a model to read, and the
// reason code for a program, in the structured content and in _meta[MetaDenial]. The output
// schema the gateway offers for a tool (outputSchema) admits it, so that strict clients (the
// TypeScript SDK's), which check a result's structured content against it, accept it.
func denied(r toolcall.Result) *mcp.CallToolResult {
	d := Denied{Reason: r.Reason, Field: r.Field, Message: r.Message}
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: r.Text()}},
		StructuredContent: d,
		Meta:              mcp.Meta{MetaDenial: d},
	}
}

func argumentMap(m safetyv1alpha1.ToolArgumentMap) toolcall.ArgumentMap {
	return toolcall.ArgumentMap{Command: m.Command, Paths: m.Paths, TreePaths: m.TreePaths, Cwd: m.Cwd, Omit: m.Omit}
}

// metaClaim is the agent's claim _meta[key]: "" when absent (or null), an MCP error naming the
// key when it is not a string. Taken as absent, a step of another type would silently become the
// step the gateway derives, and the agent never learn why its steps were not its own.
func metaClaim(m mcp.Meta, key string) (string, error) {
	switch v := m[key].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	default:
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("_meta[%q] must be a string, not %s", key, jsonKind(v))}
	}
}
