package testenv

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// CA is a certificate authority made for one test run.
type CA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	// PEM is the CA certificate, as a webhook server's client CA bundle holds it.
	PEM []byte
}

// NewCA makes a self-signed CA named cn.
func NewCA(cn string) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &CA{cert: cert, key: key, PEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}, nil
}

// ClientCert issues a client-authentication certificate for cn; it returns the pair as PEM.
func (ca *CA) ClientCert(cn string) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), nil
}

// TLSClientCert is ClientCert as a tls.Certificate, for a Go client.
func (ca *CA) TLSClientCert(cn string) (tls.Certificate, error) {
	certPEM, keyPEM, err := ca.ClientCert(cn)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.X509KeyPair(certPEM, keyPEM)
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	return n
}

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
