package operator_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	apimachineryversion "k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/rest"

	"github.com/toolgate/toolgate/internal/operator"
)

// TestCheckServerVersion asks a server that answers /version as an API server does: releases from
// 1.31 on (with the suffixes distributions add) pass, older ones are refused naming the version.
func TestCheckServerVersion(t *testing.T) {
	for _, tc := range []struct {
		gitVersion string
		ok         bool
	}{
		{"v1.37.2", true},
		{"v1.31.0", true},
		{"v1.31.0-rc.1", true}, // ParseGeneric reads the release, not the pre-release
		{"v1.33.4+k3s1", true},
		{"v1.32.9-eks-1234abc", true},
		{"v1.30.14", false},
		{"v1.30.0+k3s1", false},
		{"v1.29.2-gke.1000", false},
	} {
		t.Run(tc.gitVersion, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/version" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(apimachineryversion.Info{GitVersion: tc.gitVersion})
			}))
			defer srv.Close()
			err := operator.CheckServerVersion(&rest.Config{Host: srv.URL})
			if tc.ok != (err == nil) {
				t.Fatalf("CheckServerVersion(%s) = %v, want ok=%v", tc.gitVersion, err, tc.ok)
			}
			if err != nil && (!strings.Contains(err.Error(), tc.gitVersion) || !strings.Contains(err.Error(), "1.31")) {
				t.Errorf("the refusal does not name the server's version and the one needed: %v", err)
			}
		})
	}
	t.Run("an API server that does not answer", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		srv.Close()
		if err := operator.CheckServerVersion(&rest.Config{Host: srv.URL}); err == nil {
			t.Fatal("no error from a server that is gone")
		}
	})
}
