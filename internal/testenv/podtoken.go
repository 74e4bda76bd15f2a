package testenv

import (
	"context"
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// agentContainer names the one container of the Pods tests create for agents; no kubelet runs it.
const agentContainer = "agent"

// AudiencePodToken creates a Pod named pod that runs as ServiceAccount namespace/serviceAccount (which must
// exist; AgentConfig creates one) and returns a real token from the TokenRequest API bound to that
// pod, as a projected token volume would mount it. The token is valid for the given audiences, and
// also for the API server's own when forAPIServer is set.
func AudiencePodToken(ctx context.Context, admin *rest.Config, namespace, serviceAccount, pod string, forAPIServer bool, audiences ...string) (string, error) {
	cs, err := kubernetes.NewForConfig(admin)
	if err != nil {
		return "", err
	}
	p, err := cs.CoreV1().Pods(namespace).Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: pod},
		Spec: corev1.PodSpec{
			ServiceAccountName: serviceAccount,
			Containers:         []corev1.Container{{Name: agentContainer, Image: "registry.invalid/agent:never"}},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("creating Pod %s/%s: %w", namespace, pod, err)
	}
	if forAPIServer {
		// A TokenRequest that names no audience is defaulted to the API server's audiences.
		probe, err := cs.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, serviceAccount,
			&authenticationv1.TokenRequest{}, metav1.CreateOptions{})
		if err != nil {
			return "", fmt.Errorf("requesting a token for %s/%s: %w", namespace, serviceAccount, err)
		}
		audiences = append(audiences, probe.Spec.Audiences...)
	}
	tr, err := cs.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, serviceAccount, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{
			Audiences:         audiences,
			ExpirationSeconds: new(int64(3600)),
			BoundObjectRef:    &authenticationv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: p.Name, UID: p.UID},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("requesting a token for %s/%s bound to pod %s: %w", namespace, serviceAccount, pod, err)
	}
	return tr.Status.Token, nil
}

// GatewayRoleFile is the ClusterRole toolgate ships for toolgate-gateway's ServiceAccount.
var GatewayRoleFile = []string{configDir, "gateway", "role.yaml"}

const (
	configDir       = "config"
	rbacDir         = "rbac"
	clusterRoleKind = "ClusterRole"
)

// Gateway creates ServiceAccount namespace/name bound (cluster-wide) to exactly the rules of
// GatewayRoleFile and returns a REST config that authenticates as it with a real token: the
// identity toolgate-gateway runs with.
func Gateway(ctx context.Context, admin *rest.Config, namespace, name string) (*rest.Config, error) {
	return withShippedClusterRole(ctx, admin, namespace, name, GatewayRoleFile)
}

// MetricsReaderRoleFile is the ClusterRole toolgate ships for what scrapes its metrics endpoints.
var MetricsReaderRoleFile = []string{configDir, rbacDir, "metrics_reader_role.yaml"}

// MetricsReader creates ServiceAccount namespace/name bound to the metrics-reader ClusterRole
// toolgate ships, as a Prometheus would be, and returns its REST config (a real token).
func MetricsReader(ctx context.Context, admin *rest.Config, namespace, name string) (*rest.Config, error) {
	return withShippedClusterRole(ctx, admin, namespace, name, MetricsReaderRoleFile)
}

// withShippedClusterRole creates ServiceAccount namespace/name bound to a copy of the ClusterRole
// in file (named after the account, so that suites do not share it), and returns its REST config.
func withShippedClusterRole(ctx context.Context, admin *rest.Config, namespace, name string, file []string) (*rest.Config, error) {
	cs, err := kubernetes.NewForConfig(admin)
	if err != nil {
		return nil, err
	}
	if _, err := cs.CoreV1().ServiceAccounts(namespace).Create(ctx, &corev1.ServiceAccount{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("creating ServiceAccount %s/%s: %w", namespace, name, err)
	}
	shipped, err := readClusterRole(file)
	if err != nil {
		return nil, err
	}
	roleName := namespace + "-" + name
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: roleName}, Rules: shipped.Rules}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("creating ClusterRole %s: %w", roleName, err)
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: roleName},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: clusterRoleKind, Name: roleName},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: namespace, Name: name}},
	}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("creating ClusterRoleBinding %s: %w", roleName, err)
	}
	return tokenConfig(ctx, cs, admin, namespace, name)
}
