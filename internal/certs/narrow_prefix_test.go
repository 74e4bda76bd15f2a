package certs

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// A REST config whose server URL has a path (an API server behind a proxy: Rancher's
// /k8s/clusters/<id>, a kubectl proxy --api-prefix) sends the rotator's lists under that path, which
// collectionPaths does not name: they go unnarrowed, and the role (resourceNames only) forbids them.
func TestNameSelectingUnderAServerPathPrefix(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.Path+"?"+r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"SecretList","apiVersion":"v1","metadata":{},"items":[]}`))
	}))
	defer srv.Close()
	o := Options{SecretNamespace: "toolgate-system", SecretName: "cert", WebhookConfiguration: "vwc"}
	cfg := narrowConfig(&rest.Config{Host: srv.URL + "/k8s/clusters/c-1"}, collectionPaths(o))
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().Secrets("toolgate-system").List(context.Background(), metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.Contains(got[0], "metadata.name%3Dcert") {
		t.Errorf("the list was sent as %q: not narrowed to the Secret's name", got)
	}
}
