package testenv

import (
	"context"
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// AgentRoleFile is the ClusterRole toolgate ships for agents' ServiceAccounts.
var AgentRoleFile = []string{configDir, rbacDir, "agent_role.yaml"}

// Agent creates a ServiceAccount with the agent role in namespace and returns a client that
// authenticates with a real token from the TokenRequest API, as an agent pod's would.
func Agent(ctx context.Context, admin *rest.Config, scheme *runtime.Scheme, namespace, name string) (client.Client, error) {
	cfg, err := AgentConfig(ctx, admin, namespace, name)
	if err != nil {
		return nil, err
	}
	return client.New(cfg, client.Options{Scheme: scheme})
}

// AgentConfig is Agent's REST config, for callers that need their own client options (a warning
// handler, say).
func AgentConfig(ctx context.Context, admin *rest.Config, namespace, name string) (*rest.Config, error) {
	cs, err := kubernetes.NewForConfig(admin)
	if err != nil {
		return nil, err
	}
	meta := metav1.ObjectMeta{Namespace: namespace, Name: name}
	if _, err := cs.CoreV1().ServiceAccounts(namespace).Create(ctx, &corev1.ServiceAccount{ObjectMeta: meta}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, fmt.Errorf("creating ServiceAccount %s/%s: %w", namespace, name, err)
	}
	shipped, err := readClusterRole(AgentRoleFile)
	if err != nil {
		return nil, err
	}
	role := &rbacv1.Role{ObjectMeta: meta, Rules: shipped.Rules}
	if _, err := cs.RbacV1().Roles(namespace).Create(ctx, role, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, fmt.Errorf("creating Role %s/%s: %w", namespace, name, err)
	}
	binding := &rbacv1.RoleBinding{
		ObjectMeta: meta,
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: name},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Namespace: namespace, Name: name}},
	}
	if _, err := cs.RbacV1().RoleBindings(namespace).Create(ctx, binding, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, fmt.Errorf("creating RoleBinding %s/%s: %w", namespace, name, err)
	}
	return tokenConfig(ctx, cs, admin, namespace, name)
}

// tokenConfig is a REST config that authenticates as ServiceAccount namespace/name with a real
// token from the TokenRequest API (an hour long), as a pod's mounted token would.
func tokenConfig(ctx context.Context, cs kubernetes.Interface, admin *rest.Config, namespace, name string) (*rest.Config, error) {
	tr, err := cs.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, name, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: new(int64(3600))},
	}, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("requesting a token for %s/%s: %w", namespace, name, err)
	}
	cfg := rest.AnonymousClientConfig(admin)
	cfg.BearerToken = tr.Status.Token
	cfg.QPS, cfg.Burst = 500, 1000
	return cfg, nil
}
