package testenv

import "net/http"

// BearerClient is an HTTP client that sends token on every request, as an agent's MCP client
// does with its ServiceAccount token.
func BearerClient(token string) *http.Client { return BearerClientOver(http.DefaultTransport, token) }

// BearerClientOver is BearerClient over transport (one whose connections a test controls).
func BearerClientOver(transport http.RoundTripper, token string) *http.Client {
	return &http.Client{Transport: bearerTransport(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+token)
		return transport.RoundTrip(r)
	})}
}

type bearerTransport func(*http.Request) (*http.Response, error)

func (f bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
