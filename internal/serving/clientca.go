package serving

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	logf "sigs.k8s.io/controller-runtime/pkg/log"
)

// clientCA is a CA bundle on disk (a mounted Secret) that verifies client certificates. It is
// re-read when the file changes, so rotating the API server's client CA needs no restart: kubelet
// updates the mounted file and the next handshake uses it.
type clientCA struct {
	path string
	// now is the clock of handshakes and of the re-checks of open connections; nil is time.Now.
	now func() time.Time
	// check, when set, refuses a bundle (the cluster's CA without pinned client names).
	check func([]byte) error

	mu      sync.Mutex
	pool    *x509.CertPool
	data    []byte
	checked time.Time
}

// recheck bounds how often a handshake stats the file.
const recheck = 5 * time.Second

func loadClientCA(path string) (*clientCA, error) { return loadClientCAChecked(path, nil) }

// loadClientCAChecked is loadClientCA with a check every bundle read must pass, at start (an
// error) and when the file changes (the last good bundle stays).
func loadClientCAChecked(path string, check func([]byte) error) (*clientCA, error) {
	c := &clientCA{path: path, check: check}
	if _, err := c.current(c.clock()); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *clientCA) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

// current returns the pool, re-reading the file at most every recheck. A file that became
// unreadable or empty, or that check refuses, keeps the last good pool: a half-written or
// mistaken update must not open the door.
func (c *clientCA) current(now time.Time) (*x509.CertPool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pool != nil && now.Sub(c.checked) < recheck {
		return c.pool, nil
	}
	c.checked = now
	data, err := os.ReadFile(c.path)
	if err == nil && c.pool != nil && bytes.Equal(data, c.data) {
		return c.pool, nil
	}
	pool := x509.NewCertPool()
	if err == nil && !pool.AppendCertsFromPEM(data) {
		err = fmt.Errorf("%s holds no PEM certificate", c.path)
	}
	if err == nil && c.check != nil {
		err = c.check(data)
	}
	if err != nil {
		if c.pool != nil {
			logf.Log.WithName("webhook").Error(err, "Keeping the last good webhook client CA bundle", "file", c.path)
			return c.pool, nil
		}
		return nil, fmt.Errorf("reading the webhook client CA: %w", err)
	}
	c.pool, c.data = pool, data
	return pool, nil
}

// requireClientCert returns cfg changed to refuse, at the handshake, every client without a
// certificate that the CA in c verifies for client authentication, and, when names is not empty,
// whose certificate names none of them.
func requireClientCert(cfg *tls.Config, c *clientCA, names []string) *tls.Config {
	base := cfg.Clone()
	base.ClientAuth = tls.RequireAndVerifyClientCert
	base.Time = c.clock
	if len(names) > 0 {
		base.VerifyConnection = func(cs tls.ConnectionState) error { return clientNamed(cs, names) }
	}
	out := base.Clone()
	out.GetConfigForClient = func(*tls.ClientHelloInfo) (*tls.Config, error) {
		pool, err := c.current(c.clock())
		if err != nil {
			return nil, err
		}
		perConn := base.Clone()
		perConn.ClientCAs = pool
		return perConn, nil
	}
	pool, _ := c.current(c.clock())
	out.ClientCAs = pool
	return out
}

// clientNamed checks that the verified client certificate carries one of names, as its subject's
// common name or a DNS name: a CA shared with other clients (a cluster CA that also signs kubelet
// and administrator certificates) then still admits only the API server's certificate.
func clientNamed(cs tls.ConnectionState, names []string) error {
	if len(cs.PeerCertificates) == 0 {
		return errors.New("no client certificate")
	}
	leaf := cs.PeerCertificates[0]
	if slices.Contains(names, leaf.Subject.CommonName) || slices.ContainsFunc(leaf.DNSNames, func(n string) bool { return slices.Contains(names, n) }) {
		return nil
	}
	return fmt.Errorf("client certificate %q is not one of the webhook's clients %v", leaf.Subject.CommonName, names)
}
