package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	authenticationv1 "k8s.io/api/authentication/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/pkg/toolcall"
)

// podNameExtra is the userInfo.extra key under which the API server reports the pod a
// ServiceAccount token is bound to.
const podNameExtra = "authentication.kubernetes.io/pod-name"

// BoundPlan finds the plan the webhook will hold the pod's calls to, as every door does
// (toolcall.CallerPlan): the API server says who the token is (a SelfSubjectReview: its
// ServiceAccount and bound pod), and its ServiceAccount's plans say which one is active for it, or
// which one it had (so its calls are refused PlanExpired, in the ledger). The hook never chooses
// between plans.
func BoundPlan(c client.Client, namespace string) func(ctx context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		review := &authenticationv1.SelfSubjectReview{}
		if err := c.Create(ctx, review); err != nil {
			return "", fmt.Errorf("asking the API server who this token is: %w", err)
		}
		user := review.Status.UserInfo
		prefix := "system:serviceaccount:" + namespace + ":"
		sa, ok := strings.CutPrefix(user.Username, prefix)
		if !ok {
			return "", fmt.Errorf("the token is %s, not a ServiceAccount of namespace %s", user.Username, namespace)
		}
		pod := ""
		if names := user.Extra[podNameExtra]; len(names) == 1 {
			pod = names[0]
		}
		// Its ServiceAccount's plans only: a hook lists them on every tool call, and the
		// namespace keeps every plan until a week (endedPlanTTLSeconds) after it ended.
		return toolcall.CallerPlan(ctx, c, namespace, sa, pod, client.MatchingFields{safetyv1alpha1.AgentPlanServiceAccountField: sa})
	}
}

// NamedPlan is a plan given by name (--plan); the webhook still checks the pod is bound to it.
func NamedPlan(name string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) { return name, nil }
}

func writeJSON(w io.Writer, out Output) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
