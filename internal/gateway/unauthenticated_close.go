package gateway

import "net/http"

// Anyone who reaches the gateway can complete a TLS handshake (it asks for no client
// certificate); its HTTP server then keeps a connection whose request was refused 401 open for
// IdleTimeout (2 minutes), for nothing. So a request is answered with "Connection: close" until
// its token is verified: a caller without a valid token holds a connection for one request
// (bounded by ReadHeaderTimeout, MaxRequestBytes and BodyReadTimeout) and not the idle time after it, while an
// authenticated agent's connection stays open for its next call. Over HTTP/2, net/http takes
// the header as a graceful GOAWAY.

// closeUnlessAuthenticated marks every response to close its connection; keepAliveAuthenticated,
// which the bearer-token check reaches only for a verified token, takes the mark off.

func closeUnlessAuthenticated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		next.ServeHTTP(w, r)
	})
}

// keepAliveAuthenticated is closeUnlessAuthenticated's other half, behind the token check.
func keepAliveAuthenticated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Del("Connection")
		next.ServeHTTP(w, r)
	})
}
