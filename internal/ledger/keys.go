package ledger

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// Keys are stored as PEM: the private key PKCS#8 ("PRIVATE KEY"), the public key PKIX
// ("PUBLIC KEY"), as openssl writes them, so an auditor can handle them with common tools.

// GenerateKey makes a new signing key.
func GenerateKey() (ed25519.PrivateKey, error) {
	_, key, err := ed25519.GenerateKey(rand.Reader)
	return key, err
}

// EncodePrivateKey returns key as PKCS#8 PEM.
func EncodePrivateKey(key ed25519.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// EncodePublicKey returns pub as PKIX PEM.
func EncodePublicKey(pub ed25519.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// ParsePrivateKey reads a PKCS#8 PEM Ed25519 private key.
func ParsePrivateKey(b []byte) (ed25519.PrivateKey, error) {
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PRIVATE KEY" {
		return nil, errors.New("not a PEM \"PRIVATE KEY\" block")
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, err
	}
	key, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("a %T, not an Ed25519 key", k)
	}
	return key, nil
}

// ParsePublicKey reads one Ed25519 public key: PKIX PEM, or the 32 raw bytes in base64. A
// bundle of several keys is refused, not read as its first (ParsePublicKeys reads bundles).
func ParsePublicKey(b []byte) (ed25519.PublicKey, error) {
	keys, err := ParsePublicKeys(b)
	if err != nil {
		return nil, err
	}
	if len(keys) != 1 {
		return nil, fmt.Errorf("%d public keys, want one", len(keys))
	}
	return keys[0], nil
}

// ParsePublicKeys reads Ed25519 public keys: one or more PKIX PEM blocks (a bundle, as after a
// key rotation: the old keys and the new one, in any order), or one key per line as the 32 raw
// bytes in base64. Text around the PEM blocks is ignored, as openssl ignores it, but a block
// that is not an Ed25519 "PUBLIC KEY", or a "-----BEGIN" that does not decode, is an error:
// a bundle is never read in part.
func ParsePublicKeys(b []byte) ([]ed25519.PublicKey, error) {
	var keys []ed25519.PublicKey
	rest := b
	for {
		blk, r := pem.Decode(rest)
		if blk == nil {
			break
		}
		rest = r
		n := len(keys) + 1
		if blk.Type != "PUBLIC KEY" {
			return nil, fmt.Errorf("PEM block %d: a %q block, want \"PUBLIC KEY\"", n, blk.Type)
		}
		k, err := x509.ParsePKIXPublicKey(blk.Bytes)
		if err != nil {
			return nil, fmt.Errorf("PEM block %d: %w", n, err)
		}
		pub, ok := k.(ed25519.PublicKey)
		if !ok {
			return nil, fmt.Errorf("PEM block %d: a %T, not an Ed25519 key", n, k)
		}
		keys = append(keys, pub)
	}
	if len(keys) > 0 {
		if strings.Contains(string(rest), "-----BEGIN") {
			return nil, fmt.Errorf("PEM block %d does not decode", len(keys)+1)
		}
		return keys, nil
	}
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(line)
		if err != nil || len(raw) != ed25519.PublicKeySize {
			return nil, errors.New("neither PKIX PEM nor 32 bytes of base64")
		}
		keys = append(keys, ed25519.PublicKey(raw))
	}
	if len(keys) == 0 {
		return nil, errors.New("neither PKIX PEM nor 32 bytes of base64")
	}
	return keys, nil
}

// PublicKey returns the public half of the journal's signing key, or nil when it signs nothing.
func (j *Journal) PublicKey() ed25519.PublicKey {
	if j.cfg.SigningKey == nil {
		return nil
	}
	return j.cfg.SigningKey.Public().(ed25519.PublicKey)
}

// Writer names the journal's chain.
func (j *Journal) Writer() string { return j.cfg.Writer }
