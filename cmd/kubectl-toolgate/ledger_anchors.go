package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/ledger"
)

// anchorFlags are what a verifier holds outside the volume: the public keys and the published
// heads. ledger verify and replay both take them, through this one type: a ledger is checked
// against the same anchors, with the same flags, whichever command reads it.
type anchorFlags struct {
	publicKeys  []string
	heads       string
	fromCluster bool
	kube        *kubeFlags
}

func (a *anchorFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&a.publicKeys, "public-key", nil,
		"a `FILE` with the ledger's Ed25519 public key: PEM (ed25519.pub of the signing Secret) or base64; "+
			"repeatable, and a file may hold several PEM keys: after a key rotation give the old keys and the new one")
	fs.StringVar(&a.heads, "heads", "",
		"file with the published heads: an AuditLedger (YAML or JSON) or a JSON list of signed heads")
	fs.BoolVar(&a.fromCluster, "heads-from-cluster", false,
		"read the published heads from the cluster's AuditLedger (with the kubectl connection flags)")
}

// options reads the anchors the flags name.
func (a *anchorFlags) options() (ledger.VerifyOptions, error) {
	var o ledger.VerifyOptions
	seen := map[string]bool{}
	for _, f := range a.publicKeys {
		b, err := os.ReadFile(f)
		if err != nil {
			return o, fmt.Errorf("--public-key: %w", err)
		}
		keys, err := ledger.ParsePublicKeys(b)
		if err != nil {
			return o, fmt.Errorf("--public-key %s: %w", f, err)
		}
		for _, k := range keys {
			if id := ledger.KeyID(k); !seen[id] {
				seen[id] = true
				o.PublicKeys = append(o.PublicKeys, k)
			}
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
		// Read as it is served, then through the same reader as a saved file: an operator newer
		// than this plugin is read the same way in both.
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(safetyv1alpha1.GroupVersion.WithKind("AuditLedger"))
		if err := c.Get(context.Background(), client.ObjectKey{Name: audit.LedgerName}, u); err != nil {
			return o, fmt.Errorf("--heads-from-cluster: reading AuditLedger %s: %w", audit.LedgerName, err)
		}
		b, err := u.MarshalJSON()
		if err != nil {
			return o, fmt.Errorf("--heads-from-cluster: AuditLedger %s: %w", audit.LedgerName, err)
		}
		if o.Heads, err = auditLedgerHeads(b); err != nil {
			return o, fmt.Errorf("--heads-from-cluster: AuditLedger %s: %w", audit.LedgerName, err)
		}
	}
	return o, nil
}

// parseHeads reads an AuditLedger's published heads, or a JSON list of signed heads.
func parseHeads(b []byte) ([]ledger.SignedHead, error) {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		var list []ledger.SignedHead
		if err := decodeStrict(t, &list); err != nil {
			return nil, fmt.Errorf("a JSON list of signed heads: %w", err)
		}
		if len(list) == 0 {
			return nil, errors.New("the list of signed heads is empty")
		}
		return list, nil
	}
	return auditLedgerHeads(b)
}

// auditLedgerHeads reads the published heads of an AuditLedger (YAML or JSON), saved by any
// release. The object is read leniently: a field this plugin does not know elsewhere in it (a
// later release's spec or status field, metadata the API server adds) says nothing about the
// heads and is ignored. Strictness stays where it protects the anchors: a key given twice
// (which of the two is the head?) and a field unknown inside a signed head, which may be
// something a later release signs, are refused rather than verified without it.
func auditLedgerHeads(b []byte) ([]ledger.SignedHead, error) {
	j, err := yaml.YAMLToJSONStrict(b)
	if err != nil {
		return nil, fmt.Errorf("neither an AuditLedger nor a JSON list of signed heads: %w", err)
	}
	var obj struct {
		Kind   string `json:"kind"`
		Status struct {
			SignedHeads []json.RawMessage `json:"signedHeads"`
		} `json:"status"`
	}
	if err := json.Unmarshal(j, &obj); err != nil {
		return nil, fmt.Errorf("neither an AuditLedger nor a JSON list of signed heads: %w", err)
	}
	if obj.Kind != "AuditLedger" {
		return nil, fmt.Errorf("kind %q, want AuditLedger", obj.Kind)
	}
	var st safetyv1alpha1.AuditLedgerStatus
	for i, raw := range obj.Status.SignedHeads {
		var h safetyv1alpha1.LedgerSignedHead
		if err := decodeStrict(raw, &h); err != nil {
			return nil, fmt.Errorf("status.signedHeads[%d]: %w (the AuditLedger is from a release that "+
				"signs more than this plugin reads: use its plugin)", i, err)
		}
		st.SignedHeads = append(st.SignedHeads, h)
	}
	return audit.PublishedHeads(st)
}

// decodeStrict decodes one JSON value into v, refusing fields v does not have and trailing data.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("data after the value")
	}
	return nil
}

// sayLimits prints what the anchors could not prove, one "cannot prove:" line each.
func sayLimits(w io.Writer, limits []string) {
	for _, l := range limits {
		sayVisible(w, "cannot prove: "+l)
	}
}
