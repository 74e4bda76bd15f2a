package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	authenticationv1client "k8s.io/client-go/kubernetes/typed/authentication/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// MetaCost is the key of an upstream result's _meta that states what the call cost, in US
// dollars as a decimal string. It is read only for a tool whose ServedTool sets reportsCost:
// the upstream server is registered by the platform, the agent cannot write it.
const MetaCost = "safety.toolgate.dev/cost"

// maxReportedCost is the largest cost AgentToolCall status.cost admits (its schema's bound).
var maxReportedCost = resource.MustParse("1000000000")

// costReporter reports an admitted call's outcome (its phase, and its cost) on the call's status,
// as the gateway itself: the webhook takes a cost only from the identity the plan names as
// spec.costReporter, so the gateway reports only for plans that name it, and an agent can never
// report its own cost through the gateway.
type costReporter struct {
	reader client.Reader
	// writer authenticates as the gateway's own ServiceAccount.
	writer client.Client
	// identity is the username the API server authenticates writer as.
	identity string
}

// outcome is what a report writes on an admitted call's status: its phase and when it finished,
// and its cost (empty when it costs nothing) with the reporter's word that it is final
// (CallCostFinalCondition), which ends what the call holds in its plan's budget also where the
// agent marked the call finished first, and by which a webhook replica taking the plan over tells
// the call's hold ended.
type outcome struct {
	status map[string]any
	cost   string
	final  []metav1.Condition
}

// upstreamAnswer is what became of an admitted call upstream, for its report: the result it was
// answered with, or how it failed; and whether the upstream may have run it (delivery.mayHaveRun).
type upstreamAnswer struct {
	out        *mcp.CallToolResult
	err        error
	mayHaveRun bool
}

// outcome is the report for call, whose upstream (rt's) gave answer; nil for a plan that does not
// name the gateway as its reporter (the agent may report its phase itself). statedErr says what
// the upstream got wrong in the cost it stated, when the report carries another cost instead.
//
// The cost is the one the upstream stated; else, for a reportsCost tool's call the upstream may
// have run, the tool's maxCostPerCall when it declares one (or its costPerCall, if larger): a
// call whose answer went unread (over the bound, say) must not be cheaper than one whose answer
// was read; else its costPerCall.
func (r *costReporter) outcome(ctx context.Context, call *safetyv1alpha1.AgentToolCall, rt *route,
	answer upstreamAnswer) (o *outcome, statedErr, err error) {
	plan, reports, err := r.planFor(ctx, call.Namespace, call.Spec.Plan)
	if err != nil || !reports {
		return nil, nil, err
	}
	phase := safetyv1alpha1.CallPhaseSucceeded
	if answer.err != nil || answer.out == nil || answer.out.IsError {
		phase = safetyv1alpha1.CallPhaseFailed
	}
	stated, statedErr := r.stated(rt, answer.out)
	cost := stated
	switch {
	case cost != nil:
	case rt == nil:
		// Never routed, so never sent: it costs what admission reserved, which a report of 0
		// leaves as it is (a call costs the larger of the two), and the report releases what it
		// held. Not priced from the tool as pinned: the gateway did not route it because its view
		// lags, and the plan it reads may not show the pin this call's admission made either.
		cost = resource.NewQuantity(0, resource.DecimalSI)
	default:
		ceiling := answer.mayHaveRun && rt.served.ReportsCost
		if cost, err = r.unstatedCost(ctx, plan, call.Spec.Tool, ceiling); err != nil {
			return nil, nil, err
		}
	}
	now := metav1.NewTime(time.Now())
	o = &outcome{status: map[string]any{"phase": phase, "finishedAt": now}}
	if cost != nil {
		o.cost = cost.String()
		o.final = []metav1.Condition{toolcall.CostFinal("toolgate-gateway", now)}
		o.status["cost"], o.status["conditions"] = o.cost, o.final
	}
	return o, statedErr, nil
}

// write writes o on call's status, once. A merge patch, which replaces the status's conditions
// with the reporter's alone, on purpose: the agent may write conditions on its own call too, and
// at the schema's 4 of them a merge by type (server-side apply) would be refused, so an agent
// that filled them first would keep its cost from ever being written.
func (r *costReporter) write(ctx context.Context, call *safetyv1alpha1.AgentToolCall, o *outcome) error {
	err := r.patch(ctx, call, o.status)
	if err != nil && o.cost != "" && !transient(err) {
		// The agent may have written a final phase first (a phase never moves back), which
		// refuses this whole report; the cost is still the reporter's to write, and it must
		// not be dodged that way.
		err = r.patch(ctx, call, map[string]any{"cost": o.cost, "conditions": o.final})
	}
	return err
}

// retryTransient runs attempt, again after each transient failure, waiting a back-off (100 ms,
// doubling to maxDelay, each wait up to a tenth longer at random, so that calls failed together
// do not all try again together) between tries, until ctx ends.
func retryTransient(ctx context.Context, attempt func(context.Context) error, maxDelay time.Duration) error {
	delay := 100 * time.Millisecond
	for {
		err := attempt(ctx)
		if err == nil || !transient(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait.Jitter(delay, 0.1)):
		}
		delay = min(2*delay, maxDelay)
	}
}

