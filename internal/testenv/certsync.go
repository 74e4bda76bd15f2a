package testenv

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/toolgate/toolgate/internal/audit"
)

// Names the local operator uses, as config/default names them in a cluster.
const (
	OperatorNamespace        = "toolgate-system"
	CertSecretName           = "toolgate-webhook-server-cert"
	WebhookConfigurationName = "toolgate-validating-webhook-configuration" // as config/default names it
)

// syncCertificates plays the kubelet's part on a machine without one: it creates the (empty)
// certificate Secret the operator fills, and copies its serving pair into a directory the manager
// reads, as a Secret volume would. It returns the directory.
func (l *Local) syncCertificates(ctx context.Context) (string, error) {
	cs, err := kubernetes.NewForConfig(l.Admin)
	if err != nil {
		return "", err
	}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: OperatorNamespace}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return "", err
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: OperatorNamespace, Name: CertSecretName}}
	if _, err := cs.CoreV1().Secrets(OperatorNamespace).Create(ctx, secret, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return "", err
	}
	// The ledger's signing key Secret ships empty too (config/webhook/ledger-signing-key.yaml);
	// the operator may fill it but, under its least-privilege RBAC, not create it.
	signing := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: OperatorNamespace, Name: audit.SigningSecretName}}
	if _, err := cs.CoreV1().Secrets(OperatorNamespace).Create(ctx, signing, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return "", err
	}
	dir := filepath.Join(l.Dir, "serving-certs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	syncCtx, cancel := context.WithCancel(context.Background())
	l.stopSync = cancel
	go func() {
		for syncCtx.Err() == nil {
			s, err := cs.CoreV1().Secrets(OperatorNamespace).Get(syncCtx, CertSecretName, metav1.GetOptions{})
			if err == nil {
				for _, name := range []string{"tls.crt", "tls.key"} {
					writeIfChanged(filepath.Join(dir, name), s.Data[name])
				}
			}
			select {
			case <-syncCtx.Done():
			case <-time.After(250 * time.Millisecond):
			}
		}
	}()
	return dir, nil
}

// writeIfChanged replaces path atomically when data is new, as a Secret volume update does.
func writeIfChanged(path string, data []byte) {
	if len(data) == 0 {
		return
	}
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return
	}
	tmp := path + ".tmp"
	if os.WriteFile(tmp, data, 0o600) == nil {
		_ = os.Rename(tmp, path)
	}
}
