package serving

import (
	"crypto/x509"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	certutil "k8s.io/client-go/util/cert"

	"github.com/toolgate/toolgate/internal/testca"
)

func caPEM(t *testing.T, host string) []byte {
	t.Helper()
	certPEM, _, err := certutil.GenerateSelfSignedCertKey(host, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return certPEM
}

func poolOf(t *testing.T, pemData []byte) *x509.CertPool {
	t.Helper()
	p := x509.NewCertPool()
	if !p.AppendCertsFromPEM(pemData) {
		t.Fatal("no certificate")
	}
	return p
}

func TestClientCAFollowsTheMountedSecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ca.crt")
	first, second := caPEM(t, "first"), caPEM(t, "second")
	if err := os.WriteFile(path, first, 0o600); err != nil {
		t.Fatal(err)
	}
	ca, err := loadClientCA(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if got, _ := ca.current(now); !got.Equal(poolOf(t, first)) {
		t.Fatal("the first CA is not the pool")
	}

	if err := os.WriteFile(path, second, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := ca.current(now.Add(time.Second)); !got.Equal(poolOf(t, first)) {
		t.Error("the file is re-read on every handshake; it should be at most every recheck")
	}
	now = now.Add(recheck + time.Second)
	if got, _ := ca.current(now); !got.Equal(poolOf(t, second)) {
		t.Error("a rotated CA is not picked up after recheck")
	}

	for name, data := range map[string][]byte{"emptied": nil, "garbage": []byte("not a certificate")} {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		now = now.Add(recheck + time.Second)
		if got, err := ca.current(now); err != nil || !got.Equal(poolOf(t, second)) {
			t.Errorf("%s file: the last good CA must stay (err %v)", name, err)
		}
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	now = now.Add(recheck + time.Second)
	if got, err := ca.current(now); err != nil || !got.Equal(poolOf(t, second)) {
		t.Errorf("removed file: the last good CA must stay (err %v)", err)
	}
}

func TestAServerWithoutItsClientCAWillNotStart(t *testing.T) {
	for name, data := range map[string][]byte{"missing": nil, "no PEM": []byte("junk")} {
		path := filepath.Join(t.TempDir(), "ca.crt")
		if data != nil {
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := NewWebhookServer(WebhookOptions{Port: 0, ClientCAFile: path}); err == nil {
			t.Errorf("%s client CA: the server was built, and would have accepted nobody or anybody", name)
		}
	}
}

// A webhook server is told who may send it reviews: a configuration that lost its client CA (an
// overridden argument list, a dropped patch) must not come up answering anyone.
func TestAServerMustBeToldWhoMaySendReviews(t *testing.T) {
	caFile := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(caFile, caPEM(t, "webhook client CA"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts WebhookOptions
		ok   bool
	}{
		{"neither a client CA nor any client", WebhookOptions{}, false},
		{"client names without the CA", WebhookOptions{ClientNames: []string{"kube-apiserver"}}, false},
		{"names with any client", WebhookOptions{AnyClient: true, ClientNames: []string{"kube-apiserver"}}, false},
		{"both the CA and any client", WebhookOptions{ClientCAFile: caFile, AnyClient: true}, false},
		{"the client CA", WebhookOptions{ClientCAFile: caFile}, true},
		{"the client CA and names", WebhookOptions{ClientCAFile: caFile, ClientNames: []string{"kube-apiserver"}}, true},
		{"any client, asked for", WebhookOptions{AnyClient: true}, true},
		{"no listener", WebhookOptions{Port: -1}, true},
	} {
		if _, err := NewWebhookServer(c.opts); (err == nil) != c.ok {
			t.Errorf("%s: error %v, want accepted=%v", c.name, err, c.ok)
		}
	}
}

// The cluster's CA (kubeadm's signs kubelets' and administrators' client certificates as well as
// the API server's serving one) as the webhook client CA admits all of those clients unless the
// API server's certificate name is pinned; the manager must not start that way.
func TestTheClusterCAAsClientCANeedsNames(t *testing.T) {
	cluster, own := caPEM(t, "kubernetes"), caPEM(t, "webhook client CA")
	write := func(bundle ...[]byte) string {
		t.Helper()
		path := filepath.Join(t.TempDir(), "ca.crt")
		var data []byte
		for _, b := range bundle {
			data = append(data, b...)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	names := []string{"kube-apiserver-webhook-client"}
	for _, c := range []struct {
		name string
		opts WebhookOptions
		ok   bool
	}{
		{"the cluster CA, no names", WebhookOptions{ClientCAFile: write(cluster)}, false},
		{"a bundle holding the cluster CA, no names", WebhookOptions{ClientCAFile: write(own, cluster)}, false},
		{"the cluster CA, the API server's name pinned", WebhookOptions{ClientCAFile: write(cluster), ClientNames: names}, true},
		{"a CA of the webhook client's own, no names", WebhookOptions{ClientCAFile: write(own)}, true},
	} {
		c.opts.ClusterCAs = cluster
		if _, err := NewWebhookServer(c.opts); (err == nil) != c.ok {
			t.Errorf("%s: error %v, want accepted=%v", c.name, err, c.ok)
		}
	}
}

// The same rule holds when the mounted bundle changes: a bundle that adds the cluster's CA while no
// name is pinned is not taken, and the last good one stays.
func TestARotatedBundleMayNotAddTheClusterCAWithoutNames(t *testing.T) {
	cluster, own := mustCA(t, "kubernetes"), mustCA(t, "webhook client CA")
	kubelet := mustCert(t, cluster, testca.Cert{CommonName: "system:node:worker-1"})
	apiServer := mustCert(t, own, testca.Cert{CommonName: "kube-apiserver-webhook-client"})
	both := append(append([]byte{}, own.PEM...), cluster.PEM...)

	srv := startMTLSServerWith(t, own.PEM, WebhookOptions{ClusterCAs: cluster.PEM})
	srv.rotate(t, both)
	if status, _ := newMTLSClient(kubelet).post(t, srv.url); status != 0 {
		t.Errorf("a kubelet's certificate after the cluster CA was added: status %d, want refused", status)
	}
	if status, _ := newMTLSClient(apiServer).post(t, srv.url); status != http.StatusOK {
		t.Errorf("the API server's certificate, the last good bundle kept: status %d", status)
	}

	// Near miss: with the API server's name pinned the bundle is taken, and still only that name answered.
	named := startMTLSServerWith(t, own.PEM, WebhookOptions{ClusterCAs: cluster.PEM,
		ClientNames: []string{"kube-apiserver-webhook-client"}})
	named.rotate(t, both)
	fromCluster := mustCert(t, cluster, testca.Cert{CommonName: "kube-apiserver-webhook-client"})
	if status, _ := newMTLSClient(fromCluster).post(t, named.url); status != http.StatusOK {
		t.Errorf("the API server's name from the added cluster CA: status %d", status)
	}
	if status, _ := newMTLSClient(kubelet).post(t, named.url); status != 0 {
		t.Errorf("a kubelet's certificate with names pinned: status %d, want refused", status)
	}
}
