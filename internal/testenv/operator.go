package testenv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"
)

// OperatorServiceAccount is the manager's ServiceAccount as config/default names it.
const OperatorServiceAccount = "toolgate-controller-manager"

// rbacKinds are the objects of config/default that give the operator (and the people and agents
// around it) their rights, and the admission policies that limit them.
var rbacKinds = map[string]bool{
	"ServiceAccount": true, "Role": true, "ClusterRole": true, "RoleBinding": true, "ClusterRoleBinding": true,
	"ValidatingAdmissionPolicy": true, "ValidatingAdmissionPolicyBinding": true,
}

// RenderDefault renders config/default with the pinned kubectl's kustomize, as `kubectl apply -k`
// would apply it, and returns its objects.
func RenderDefault(ctx context.Context) ([]*unstructured.Unstructured, []byte, error) {
	return RenderKustomization(ctx, "config", "default")
}

// RenderKustomization renders the kustomization in the repository's directory elem (config/gateway,
// say) with the pinned kubectl's kustomize, and returns its objects and the YAML.
func RenderKustomization(ctx context.Context, elem ...string) ([]*unstructured.Unstructured, []byte, error) {
	assets, err := AssetsDir()
	if err != nil {
		return nil, nil, err
	}
	dir, err := Path(elem...)
	if err != nil {
		return nil, nil, err
	}
	out, err := exec.CommandContext(ctx, filepath.Join(assets, "kubectl"), "kustomize", dir).Output()
	if err != nil {
		return nil, nil, fmt.Errorf("kubectl kustomize %s: %w", dir, err)
	}
	objs, err := DecodeYAML(out)
	return objs, out, err
}

// operatorKubeconfig binds the operator's RBAC exactly as config/default renders it and returns a
// kubeconfig that authenticates as the operator's ServiceAccount with a token from the TokenRequest
// API: the manager runs with its own rights, so a permission it lacks fails a test, not a rollout.
func (l *Local) operatorKubeconfig(ctx context.Context) (string, error) {
	objs, _, err := RenderDefault(ctx)
	if err != nil {
		return "", err
	}
	var manifest bytes.Buffer
	for _, o := range objs {
		if !rbacKinds[o.GetKind()] {
			continue
		}
		data, err := yaml.Marshal(o.Object)
		if err != nil {
			return "", err
		}
		manifest.WriteString("---\n")
		manifest.Write(data)
	}
	rbacFile := filepath.Join(l.Dir, "operator-rbac.yaml")
	if err := os.WriteFile(rbacFile, manifest.Bytes(), 0o600); err != nil {
		return "", err
	}
	if _, err := l.KubectlRun(ctx, nil, "apply", "-f", rbacFile); err != nil {
		return "", err
	}
	cs, err := kubernetes.NewForConfig(l.Admin)
	if err != nil {
		return "", err
	}
	tr, err := cs.CoreV1().ServiceAccounts(OperatorNamespace).CreateToken(ctx, OperatorServiceAccount, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: new(int64(48 * 3600))},
	}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("requesting a token for the operator's ServiceAccount: %w", err)
	}
	path := filepath.Join(l.Dir, "operator.kubeconfig")
	return path, writeTokenKubeconfig(path, l.Admin, "operator", tr.Status.Token)
}

// writeTokenKubeconfig writes a kubeconfig for admin's API server that authenticates, as user,
// with token alone, its namespace OperatorNamespace.
func writeTokenKubeconfig(path string, admin *rest.Config, user, token string) error {
	const cluster = "local"
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[cluster] = &clientcmdapi.Cluster{Server: admin.Host, CertificateAuthorityData: admin.CAData}
	cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts[user] = &clientcmdapi.Context{Cluster: cluster, AuthInfo: user, Namespace: OperatorNamespace}
	cfg.CurrentContext = user
	return clientcmd.WriteToFile(*cfg, path)
}

// webhookConfiguration is config/webhook's ValidatingWebhookConfiguration under the name
// config/default gives it, the one name the operator's RBAC lets it update.
func webhookConfiguration() (*admissionregistrationv1.ValidatingWebhookConfiguration, error) {
	vwc, err := ReadObject[admissionregistrationv1.ValidatingWebhookConfiguration]("config", "webhook", "manifests.yaml")
	if err != nil {
		return nil, err
	}
	vwc.Name = WebhookConfigurationName
	return vwc, nil
}

// ReadObject reads one object of type T from a file of the repository, refusing unknown fields,
// so that tests and the demo use exactly what toolgate ships.
func ReadObject[T any](elem ...string) (*T, error) {
	path, err := Path(elem...)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	obj := new(T)
	if err := yaml.UnmarshalStrict(data, obj); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return obj, nil
}

// DecodeYAML splits a multi-document manifest into objects.
func DecodeYAML(data []byte) ([]*unstructured.Unstructured, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var objs []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		err := dec.Decode(&u.Object)
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			return nil, err
		}
		if len(u.Object) > 0 {
			objs = append(objs, u)
		}
	}
}
