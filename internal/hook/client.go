package hook

import (
	authenticationv1 "k8s.io/api/authentication/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

// NewClient is the hook's API client for rc. It knows the only kinds a tool use touches (who the
// token is, the plans it may be bound to, the call it submits) without asking the API server:
// the hook is a new process for every tool use, and a client that discovers kinds lazily asked
// for the server's API groups (GET /api and /apis) on every one of them, two of its five
// requests (docs/benchmarks.md, "toolgate-hook per tool use").
func NewClient(rc *rest.Config) (client.Client, error) {
	scheme := runtime.NewScheme()
	if err := authenticationv1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	if err := safetyv1alpha1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(authenticationv1.SchemeGroupVersion.WithKind("SelfSubjectReview"), meta.RESTScopeRoot)
	for _, kind := range []string{"AgentPlan", "AgentToolCall"} {
		mapper.Add(safetyv1alpha1.GroupVersion.WithKind(kind), meta.RESTScopeNamespace)
	}
	return client.New(rc, client.Options{Scheme: scheme, Mapper: mapper})
}
