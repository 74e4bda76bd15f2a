package gateway

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/sync/singleflight"
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
	gate     *reviewGate
	flight   singleflight.Group // the reviews in flight, by token
}

// verifiedKey is the context key of a request's verified token (authenticate).
type verifiedKey struct{}

type verified struct {
	info *auth.TokenInfo
	err  error
}

// authenticate is the bearer-token check in front of next: the SDK's (auth.RequireBearerToken,
// which hands the MCP handlers the caller's TokenInfo and answers 401, 400 or 500 by the
// verifier's error), with the verification done here first, so that a request refused for
// reviews in flight (reviewGate) gets HTTP 429 rather than the SDK's 500 for any other error.
func (a *authenticator) authenticate(next http.Handler) http.Handler {
	checked := auth.RequireBearerToken(func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		if v, ok := ctx.Value(verifiedKey{}).(*verified); ok {
			return v.info, v.err
		}
		return nil, fmt.Errorf("%w: no bearer token", auth.ErrInvalidToken)
	}, nil)(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// One request, one caller. HTTP allows one Authorization header (it is no list), and
		// readers disagree on which of several counts: the SDK (Header.Get) takes the first, a
		// proxy or log in front may take the last or join them, and would see another agent than
		// the one the gateway acts as.
		if n := len(r.Header.Values("Authorization")); n > 1 {
			http.Error(w, fmt.Sprintf("the request carries %d Authorization headers; send one, with one bearer token", n),
				http.StatusBadRequest)
			return
		}
		// The SDK's own reading of the header, so that it asks for exactly the token verified here.
		if fields := strings.Fields(r.Header.Get("Authorization")); len(fields) == 2 && strings.EqualFold(fields[0], "bearer") {
			info, err := a.verify(r.Context(), fields[1], r)
			if busy, ok := errors.AsType[*reviewsBusy](err); ok {
				w.Header().Set("Retry-After", "1")
				http.Error(w, busy.Error(), http.StatusTooManyRequests)
				return
			}
			r = r.WithContext(context.WithValue(r.Context(), verifiedKey{}, &verified{info: info, err: err}))
		}
		checked.ServeHTTP(w, r)
	})
}

// maxTokenBytes bounds a bearer token the gateway asks the API server about. A ServiceAccount
// token is a JWT of about a kilobyte (a pod-bound one about 1.3 KB); every review is a request
// to the API server, so what is not shaped like one is refused without asking.
const maxTokenBytes = 8 << 10

// verify answers who sent token: from the review cache, or the API server's TokenReview. What
// cannot be a ServiceAccount token for the gateway (too large, no JWT, its claims not naming the
// gateway's audience or expired), and a token the API server refused within rejectedTTL, is
// refused without a review; a review past reviewGate's bounds is refused reviewsBusy.
func (a *authenticator) verify(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	if len(token) > maxTokenBytes || strings.Count(token, ".") != 2 {
		return nil, fmt.Errorf("%w: a ServiceAccount token is a JWT of at most %d bytes", auth.ErrInvalidToken, maxTokenBytes)
	}
	if info, ok := a.cache.get(token); ok {
		return info, nil
	}
	if err, ok := a.cache.refused(token); ok {
		return nil, err
	}
	if err := checkClaims(token, a.audience, time.Now()); err != nil {
		return nil, err
	}
	// Concurrent requests with one token share its one review (and its one place in reviewGate):
	// otherwise an agent's burst, its cached review run out, filled the lane of known tokens alone.
	reviewed := time.Now()
	v, err, _ := a.flight.Do(token, func() (any, error) {
		release, err := a.gate.acquire(sourceOf(r), a.cache.known(token))
		if err != nil {
			return nil, err
		}
		defer release()
		info, err := a.review(ctx, token)
		switch {
		case err == nil:
			a.cache.put(token, info)
		case errors.Is(err, auth.ErrInvalidToken): // the API server's verdict, not a failure to reach one
			a.cache.refuse(token, err)
		}
		return info, err
	})
	timingOf(ctx).since(waitAPIServer, reviewed)
	info, _ := v.(*auth.TokenInfo)
	return info, err
}

// expiryLeeway is how far past its exp claim a token is still sent for review: the API server's
// clock, which decides, may be behind the gateway's.
const expiryLeeway = time.Minute

// checkClaims refuses a token whose (unverified) claims say that the API server would refuse it
// for the gateway: no JSON payload, an aud claim without the gateway's audience (a token for the
// API server only; a legacy Secret-based token, which has none), or an exp claim past. It saves the
// review of honest mistakes and of random garbage; a forger writes whatever claims it likes, and
// reviewGate bounds what that costs. The API server's review decides every token that passes.
func checkClaims(token, audience string, now time.Time) error {
	parts := strings.Split(token, ".")
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	var claims struct {
		Aud json.RawMessage `json:"aud"`
		Exp *float64        `json:"exp"`
	}
	if err != nil || json.Unmarshal(payload, &claims) != nil {
		return fmt.Errorf("%w: the token's claims are not a JWT's", auth.ErrInvalidToken)
	}
	var auds []string
	if err := json.Unmarshal(claims.Aud, &auds); err != nil {
		var one string
		if json.Unmarshal(claims.Aud, &one) != nil {
			return fmt.Errorf("%w: the token names no audience; it must be meant for %q", auth.ErrInvalidToken, audience)
		}
		auds = []string{one}
	}
	if !slices.Contains(auds, audience) {
		return fmt.Errorf("%w: the token is not meant for audience %q", auth.ErrInvalidToken, audience)
	}
	if claims.Exp != nil && time.Unix(int64(*claims.Exp), 0).Add(expiryLeeway).Before(now) {
		return fmt.Errorf("%w: the token expired at %s", auth.ErrInvalidToken, time.Unix(int64(*claims.Exp), 0).UTC().Format(time.RFC3339))
	}
	return nil
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
