package v1alpha1

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/metrics"
	"github.com/toolgate/toolgate/internal/policy"
)

// +kubebuilder:webhook:path=/validate-safety-toolgate-dev-v1alpha1-toolapproval,mutating=false,failurePolicy=fail,sideEffects=NoneOnDryRun,groups=safety.toolgate.dev,resources=toolapprovals,verbs=create,versions=v1alpha1,name=vtoolapproval-v1alpha1.toolgate.dev,admissionReviewVersions=v1,timeoutSeconds=5

// Reasons a ToolApproval is refused.
const (
	ReasonApproverMismatch       = "ApproverMismatch"
	ReasonSelfApproval           = "SelfApproval"
	ReasonServiceAccountApprover = "ServiceAccountApprover"
	ReasonApproverNotAPerson     = "ApproverNotAPerson"
)

const serviceAccountPrefix = "system:serviceaccount:"

// ToolApprovalHandler decides who may approve: a person, recorded truthfully. The approver named in
// the spec must be the identity creating the object; the plan's own ServiceAccount never may;
// other ServiceAccounts (by username or by group) only when the operator was told to trust them;
// nodes and unauthenticated requests never. Every creation, and every
// refusal, is recorded in the ledger before the answer.
type ToolApprovalHandler struct {
	Reader  client.Reader
	Decoder admission.Decoder
	Ledger  audit.ApprovalLog
	// ServiceAccountApprovers are the usernames (system:serviceaccount:NS:NAME) of ServiceAccounts
	// allowed to approve, for example a chat-ops bot that relays a person's decision.
	ServiceAccountApprovers map[string]bool
}

// Handle answers one ToolApproval admission request.
func (h *ToolApprovalHandler) Handle(ctx context.Context, req admission.Request) admission.Response {
	a := &safetyv1alpha1.ToolApproval{}
	if err := h.Decoder.DecodeRaw(req.Object, a); err != nil {
		return denial{ReasonBadRequest, "", "cannot decode the ToolApproval: " + err.Error()}.response()
	}
	d, err := h.check(ctx, req, a)
	if err != nil {
		return admission.Errored(http.StatusInternalServerError, err)
	}
	if isDryRun(req) || h.Ledger == nil {
		return respond(d)
	}
	rec := audit.Approval{
		Decision: "allow", Namespace: req.Namespace, Name: req.Name, Plan: a.Spec.Plan, Tool: a.Spec.Tool,
		Step: a.Spec.Step, ArgumentsDigest: a.Spec.ArgumentsDigest, Approver: a.Spec.Approver,
		Requester: req.UserInfo.Username, Uses: policy.ApprovalUses(a), Note: a.Spec.Reason,
	}
	if a.CreationTimestamp.IsZero() { // the API server stamps it before admission; be safe anyway
		a.CreationTimestamp = metav1.Now()
	}
	rec.ExpiresAt = policy.ApprovalExpiry(a).UTC().Format(time.RFC3339)
	if args := a.Spec.Arguments; args != nil {
		rec.Arguments = map[string]any{"command": args.Command, "paths": args.Paths, "cwd": args.Cwd}
	}
	if d != nil {
		rec.Decision, rec.Reason = decisionDeny, d.Reason
	}
	if err := h.Ledger.RecordApproval(ctx, rec); err != nil {
		metrics.LedgerFailures.Inc()
		if d == nil && audit.FailurePolicyOf(ctx, h.Reader) != safetyv1alpha1.LedgerFailurePolicyIgnore {
			d = &denial{ReasonLedgerUnavailable, "", "the approval could not be recorded durably, so it is not accepted: " + err.Error()}
		}
	}
	return respond(d)
}

// check returns the refusal of an approval, or nil when it may be created.
func (h *ToolApprovalHandler) check(ctx context.Context, req admission.Request, a *safetyv1alpha1.ToolApproval) (*denial, error) {
	user := req.UserInfo.Username
	if a.Spec.Approver != user {
		return &denial{ReasonApproverMismatch, fieldApprover, fmt.Sprintf(
			"must be the identity creating the approval, %q, not %q", user, a.Spec.Approver)}, nil
	}
	plan := &safetyv1alpha1.AgentPlan{}
	if err := h.Reader.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: a.Spec.Plan}, plan); err != nil {
		if apierrors.IsNotFound(err) {
			return &denial{ReasonPlanNotFound, "spec.plan", fmt.Sprintf("AgentPlan %q does not exist in namespace %s", a.Spec.Plan, req.Namespace)}, nil
		}
		return nil, fmt.Errorf("reading plan %s: %w", a.Spec.Plan, err)
	}
	// A plan being deleted takes no approval: its approvals are revoked as it is released
	// (controller.revokeApprovals), and one made after that would outlive it and could pass for an
	// approval of the next plan of its name. An ended plan admits no call to approve.
	if d := planOpen(plan, time.Now()); d != nil {
		return d, nil
	}
	if user == serviceAccountUser(plan.Namespace, plan.Spec.ServiceAccountName) {
		return &denial{ReasonSelfApproval, fieldApprover, fmt.Sprintf(
			"%s is the agent of plan %s and cannot approve its own calls; ask a person", user, plan.Name)}, nil
	}
	switch policy.ApproverKind(user, req.UserInfo.Groups) {
	case policy.ApproverServiceAccount:
		if !h.ServiceAccountApprovers[user] {
			return &denial{ReasonServiceAccountApprover, fieldApprover, fmt.Sprintf(
				"%s is a ServiceAccount (by its username or groups %v); approvals come from people unless the operator trusts it with --allow-serviceaccount-approver",
				user, req.UserInfo.Groups)}, nil
		}
	case policy.ApproverNotAPerson:
		return &denial{ReasonApproverNotAPerson, fieldApprover, fmt.Sprintf(
			"%s is a node or an unauthenticated request (groups %v); approvals come from authenticated people", user, req.UserInfo.Groups)}, nil
	}
	tool := &safetyv1alpha1.AgentTool{}
	if err := h.Reader.Get(ctx, client.ObjectKey{Name: a.Spec.Tool}, tool); err != nil {
		if apierrors.IsNotFound(err) {
			return &denial{ReasonToolNotRegistered, fieldTool, fmt.Sprintf("tool %q is not a registered AgentTool", a.Spec.Tool)}, nil
		}
		return nil, fmt.Errorf("reading tool %s: %w", a.Spec.Tool, err)
	}
	return nil, nil
}

func respond(d *denial) admission.Response {
	if d != nil {
		return d.response()
	}
	return admission.Allowed("")
}

// ServiceAccountUsername turns "namespace:name" or a full username into the username a
// ServiceAccount authenticates as.
func ServiceAccountUsername(s string) (string, error) {
	s, _ = strings.CutPrefix(s, serviceAccountPrefix)
	ns, name, ok := strings.Cut(s, ":")
	if !ok || ns == "" || name == "" || strings.Contains(name, ":") {
		return "", fmt.Errorf("%q is not a ServiceAccount: want NAMESPACE:NAME", s)
	}
	return serviceAccountPrefix + ns + ":" + name, nil
}
