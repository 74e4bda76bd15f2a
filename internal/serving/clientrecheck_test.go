package serving

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/testca"
)

// fakeClock is the clock of a webhook server's client verification, moved by the test.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// mtlsServer is a webhook server that requires a client certificate from the CA bundle at caPath,
// answering "ok" on every path.
type mtlsServer struct {
	url    string
	addr   string
	caPath string
	clock  *fakeClock
	// served counts the requests that reached the handler.
	served atomic.Int64
}

func startMTLSServer(t *testing.T, bundle []byte, names ...string) *mtlsServer {
	t.Helper()
	return startMTLSServerWith(t, bundle, WebhookOptions{ClientNames: names})
}

// startMTLSServerWith is startMTLSServer with further options (client names, cluster CAs).
func startMTLSServerWith(t *testing.T, bundle []byte, o WebhookOptions) *mtlsServer {
	t.Helper()
	m := &mtlsServer{caPath: filepath.Join(t.TempDir(), "ca.crt")}
	m.writeBundle(t, bundle)
	o.Host, o.Port, o.CertDir, o.ClientCAFile = "127.0.0.1", 0, pairDir(t, "localhost"), m.caPath
	s, err := NewWebhookServer(o)
	if err != nil {
		t.Fatal(err)
	}
	// The fake clock starts after the server first read the bundle, on the real clock: started
	// before, a slow start (the serving pair's key generation under -race on a loaded machine)
	// left that read ahead of the fake clock, and rotate's step short of the recheck interval,
	// so the rotated-out CA was still trusted (200 on the reused connection, want 403).
	m.clock = &fakeClock{t: time.Now()}
	s.clientCA.now = m.clock.now
	s.Register("/", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		m.served.Add(1)
		_, _ = io.WriteString(w, "ok")
	}))
	m.addr = runWebhookServer(t, s)
	m.url = "https://" + m.addr + "/validate"
	return m
}

func (m *mtlsServer) writeBundle(t *testing.T, bundle []byte) {
	t.Helper()
	if err := os.WriteFile(m.caPath, bundle, 0o600); err != nil {
		t.Fatal(err)
	}
}

// rotate writes a new bundle and moves the clock past the interval it is re-read at.
func (m *mtlsServer) rotate(t *testing.T, bundle []byte) {
	t.Helper()
	m.writeBundle(t, bundle)
	m.clock.advance(recheck + time.Second)
}

// mtlsClient is an HTTP client presenting one certificate, keeping its connection alive.
type mtlsClient struct {
	hc *http.Client
	// proto is the HTTP major version of the last response; resumed says whether its connection
	// resumed an earlier TLS session.
	proto   int
	resumed bool
}

func newMTLSClient(cert tls.Certificate) *mtlsClient { return newMTLSClientProto(cert, false) }

// newMTLSClientProto is newMTLSClient speaking HTTP/2 when h2 is set.
func newMTLSClientProto(cert tls.Certificate, h2 bool) *mtlsClient {
	// GetClientCertificate presents cert whatever CAs the server names: Go's client would hold
	// back a certificate of a CA the server does not list, and an attacker would not.
	present := func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &cert, nil }
	return &mtlsClient{hc: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{
		GetClientCertificate: present, MinVersion: tls.VersionTLS12,
		InsecureSkipVerify: true, //nolint:gosec // the tests are about the server's check of the client
	}, ForceAttemptHTTP2: h2}}}
}

// post sends a request; it returns the status (0 when the request failed) and whether it went over
// a connection an earlier request opened.
func (c *mtlsClient) post(t *testing.T, url string) (status int, reused bool) {
	t.Helper()
	trace := &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) { reused = i.Reused }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace),
		http.MethodPost, url, http.NoBody)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, reused
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	c.proto = resp.ProtoMajor
	c.resumed = resp.TLS != nil && resp.TLS.DidResume
	return resp.StatusCode, reused
}

func mustCA(t *testing.T, cn string) *testca.CA {
	t.Helper()
	ca, err := testca.New(cn)
	if err != nil {
		t.Fatal(err)
	}
	return ca
}

func mustCert(t *testing.T, ca *testca.CA, c testca.Cert) tls.Certificate {
	t.Helper()
	cert, err := ca.TLSCert(c)
	if err != nil {
		t.Fatal(err)
	}
	return cert
}

