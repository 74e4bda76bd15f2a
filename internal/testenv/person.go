package testenv

import (
	"context"
	"fmt"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// ApproverRoleFile is the ClusterRole toolgate ships for people who approve tool calls.
var ApproverRoleFile = []string{configDir, rbacDir, "toolapproval_approver_role.yaml"}

// Human is a person's access to a test API server.
type Human struct {
	Name       string
	Client     client.Client
	Config     *rest.Config
	Kubeconfig []byte // what kubectl and the plugin read
}

// Person authenticates a human user to env's API server (a client certificate, as kubectl users
// have) and binds the shipped approver ClusterRole to them.
func Person(ctx context.Context, env *envtest.Environment, scheme *runtime.Scheme, name string) (*Human, error) {
	user, err := env.AddUser(envtest.User{Name: name}, nil)
	if err != nil {
		return nil, fmt.Errorf("adding user %s: %w", name, err)
	}
	kubeconfig, err := user.KubeConfig()
	if err != nil {
		return nil, err
	}
	cs, err := kubernetes.NewForConfig(env.Config)
	if err != nil {
		return nil, err
	}
	role, err := EnsureApproverRole(ctx, cs)
	if err != nil {
		return nil, err
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "approver-"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: "User", Name: name}},
	}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("binding %s to %s: %w", role.Name, name, err)
	}
	cfg := user.Config()
	if err := awaitApprover(ctx, cfg); err != nil {
		return nil, fmt.Errorf("waiting for %s to be an approver: %w", name, err)
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return nil, err
	}
	return &Human{Name: name, Client: c, Config: cfg, Kubeconfig: kubeconfig}, nil
}

// awaitApprover waits until the API server's authorizer, which reads RBAC from its own cache,
// lets the user of cfg create ToolApprovals: a binding just created is not always in force at once.
func awaitApprover(ctx context.Context, cfg *rest.Config) error {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
		ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: "create", Group: "safety.toolgate.dev", Resource: "toolapprovals"}}}
	return wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		got, err := cs.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
		if err != nil {
			return false, err
		}
		return got.Status.Allowed, nil
	})
}

// EnsureApproverRole creates the shipped approver ClusterRole unless it exists, and returns it.
func EnsureApproverRole(ctx context.Context, cs kubernetes.Interface) (*rbacv1.ClusterRole, error) {
	role, err := approverRole()
	if err != nil {
		return nil, err
	}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, fmt.Errorf("creating ClusterRole %s: %w", role.Name, err)
	}
	return role, nil
}

func approverRole() (*rbacv1.ClusterRole, error) { return readClusterRole(ApproverRoleFile) }

// readClusterRole reads a ClusterRole toolgate ships, so tests grant exactly what users install.
func readClusterRole(file []string) (*rbacv1.ClusterRole, error) {
	return ReadObject[rbacv1.ClusterRole](file...)
}