// transient says whether a failed write may succeed if tried again: the API server was not
// reached, was unavailable, timed out or asked to slow down (429, which its priority and fairness
// answers under load). A refusal (any other 4xx: the call is gone, or its status refused the
// write) will not change.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		code := status.Status().Code
		return code == 0 || code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500
	}
	return true
}

// planFor reads plan name in namespace, and whether it names the gateway as its cost reporter.
func (r *costReporter) planFor(ctx context.Context, namespace, name string) (*safetyv1alpha1.AgentPlan, bool, error) {
	plan := &safetyv1alpha1.AgentPlan{}
	if err := r.reader.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, plan, noDeepCopy); err != nil {
		return nil, false, fmt.Errorf("reading plan %s: %w", name, err)
	}
	return plan, policy.CostReporterUser(plan) == r.identity, nil
}

func (r *costReporter) patch(ctx context.Context, call *safetyv1alpha1.AgentToolCall, status map[string]any) error {
	data, err := json.Marshal(map[string]any{"status": status})
	if err != nil {
		return err
	}
	target := &safetyv1alpha1.AgentToolCall{ObjectMeta: metav1.ObjectMeta{Namespace: call.Namespace, Name: call.Name}}
	return r.writer.Status().Patch(ctx, target, client.RawPatch(types.MergePatchType, data))
}

// stated is the cost the upstream states in out, for a tool declared to state it; nil when it
// states none, or an unusable one (the error says what was wrong).
func (r *costReporter) stated(rt *route, out *mcp.CallToolResult) (*resource.Quantity, error) {
	if rt == nil || !rt.served.ReportsCost || out == nil {
		return nil, nil
	}
	q, err := statedCost(out.Meta)
	if err != nil {
		return nil, fmt.Errorf("ToolServer %s stated an unusable cost for %s, reported its costPerCall instead: %w",
			rt.server.Name, rt.served.AgentTool, err)
	}
	return q, nil
}

// unstatedCost is what a call of tool costs when no usable cost was stated for it, as the tool is
// pinned in the plan: the larger of its maxCostPerCall and costPerCall when ceiling is set and it
// declares a maxCostPerCall, else its costPerCall; nil when that is nothing and the tool declares
// no maxCostPerCall (one that does held it at admission until a cost is reported).
func (r *costReporter) unstatedCost(ctx context.Context, plan *safetyv1alpha1.AgentPlan, tool string, ceiling bool) (*resource.Quantity, error) {
	at := &safetyv1alpha1.AgentTool{}
	if err := r.reader.Get(ctx, client.ObjectKey{Name: tool}, at, noDeepCopy); apierrors.IsNotFound(err) {
		at = &safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: tool}} // deleted since: its pin still prices it
	} else if err != nil {
		return nil, fmt.Errorf("reading AgentTool %s: %w", tool, err)
	}
	pinned := policy.ToolAsPinned(plan, at)
	cost, err := policy.CostPerCall(pinned)
	if err == nil && ceiling && pinned.Spec.MaxCostPerCall != nil {
		var most safety.Money
		if most, err = policy.MoneyFromQuantity(*pinned.Spec.MaxCostPerCall); most.Cmp(cost) > 0 {
			cost = most
		}
	}
	if err != nil || (cost.Nanos() == 0 && pinned.Spec.MaxCostPerCall == nil) {
		return nil, err // a tool that declares a maxCostPerCall gets a cost, 0 included: it releases what the call held
	}
	q := policy.QuantityFromMoney(cost)
	return &q, nil
}

// statedCost reads MetaCost: a decimal string (or a JSON number) of at most 9 decimal places,
// neither negative nor above what status.cost admits. nil when the result states no cost.
func statedCost(meta mcp.Meta) (*resource.Quantity, error) {
	v, ok := meta[MetaCost]
	if !ok {
		return nil, nil
	}
	var text string
	switch v := v.(type) {
	case string:
		text = v
	case float64:
		text = fmt.Sprint(v)
	default:
		return nil, fmt.Errorf("_meta[%q] is a %T, not a decimal", MetaCost, v)
	}
	money, err := safety.ParseMoney(text)
	if err != nil {
		return nil, fmt.Errorf("_meta[%q] is %q: %w", MetaCost, text, err)
	}
	q := policy.QuantityFromMoney(money)
	if q.Sign() < 0 || q.Cmp(maxReportedCost) > 0 {
		return nil, fmt.Errorf("_meta[%q] is %q, outside 0 to %s", MetaCost, text, maxReportedCost.String())
	}
	return &q, nil
}

// Identity asks the API server who the gateway's own credentials authenticate as: the name a
// plan's spec.costReporter must carry for the gateway to report its calls' cost.
func Identity(ctx context.Context, reviews authenticationv1client.SelfSubjectReviewInterface) (string, error) {
	review, err := reviews.Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("asking the API server who the gateway is: %w", err)
	}
	return review.Status.UserInfo.Username, nil
}
