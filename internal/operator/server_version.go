package operator

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

// MinKubernetes is the oldest API server toolgate runs against: its live lookups and its watch of
// finished calls select by CRD selectable fields, which the API server serves from 1.31. On 1.30
// the feature is alpha and off, the CRDs' fields are dropped and every such selector is refused,
// so every plan's admission would fail; the chart says so in its kubeVersion, and this says so
// to an install without the chart (kustomize, kubectl apply) before the manager starts.
var MinKubernetes = version.MustParseGeneric("1.31.0")

// CheckServerVersion asks the API server its version and refuses one older than MinKubernetes,
// naming both.
func CheckServerVersion(cfg *rest.Config) error {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return err
	}
	info, err := dc.ServerVersion()
	if err != nil {
		return fmt.Errorf("asking the API server its version: %w", err)
	}
	v, err := version.ParseGeneric(info.GitVersion)
	if err != nil {
		return fmt.Errorf("the API server's version %q: %w", info.GitVersion, err)
	}
	if v.LessThan(MinKubernetes) {
		return fmt.Errorf("the API server is Kubernetes %s; toolgate needs %s or newer (its CRDs' selectable fields, which it selects by, are served from 1.31)",
			info.GitVersion, MinKubernetes)
	}
	return nil
}
