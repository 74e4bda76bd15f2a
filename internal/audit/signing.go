package audit

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/toolgate/toolgate/internal/ledger"
)

// SigningSecretName is the Secret, in the operator's namespace, holding the ledger's signing key.
// config/default ships it empty (its namePrefix is toolgate-); the operator fills it. The
// operator's RBAC names it (internal/controller/auditledger_controller.go).
const SigningSecretName = "toolgate-ledger-signing-key"

// Keys of the signing Secret's data.
const (
	SigningKeyData = "ed25519.key" // PKCS#8 PEM private key
	PublicKeyData  = "ed25519.pub" // PKIX PEM public key, for auditors
)

// LoadSigningKey returns the ledger's signing key from the Secret key names, generating it when
// the Secret holds none. Replicas that start together converge on one key: an update that loses
// the race (a conflict) re-reads the winner's. A Secret whose key does not parse is an error,
// never overwritten, since replacing a key would orphan every signature made with it.
func LoadSigningKey(ctx context.Context, c client.Client, key client.ObjectKey) (ed25519.PrivateKey, error) {
	for range 3 {
		s := &corev1.Secret{}
		err := c.Get(ctx, key, s)
		if apierrors.IsNotFound(err) {
			// The manifests ship the Secret; creating it needs a right the operator does not hold
			// in a cluster, so this path serves installs that run the manager as an administrator.
			s = &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}, Type: corev1.SecretTypeOpaque}
			err = c.Create(ctx, s)
			if apierrors.IsAlreadyExists(err) {
				continue
			}
		}
		if err != nil {
			return nil, fmt.Errorf("reading the ledger signing key Secret %s: %w", key, err)
		}
		if pemKey, ok := s.Data[SigningKeyData]; ok {
			k, err := ledger.ParsePrivateKey(pemKey)
			if err != nil {
				return nil, fmt.Errorf("ledger signing key Secret %s: data[%q]: %w", key, SigningKeyData, err)
			}
			return k, nil
		}
		k, err := fillSigningSecret(s)
		if err != nil {
			return nil, err
		}
		err = c.Update(ctx, s)
		if apierrors.IsConflict(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("storing the generated ledger signing key in Secret %s: %w", key, err)
		}
		return k, nil
	}
	return nil, fmt.Errorf("ledger signing key Secret %s: it kept changing while being filled", key)
}

func fillSigningSecret(s *corev1.Secret) (ed25519.PrivateKey, error) {
	k, err := ledger.GenerateKey()
	if err != nil {
		return nil, fmt.Errorf("generating the ledger signing key: %w", err)
	}
	priv, err := ledger.EncodePrivateKey(k)
	if err != nil {
		return nil, err
	}
	pub, err := ledger.EncodePublicKey(k.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	if s.Data == nil {
		s.Data = map[string][]byte{}
	}
	s.Data[SigningKeyData], s.Data[PublicKeyData] = priv, pub
	return k, nil
}

// fieldOwner is the server-side apply field manager of one writer's status entries. Managers
// are at most 128 bytes; a longer writer name is shortened by its hash, still one per writer.
func fieldOwner(writer string) string {
	const prefix = "toolgate-ledger-"
	if len(prefix)+len(writer) <= 128 {
		return prefix + writer
	}
	sum := sha256.Sum256([]byte(writer))
	return prefix + writer[:64] + "-" + hex.EncodeToString(sum[:8])
}
