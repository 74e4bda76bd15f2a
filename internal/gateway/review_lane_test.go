package gateway

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	authenticationv1client "k8s.io/client-go/kubernetes/typed/authentication/v1"
	clocktesting "k8s.io/utils/clock/testing"
)

// slowReviews authenticates every token as the ServiceAccount its "sub" names; while hold is
// set, it holds the reviews of the token hold names (an API server slow to answer) until
// released.
type slowReviews struct {
	authenticationv1client.TokenReviewInterface
	mu      sync.Mutex
	hold    string
	release chan struct{}
	started chan struct{}
}

func (s *slowReviews) Create(ctx context.Context, r *authenticationv1.TokenReview, _ metav1.CreateOptions) (*authenticationv1.TokenReview, error) {
	s.mu.Lock()
	held := s.hold != "" && r.Spec.Token == s.hold
	s.mu.Unlock()
	if held {
		s.started <- struct{}{}
		<-s.release
	}
	out := r.DeepCopy()
	out.Status = authenticationv1.TokenReviewStatus{Authenticated: true, Audiences: r.Spec.Audiences,
		User: authenticationv1.UserInfo{Username: "system:serviceaccount:ns:" + r.Spec.Token[len(r.Spec.Token)-1:]}}
	return out, nil
}

func reviewToken(aud, who string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256"}`)) + "." + enc(fmt.Appendf(nil, `{"aud":[%q],"exp":%d}`, aud, time.Now().Add(time.Hour).Unix())) + ".sig-" + who
}

// "a running agent always gets through": the lane of known tokens has no bound per source or per
// token, and concurrent requests with one token whose cached review ran out each send a review
// (none waits for the first). One agent, with its own valid token, fills the lane at once, and
// every other running agent whose cached review runs out meanwhile is refused 429.
func TestOneAgentsTokenTakesOnePlaceInTheKnownLane(t *testing.T) {
	// In a bubble, so that the victim comes once every request of the attacker waits, on its own
	// review or on the first's, however slow the machine (a sleep of 100 ms could end before they
	// had, and the victim then found the lane free even were it not shared).
	synctest.Test(t, func(t *testing.T) {
		clk := clocktesting.NewFakePassiveClock(time.Now())
		rv := &slowReviews{release: make(chan struct{}), started: make(chan struct{}, 64)}
		a := &authenticator{reviews: rv, audience: "aud", cache: newReviewCache(clk, 10*time.Second, 4096), gate: newReviewGate(8)}
		attacker, victim := reviewToken("aud", "a"), reviewToken("aud", "v")
		from := func(ip string) *http.Request { return &http.Request{RemoteAddr: ip + ":1234"} }
		for _, tok := range []string{attacker, victim} { // both running agents, verified once
			if _, err := a.verify(context.Background(), tok, from("10.0.0.1")); err != nil {
				t.Fatal(err)
			}
		}
		clk.SetTime(clk.Now().Add(11 * time.Second)) // both cached reviews run out
		rv.mu.Lock()
		rv.hold = attacker
		rv.mu.Unlock()
		var wg sync.WaitGroup
		for range 8 { // the attacker's 8 concurrent requests, one token, one pod
			wg.Go(func() { _, _ = a.verify(context.Background(), attacker, from("10.0.0.1")) })
		}
		synctest.Wait() // the eight wait: on their own reviews, or on the first's
		_, err := a.verify(context.Background(), victim, from("10.0.0.2"))
		close(rv.release)
		wg.Wait()
		if _, busy := errors.AsType[*reviewsBusy](err); busy {
			t.Errorf("another running agent, from another pod, is refused: %v (the attacker's one token holds all 8 reviews of the known lane)", err)
		}
	})
}
