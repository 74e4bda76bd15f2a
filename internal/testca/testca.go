// Package testca makes certificate authorities and client certificates for tests: the API
// server's webhook client certificate, and the others a shared CA signs.
package testca

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"time"
)

// CA is a certificate authority made for one test run.
type CA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	// PEM is the CA certificate, as a webhook server's client CA bundle holds it.
	PEM []byte
	// chain is the DER of this CA and the intermediates above it, for an intermediate; nil for a root.
	chain [][]byte
}

// New makes a self-signed CA named cn.
func New(cn string) (*CA, error) {
	return newCA(cn, nil)
}

// Intermediate makes a CA named cn that ca signs. The certificates it issues carry it in their
// chain, as a client that holds an intermediate's certificate presents it.
func (ca *CA) Intermediate(cn string) (*CA, error) {
	return newCA(cn, ca)
}

func newCA(cn string, parent *CA) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true,
	}
	signer, signerKey := tmpl, key
	if parent != nil {
		signer, signerKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &key.PublicKey, signerKey)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	ca := &CA{cert: cert, key: key, PEM: pem.EncodeToMemory(&pem.Block{Type: pemCertificate, Bytes: der})}
	if parent != nil {
		ca.chain = append([][]byte{der}, parent.chain...)
	}
	return ca, nil
}

// Cert describes a certificate to issue. The zero value of a field means the default: valid from
// an hour ago for a day, for client authentication only.
type Cert struct {
	CommonName string
	DNSNames   []string
	NotBefore  time.Time
	NotAfter   time.Time
	// ExtKeyUsage is the certificate's extended key usages; nil means client authentication.
	ExtKeyUsage []x509.ExtKeyUsage
}

// ClientCert issues a client-authentication certificate for cn (and dnsNames, if any); it returns
// the pair as PEM.
func (ca *CA) ClientCert(cn string, dnsNames ...string) (certPEM, keyPEM []byte, err error) {
	return ca.Issue(Cert{CommonName: cn, DNSNames: dnsNames})
}

// Issue issues the certificate c describes; it returns the pair as PEM (the certificate first,
// then the intermediates between it and the root, if ca is one).
func (ca *CA) Issue(c Cert) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	if c.NotBefore.IsZero() {
		c.NotBefore = time.Now().Add(-time.Hour)
	}
	if c.NotAfter.IsZero() {
		c.NotAfter = time.Now().Add(24 * time.Hour)
	}
	if c.ExtKeyUsage == nil {
		c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: c.CommonName}, DNSNames: c.DNSNames,
		NotBefore: c.NotBefore, NotAfter: c.NotAfter,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: c.ExtKeyUsage,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	certPEM = pem.EncodeToMemory(&pem.Block{Type: pemCertificate, Bytes: der})
	for _, der := range ca.chain {
		certPEM = append(certPEM, pem.EncodeToMemory(&pem.Block{Type: pemCertificate, Bytes: der})...)
	}
	return certPEM, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), nil
}

// TLSClientCert is ClientCert as a tls.Certificate, for a Go client.
func (ca *CA) TLSClientCert(cn string, dnsNames ...string) (tls.Certificate, error) {
	return ca.TLSCert(Cert{CommonName: cn, DNSNames: dnsNames})
}

// TLSCert is Issue as a tls.Certificate, for a Go client.
func (ca *CA) TLSCert(c Cert) (tls.Certificate, error) {
	certPEM, keyPEM, err := ca.Issue(c)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.X509KeyPair(certPEM, keyPEM)
}

// TLSSelf is the CA's own certificate and key as a client's pair: a CA certificate presented
// as a client certificate.
func (ca *CA) TLSSelf() (tls.Certificate, error) {
	keyDER, err := x509.MarshalECPrivateKey(ca.key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.X509KeyPair(ca.PEM, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
}

// pemCertificate is the PEM block type of a certificate.
const pemCertificate = "CERTIFICATE"

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	return n
}
