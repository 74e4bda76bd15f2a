package testenv

import (
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/toolgate/toolgate/internal/testca"
)

// CA is a certificate authority made for one test run (internal/testca).
type CA = testca.CA

// NewCA makes a self-signed CA named cn.
func NewCA(cn string) (*CA, error) { return testca.New(cn) }

// WebhookClientCN is the name in the certificate kube-apiserver presents to admission webhooks.
const WebhookClientCN = "kube-apiserver-webhook-client"

// WebhookClientCAFile is the file, in a control plane's directory, holding the CA that issued
// kube-apiserver's webhook client certificate: what the manager's --webhook-client-ca reads.
const WebhookClientCAFile = "webhook-client-ca.crt"

// configureWebhookClientCert makes kube-apiserver authenticate to admission webhooks with a client
// certificate, as a self-managed control plane is configured (docs/webhook.md): a CA and a client
// pair in dir, a kubeconfig naming them for every webhook host ("*"), and an AdmissionConfiguration
// that points both webhook admission plugins at it. It returns the CA.
func configureWebhookClientCert(env *envtest.Environment, dir string) (*CA, error) {
	ca, err := NewCA("toolgate test webhook client CA")
	if err != nil {
		return nil, err
	}
	certPEM, keyPEM, err := ca.ClientCert(WebhookClientCN)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{
		WebhookClientCAFile:         ca.PEM,
		"webhook-client.crt":        certPEM,
		"webhook-client.key":        keyPEM,
		"webhook-client.kubeconfig": fmt.Appendf(nil, webhookKubeconfig, filepath.Join(dir, "webhook-client.crt"), filepath.Join(dir, "webhook-client.key")),
		"admission-config.yaml":     fmt.Appendf(nil, admissionConfig, filepath.Join(dir, "webhook-client.kubeconfig"), filepath.Join(dir, "webhook-client.kubeconfig")),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return nil, err
		}
	}
	env.ControlPlane.GetAPIServer().Configure().Set("admission-control-config-file", filepath.Join(dir, "admission-config.yaml"))
	return ca, nil
}

// The user "*" matches every webhook host the API server dials.
const webhookKubeconfig = `apiVersion: v1
kind: Config
users:
- name: "*"
  user:
    client-certificate: %s
    client-key: %s
`

const admissionConfig = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: ValidatingAdmissionWebhook
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: WebhookAdmissionConfiguration
    kubeConfigFile: %s
- name: MutatingAdmissionWebhook
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: WebhookAdmissionConfiguration
    kubeConfigFile: %s
`
