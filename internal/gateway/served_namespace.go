package gateway

import (
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// servedNamespace refuses, with HTTP 403 and nothing else done, a caller of another namespace than
// the one a gateway per namespace serves (Options.Namespace). Such a gateway caches only its
// namespace's plans, so without this every request of another namespace's agent failed on the
// cache ("unknown namespace for the cache"): tools/list and tools/call alike answered an error of
// the gateway's own, which said nothing of why.
func (g *Gateway) servedNamespace(next http.Handler) http.Handler {
	if g.opts.Namespace == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		caller, ok := callerOf(auth.TokenInfoFromContext(r.Context()))
		if !ok || caller.Namespace != g.opts.Namespace {
			who := "the caller"
			if ok {
				who = fmt.Sprintf("ServiceAccount %s of namespace %s", caller.ServiceAccount, caller.Namespace)
			}
			http.Error(w, fmt.Sprintf("this toolgate-gateway serves the agents of namespace %s only; %s is not one",
				g.opts.Namespace, who), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}
