package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/pflag"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
)

// anchorFlags are what verify holds outside the volume: the public key and the published heads.
type anchorFlags struct {
	publicKey   string
	heads       string
	fromCluster bool
	kube        *kubeFlags
}

func (a *anchorFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&a.publicKey, "public-key", "",
		"the ledger's Ed25519 public key: PEM (ed25519.pub of the signing Secret) or base64")
	fs.StringVar(&a.heads, "heads", "",
		"file with the published heads: an AuditLedger (YAML or JSON) or a JSON list of signed heads")
	fs.BoolVar(&a.fromCluster, "heads-from-cluster", false,
		"read the published heads from the cluster's AuditLedger (with the kubectl connection flags)")
}

func (a *anchorFlags) options() (ledger.VerifyOptions, error) {
	var o ledger.VerifyOptions
	if a.publicKey != "" {
		b, err := os.ReadFile(a.publicKey)
		if err != nil {
			return o, fmt.Errorf("--public-key: %w", err)
		}
		if o.PublicKey, err = ledger.ParsePublicKey(b); err != nil {
			return o, fmt.Errorf("--public-key %s: %w", a.publicKey, err)
		}
	}
	switch {
	case a.heads != "" && a.fromCluster:
		return o, errors.New("--heads and --heads-from-cluster: give one")
	case a.heads != "":
		b, err := os.ReadFile(a.heads)
		if err != nil {
			return o, fmt.Errorf("--heads: %w", err)
		}
		if o.Heads, err = parseHeads(b); err != nil {
			return o, fmt.Errorf("--heads %s: %w", a.heads, err)
		}
	case a.fromCluster:
		c, _, err := a.kube.client()
		if err != nil {
			return o, fmt.Errorf("--heads-from-cluster: %w", err)
		}
		al := &safetyv1alpha1.AuditLedger{}
		if err := c.Get(context.Background(), client.ObjectKey{Name: audit.LedgerName}, al); err != nil {
			return o, fmt.Errorf("--heads-from-cluster: reading AuditLedger %s: %w", audit.LedgerName, err)
		}
		if o.Heads, err = audit.PublishedHeads(al.Status); err != nil {
			return o, fmt.Errorf("--heads-from-cluster: AuditLedger %s: %w", audit.LedgerName, err)
		}
	}
	return o, nil
}

// parseHeads reads an AuditLedger's published heads, or a JSON list of signed heads.
func parseHeads(b []byte) ([]ledger.SignedHead, error) {
	var list []ledger.SignedHead
	if err := json.Unmarshal(b, &list); err == nil {
		if len(list) == 0 {
			return nil, errors.New("the list of signed heads is empty")
		}
		return list, nil
	}
	al := &safetyv1alpha1.AuditLedger{}
	if err := yaml.UnmarshalStrict(b, al); err != nil {
		return nil, fmt.Errorf("neither an AuditLedger nor a JSON list of signed heads: %w", err)
	}
	if al.Kind != "AuditLedger" {
		return nil, fmt.Errorf("kind %q, want AuditLedger", al.Kind)
	}
	return audit.PublishedHeads(al.Status)
}
