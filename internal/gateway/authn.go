package gateway

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	authenticationv1client "k8s.io/client-go/kubernetes/typed/authentication/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PodNameExtra is the userInfo extra the API server sets for a pod-bound ServiceAccount token.
const PodNameExtra = "authentication.kubernetes.io/pod-name"

// Caller is who sent a request to the gateway, as the API server vouched for its token.
type Caller struct {
	// Username is the ServiceAccount's user name, system:serviceaccount:<namespace>:<name>.
	Username       string
	Namespace      string
	ServiceAccount string
	// Pod is the pod the token is bound to, or "" for a token bound to no pod.
	Pod string
	// Token is the caller's own bearer token; the gateway creates the caller's AgentToolCalls
	// with it and with nothing else.
	Token string

	// asCaller is the client that authenticates with Token alone, made once per reviewed token
	// (a Caller lives as long as its cached review), so a caller's calls share its connections.
	asCallerOnce sync.Once
	asCaller     client.Client
	asCallerErr  error
}

const callerExtra = "toolgate.dev/caller"

// callerOf returns the Caller the bearer-token middleware stored for a request.
func callerOf(ti *auth.TokenInfo) (*Caller, bool) {
	if ti == nil {
		return nil, false
	}
	c, ok := ti.Extra[callerExtra].(*Caller)
	return c, ok
}

// authenticator verifies bearer tokens with a TokenReview for the gateway's audience: a token
// the API server did not issue, or issued for another audience, is refused with 401.
type authenticator struct {
	reviews  authenticationv1client.TokenReviewInterface
	audience string
	cache    *reviewCache
}

// maxTokenBytes bounds a bearer token the gateway asks the API server about. A ServiceAccount
// token is a JWT of about a kilobyte (a pod-bound one about 1.3 KB); every review is a request
// to the API server, so what is not shaped like one is refused without asking.
const maxTokenBytes = 8 << 10

func (a *authenticator) verify(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	if len(token) > maxTokenBytes || strings.Count(token, ".") != 2 {
		return nil, fmt.Errorf("%w: a ServiceAccount token is a JWT of at most %d bytes", auth.ErrInvalidToken, maxTokenBytes)
	}
	if info, ok := a.cache.get(token); ok {
		return info, nil
	}
	reviewed := time.Now()
	info, err := a.review(ctx, token)
	timingOf(ctx).since(waitAPIServer, reviewed)
	if err == nil {
		a.cache.put(token, info)
	}
	return info, err
}

func (a *authenticator) review(ctx context.Context, token string) (*auth.TokenInfo, error) {
	review, err := a.reviews.Create(ctx, &authenticationv1.TokenReview{
		Spec: authenticationv1.TokenReviewSpec{Token: token, Audiences: []string{a.audience}},
	}, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("reviewing the bearer token: %w", err) // 500: the gateway cannot tell
	}
	st := review.Status
	if !st.Authenticated {
		return nil, fmt.Errorf("%w: the API server did not authenticate the token for audience %q: %s",
			auth.ErrInvalidToken, a.audience, st.Error)
	}
	if !slices.Contains(st.Audiences, a.audience) {
		return nil, fmt.Errorf("%w: the token is not meant for audience %q", auth.ErrInvalidToken, a.audience)
	}
	parts := strings.Split(st.User.Username, ":")
	if len(parts) != 4 || parts[0] != "system" || parts[1] != "serviceaccount" {
		return nil, fmt.Errorf("%w: %q is not a ServiceAccount", auth.ErrInvalidToken, st.User.Username)
	}
	caller := &Caller{Username: st.User.Username, Namespace: parts[2], ServiceAccount: parts[3], Token: token}
	if pods := st.User.Extra[PodNameExtra]; len(pods) == 1 {
		caller.Pod = pods[0]
	}
	return &auth.TokenInfo{
		UserID:     caller.Username,
		Expiration: expiry(token),
		Extra:      map[string]any{callerExtra: caller},
	}, nil
}

// expiry reads the exp claim of a JWT the API server has just authenticated (so its signature
// is already checked), or returns a minute from now for a token that carries none.
func expiry(token string) time.Time {
	parts := strings.Split(token, ".")
	if len(parts) == 3 {
		if payload, err := base64.RawURLEncoding.DecodeString(parts[1]); err == nil {
			var claims struct {
				Exp int64 `json:"exp"`
			}
			if json.Unmarshal(payload, &claims) == nil && claims.Exp > 0 {
				return time.Unix(claims.Exp, 0)
			}
		}
	}
	return time.Now().Add(time.Minute)
}
