package certs

import (
	"net/http"
	"net/url"
	"strings"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// The rotator (cert-controller) caches every Secret of its namespace and every
// ValidatingWebhookConfiguration of the cluster, and takes no selector for them: the operator
// would need to list and watch all of them, the other toolgate Secrets (the ledger's signing key,
// the gateway's serving key) among them. The API server authorizes a list or watch by object
// name when it selects metadata.name, so the rotator's manager is given a transport that adds
// that selector to its lists and watches of the two kinds: its cache then holds the one Secret
// and the one configuration, and the operator's role names them.

// narrowed is mgr, except that its REST config's lists and watches of the paths in only (a
// collection's path, to the one name it may see) select that name.
type narrowed struct {
	manager.Manager
	config *rest.Config
}

func (n narrowed) GetConfig() *rest.Config { return n.config }

// narrowTo returns mgr with lists and watches of each collection path in only narrowed to its name.
func narrowTo(mgr manager.Manager, only map[string]string) manager.Manager {
	return narrowed{Manager: mgr, config: narrowConfig(mgr.GetConfig(), only)}
}

// narrowConfig is a copy of cfg whose lists and watches of each collection path in only select its
// name.
func narrowConfig(cfg *rest.Config, only map[string]string) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	// A server URL with a path (an API server behind a proxy) puts it before every request's path.
	if base, _, err := rest.DefaultServerUrlFor(cfg); err == nil {
		if prefix := strings.TrimRight(base.Path, "/"); prefix != "" {
			prefixed := make(map[string]string, len(only))
			for path, name := range only {
				prefixed[prefix+path] = name
			}
			only = prefixed
		}
	}
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return nameSelecting{next: rt, only: only} })
	return cfg
}

// nameSelecting adds fieldSelector=metadata.name=NAME to GET requests of a collection path it
// knows (a list, or a watch: ?watch=true on the same path). A request that already selects by
// another field keeps it, joined.
type nameSelecting struct {
	next http.RoundTripper
	only map[string]string
}

func (s nameSelecting) RoundTrip(req *http.Request) (*http.Response, error) {
	name, ok := s.only[req.URL.Path]
	if !ok || req.Method != http.MethodGet {
		return s.next.RoundTrip(req)
	}
	q := req.URL.Query()
	sel := "metadata.name=" + name
	if prior := q.Get("fieldSelector"); prior != "" {
		sel = prior + "," + sel
	}
	q.Set("fieldSelector", sel)
	r := req.Clone(req.Context())
	u := *req.URL
	u.RawQuery = q.Encode()
	r.URL = &u
	return s.next.RoundTrip(r)
}

// collectionPaths are the paths of the two collections the rotator caches, to the names it uses.
func collectionPaths(o Options) map[string]string {
	return map[string]string{
		"/api/v1/namespaces/" + url.PathEscape(o.SecretNamespace) + "/secrets":  o.SecretName,
		"/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations": o.WebhookConfiguration,
	}
}
