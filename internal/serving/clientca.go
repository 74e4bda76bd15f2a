package serving

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"sync"
	"time"
)

// clientCA is a CA bundle on disk (a mounted Secret) that verifies client certificates. It is
// re-read when the file changes, so rotating the API server's client CA needs no restart: kubelet
// updates the mounted file and the next handshake uses it.
type clientCA struct {
	path string

	mu      sync.Mutex
	pool    *x509.CertPool
	data    []byte
	checked time.Time
}

// recheck bounds how often a handshake stats the file.
const recheck = 5 * time.Second

func loadClientCA(path string) (*clientCA, error) {
	c := &clientCA{path: path}
	if _, err := c.current(time.Now()); err != nil {
		return nil, err
	}
	return c, nil
}

// current returns the pool, re-reading the file at most every recheck. A file that became
// unreadable or empty keeps the last good pool: a half-written update must not open the door.
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
	if err != nil {
		if c.pool != nil {
			return c.pool, nil
		}
		return nil, fmt.Errorf("reading the webhook client CA: %w", err)
	}
	c.pool, c.data = pool, data
	return pool, nil
}

// requireClientCert returns cfg changed to refuse, at the handshake, every client without a
// certificate that the CA in c verifies for client authentication.
func requireClientCert(cfg *tls.Config, c *clientCA) *tls.Config {
	base := cfg.Clone()
	base.ClientAuth = tls.RequireAndVerifyClientCert
	out := base.Clone()
	out.GetConfigForClient = func(*tls.ClientHelloInfo) (*tls.Config, error) {
		pool, err := c.current(time.Now())
		if err != nil {
			return nil, err
		}
		perConn := base.Clone()
		perConn.ClientCAs = pool
		return perConn, nil
	}
	pool, _ := c.current(time.Now())
	out.ClientCAs = pool
	return out
}
