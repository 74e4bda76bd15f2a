package hook

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"k8s.io/client-go/rest"
)

// In-cluster defaults: the ServiceAccount volume every pod mounts. A projected token with a
// chosen path and expiry works the same through --token-file.
const (
	DefaultTokenFile = "/var/run/secrets/kubernetes.io/serviceaccount/token"
	DefaultCAFile    = "/var/run/secrets/kubernetes.io/serviceaccount/ca.crt"
	DefaultNSFile    = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"
)

// Config is where the hook finds the API server and its own identity.
type Config struct {
	// Server is the API server's URL; empty is the in-cluster address.
	Server string
	// TokenFile holds the pod's ServiceAccount token; it is read on every request, so a rotated
	// projected token is picked up.
	TokenFile string
	// CAFile verifies the API server's certificate.
	CAFile string
	// Namespace is the pod's namespace; empty reads it from DefaultNSFile.
	Namespace string
}

// REST returns the client configuration and the namespace.
func (c Config) REST() (*rest.Config, string, error) {
	server := c.Server
	if server == "" {
		host, port := os.Getenv("KUBERNETES_SERVICE_HOST"), os.Getenv("KUBERNETES_SERVICE_PORT")
		if host == "" || port == "" {
			return nil, "", fmt.Errorf("no --server given and not in a cluster (KUBERNETES_SERVICE_HOST is unset)")
		}
		server = "https://" + net.JoinHostPort(host, port)
	}
	// Every request carries the pod's token: never in clear text.
	if u, err := url.Parse(server); err != nil || u.Scheme != "https" || u.Host == "" {
		return nil, "", fmt.Errorf("--server %q: want the API server's https:// URL (the hook sends the pod's token to it)", server)
	}
	if _, err := os.Stat(c.TokenFile); err != nil {
		return nil, "", fmt.Errorf("reading the ServiceAccount token: %w", err)
	}
	ns := c.Namespace
	if ns == "" {
		b, err := os.ReadFile(DefaultNSFile)
		if err != nil {
			return nil, "", fmt.Errorf("no --namespace given and none mounted: %w", err)
		}
		ns = strings.TrimSpace(string(b))
	}
	cfg := &rest.Config{Host: server, BearerTokenFile: c.TokenFile, TLSClientConfig: rest.TLSClientConfig{CAFile: c.CAFile},
		UserAgent: "toolgate-hook"}
	return cfg, ns, nil
}
