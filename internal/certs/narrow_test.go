package certs

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestNameSelectingNarrowsListsAndWatchesOfItsCollectionsOnly(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery)
	}))
	defer srv.Close()
	paths := collectionPaths(Options{SecretNamespace: "toolgate-system", SecretName: "cert", WebhookConfiguration: "vwc"})
	c := &http.Client{Transport: nameSelecting{next: http.DefaultTransport, only: paths}}
	for _, r := range []struct{ method, path string }{
		{http.MethodGet, "/api/v1/namespaces/toolgate-system/secrets?limit=500"},
		{http.MethodGet, "/api/v1/namespaces/toolgate-system/secrets?watch=true&resourceVersion=7"},
		{http.MethodGet, "/api/v1/namespaces/toolgate-system/secrets?fieldSelector=type%3Dkubernetes.io%2Ftls"},
		{http.MethodGet, "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations"},
		{http.MethodGet, "/api/v1/namespaces/toolgate-system/secrets/cert"},
		{http.MethodPut, "/api/v1/namespaces/toolgate-system/secrets/cert"},
		{http.MethodGet, "/api/v1/namespaces/other/secrets"},
		{http.MethodGet, "/api/v1/secrets"},
	} {
		req, err := http.NewRequest(r.method, srv.URL+r.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	want := []string{
		"GET /api/v1/namespaces/toolgate-system/secrets?fieldSelector=metadata.name%3Dcert&limit=500",
		"GET /api/v1/namespaces/toolgate-system/secrets?fieldSelector=metadata.name%3Dcert&resourceVersion=7&watch=true",
		"GET /api/v1/namespaces/toolgate-system/secrets?fieldSelector=type%3Dkubernetes.io%2Ftls%2Cmetadata.name%3Dcert",
		"GET /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations?fieldSelector=metadata.name%3Dvwc",
		"GET /api/v1/namespaces/toolgate-system/secrets/cert?",
		"PUT /api/v1/namespaces/toolgate-system/secrets/cert?",
		"GET /api/v1/namespaces/other/secrets?",
		"GET /api/v1/secrets?",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d requests, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("request %d: got %q, want %q", i, got[i], want[i])
		}
	}
}