// A client's kept-alive connection must not outlive the trust its handshake was given: rotating
// its CA out of the bundle, or its certificate expiring, ends the next request on it too.
func TestAnOpenConnectionLosesAccessWithItsCertificate(t *testing.T) {
	old, next := mustCA(t, "old webhook client CA"), mustCA(t, "new webhook client CA")
	apiServer := testca.Cert{CommonName: "kube-apiserver-webhook-client"}

	check := func(t *testing.T, c *mtlsClient, url string, want int, wantReused bool) {
		t.Helper()
		status, reused := c.post(t, url)
		if status != want || reused != wantReused {
			t.Fatalf("status %d on a reused connection %v; want %d, reused %v", status, reused, want, wantReused)
		}
	}

	t.Run("the CA rotated out of the bundle", func(t *testing.T) {
		srv := startMTLSServer(t, old.PEM)
		held := newMTLSClient(mustCert(t, old, apiServer))
		check(t, held, srv.url, http.StatusOK, false)
		srv.rotate(t, next.PEM)
		check(t, held, srv.url, http.StatusForbidden, true)
		check(t, held, srv.url, 0, false) // a new connection fails at the handshake, as before
		check(t, newMTLSClient(mustCert(t, next, apiServer)), srv.url, http.StatusOK, false)
	})

	t.Run("the CA rotated out of the bundle, over HTTP/2", func(t *testing.T) {
		srv := startMTLSServer(t, old.PEM)
		held := newMTLSClientProto(mustCert(t, old, apiServer), true)
		check(t, held, srv.url, http.StatusOK, false)
		if held.proto != 2 {
			t.Fatalf("the client spoke HTTP/%d", held.proto)
		}
		srv.rotate(t, next.PEM)
		check(t, held, srv.url, http.StatusForbidden, true)
		check(t, held, srv.url, 0, false)
	})

	t.Run("near miss: the new CA added beside the old one", func(t *testing.T) {
		srv := startMTLSServer(t, old.PEM)
		held := newMTLSClient(mustCert(t, old, apiServer))
		check(t, held, srv.url, http.StatusOK, false)
		srv.rotate(t, append(append([]byte{}, old.PEM...), next.PEM...))
		check(t, held, srv.url, http.StatusOK, true)
	})

	t.Run("the certificate expired since the handshake", func(t *testing.T) {
		srv := startMTLSServer(t, old.PEM)
		short := apiServer
		short.NotAfter = time.Now().Add(time.Hour)
		held := newMTLSClient(mustCert(t, old, short))
		check(t, held, srv.url, http.StatusOK, false)
		srv.clock.advance(2 * time.Hour)
		check(t, held, srv.url, http.StatusForbidden, true)
	})

	t.Run("near miss: a certificate still valid after the same time", func(t *testing.T) {
		srv := startMTLSServer(t, old.PEM)
		held := newMTLSClient(mustCert(t, old, apiServer))
		check(t, held, srv.url, http.StatusOK, false)
		srv.clock.advance(2 * time.Hour)
		check(t, held, srv.url, http.StatusOK, true)
	})
}

// Over real TLS, which certificates the webhook listener answers: the attacker's attempts, each
// beside the legitimate shape it imitates.
func TestOnlyAClientCertificateOfTheCAIsAnswered(t *testing.T) {
	root, other := mustCA(t, "webhook client CA"), mustCA(t, "another CA")
	intermediate, err := root.Intermediate("an intermediate of the webhook client CA")
	if err != nil {
		t.Fatal(err)
	}
	strangers, err := other.Intermediate("an intermediate of another CA")
	if err != nil {
		t.Fatal(err)
	}
	apiServer := testca.Cert{CommonName: "kube-apiserver-webhook-client"}
	with := func(change func(*testca.Cert)) testca.Cert {
		c := apiServer
		change(&c)
		return c
	}
	rootSelf, err := root.TLSSelf()
	if err != nil {
		t.Fatal(err)
	}
	for _, names := range [][]string{nil, {"kube-apiserver-webhook-client"}} {
		srv := startMTLSServer(t, root.PEM, names...)
		for _, c := range []struct {
			name string
			cert tls.Certificate
			ok   bool
		}{
			{"the API server's", mustCert(t, root, apiServer), true},
			{"the same name from another CA", mustCert(t, other, apiServer), false},
			{"issued by an intermediate of the CA, chain presented", mustCert(t, intermediate, apiServer), true},
			{"issued by an intermediate of another CA", mustCert(t, strangers, apiServer), false},
			{"for server authentication only", mustCert(t, root, with(func(c *testca.Cert) {
				c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
			})), false},
			{"for code signing only", mustCert(t, root, with(func(c *testca.Cert) {
				c.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}
			})), false},
			{"expired", mustCert(t, root, with(func(c *testca.Cert) {
				c.NotBefore, c.NotAfter = time.Now().Add(-2*time.Hour), time.Now().Add(-time.Hour)
			})), false},
			{"not yet valid", mustCert(t, root, with(func(c *testca.Cert) {
				c.NotBefore = time.Now().Add(time.Hour)
			})), false},
			// Whoever holds the CA's key can issue the API server's certificate anyway; with names
			// set, the CA's own is refused like any other name.
			{"the CA's own certificate", rootSelf, names == nil},
			{"none", tls.Certificate{}, false},
		} {
			if status, _ := newMTLSClient(c.cert).post(t, srv.url); (status == http.StatusOK) != c.ok {
				t.Errorf("names %v, %s: status %d, want answered=%v", names, c.name, status, c.ok)
			}
		}
	}
}

// A TLS session resumed after the CA was rotated out is refused like a new one: resumption skips
// the certificate exchange, so the server must check the session's certificate against the
// bundle of now.
func TestAResumedSessionLosesAccessWithItsCA(t *testing.T) {
	old, next := mustCA(t, "old webhook client CA"), mustCA(t, "new webhook client CA")
	cert := mustCert(t, old, testca.Cert{CommonName: "kube-apiserver-webhook-client"})
	resuming := func() *mtlsClient {
		c := newMTLSClient(cert)
		c.hc.Transport.(*http.Transport).TLSClientConfig.ClientSessionCache = tls.NewLRUClientSessionCache(4)
		return c
	}

	// The control: with the bundle unchanged, the second connection does resume.
	srv := startMTLSServer(t, old.PEM)
	c := resuming()
	if status, _ := c.post(t, srv.url); status != http.StatusOK {
		t.Fatalf("first connection: status %d", status)
	}
	c.hc.CloseIdleConnections()
	if status, reused := c.post(t, srv.url); status != http.StatusOK || reused || !c.resumed {
		t.Fatalf("a new connection with the session: status %d, reused %v, resumed %v", status, reused, c.resumed)
	}

	srv = startMTLSServer(t, old.PEM)
	c = resuming()
	if status, _ := c.post(t, srv.url); status != http.StatusOK {
		t.Fatalf("first connection: status %d", status)
	}
	c.hc.CloseIdleConnections()
	srv.rotate(t, next.PEM)
	if status, _ := c.post(t, srv.url); status != 0 {
		t.Errorf("a session resumed after its CA was rotated out: status %d (resumed %v), want refused", status, c.resumed)
	}
}
