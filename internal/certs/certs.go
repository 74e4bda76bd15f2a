// Package certs gives the webhook server its serving certificate: generated and rotated by the
// operator itself (open-policy-agent/cert-controller), which also injects the CA into toolgate's
// ValidatingWebhookConfiguration. With rotation off, the certificate comes from files another
// party provides (cert-manager; see docs/certificates.md).
package certs

import (
	"crypto/x509"

	"github.com/open-policy-agent/cert-controller/pkg/rotator"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
)

// Options say where the certificate lives and what it must name.
type Options struct {
	// SecretNamespace and SecretName name the Secret holding the CA and serving pair; in a cluster
	// it is mounted at CertDir.
	SecretNamespace, SecretName string
	// CertDir is where the webhook server reads tls.crt and tls.key.
	CertDir string
	// DNSName is the name the API server dials: the webhook Service's DNS name in a cluster,
	// "localhost" on one machine.
	DNSName string
	// WebhookConfiguration is the ValidatingWebhookConfiguration whose caBundle is injected.
	WebhookConfiguration string
}

// The rotator reads, lists, watches and updates only the certificate Secret and toolgate's own
// webhook configuration (narrow.go: its lists and watches select those names, which the API server
// authorizes by resourceNames). The names are the ones config/default gives (its namePrefix is
// toolgate-); a renamed install must change them here.
// +kubebuilder:rbac:groups="",namespace=toolgate-system,resources=secrets,resourceNames=toolgate-webhook-server-cert,verbs=get;list;watch;update
// +kubebuilder:rbac:groups=admissionregistration.k8s.io,resources=validatingwebhookconfigurations,resourceNames=toolgate-validating-webhook-configuration,verbs=get;list;watch;update

// AddRotator adds the certificate rotator to mgr and returns a channel closed once the serving
// certificate is on disk and the CA is injected. Every replica runs it (no leader election): each
// needs the certificate, and they converge on the one Secret.
func AddRotator(mgr ctrl.Manager, o Options) (<-chan struct{}, error) {
	ready := make(chan struct{})
	err := rotator.AddRotator(narrowTo(mgr, collectionPaths(o)), &rotator.CertRotator{
		SecretKey:             types.NamespacedName{Namespace: o.SecretNamespace, Name: o.SecretName},
		CertDir:               o.CertDir,
		CAName:                "toolgate-ca",
		CAOrganization:        "toolgate",
		DNSName:               o.DNSName,
		ExtKeyUsages:          &[]x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsReady:               ready,
		Webhooks:              []rotator.WebhookInfo{{Name: o.WebhookConfiguration, Type: rotator.Validating}},
		RequireLeaderElection: false,
		EnableReadinessCheck:  true,
	})
	return ready, err
}
