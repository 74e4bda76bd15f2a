package gateway_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	authenticationv1client "k8s.io/client-go/kubernetes/typed/authentication/v1"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/toolgate/toolgate/internal/gateway"
)

// holdingReviews passes TokenReviews to the real API server, counting them; it holds the review
// of a token whose signature ends in "held" until release is closed (a review the API server is
// slow to answer, as under a flood), and fails that of one ending in "unavailable" as an API server
// that cannot answer does.
type holdingReviews struct {
	authenticationv1client.TokenReviewInterface
	n, holding atomic.Int32
	release    chan struct{}
}

func (h *holdingReviews) Create(ctx context.Context, r *authenticationv1.TokenReview,
	opts metav1.CreateOptions) (*authenticationv1.TokenReview, error) {
	h.n.Add(1)
	switch token := r.Spec.Token; {
	case strings.HasSuffix(token, "held"):
		h.holding.Add(1)
		defer h.holding.Add(-1)
		select {
		case <-h.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	case strings.HasSuffix(token, "unavailable"):
		return nil, apierrors.NewServiceUnavailable("the API server is unavailable")
	}
	return h.TokenReviewInterface.Create(ctx, r, opts)
}

// forged is a token shaped as a ServiceAccount token for the gateway, with claims the API server
// never signed: what a flood sends. signature ends it (holdingReviews reads its end).
func forged(aud string, exp time.Time, signature string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256","kid":"forged"}`)) + "." +
		enc(fmt.Appendf(nil, `{"aud":[%q],"exp":%d,"sub":"system:serviceaccount:default:default"}`, aud, exp.Unix())) +
		"." + signature
}

// postFrom posts a tools/list to url with token, from the loopback address source (Linux routes
// all of 127.0.0.0/8 to the loopback interface), and returns the answer's status.
func postFrom(source, url, token string) int {
	GinkgoHelper()
	transport := &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(source)}}).DialContext}
	defer transport.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := (&http.Client{Transport: transport, Timeout: time.Minute}).Do(req)
	Expect(err).NotTo(HaveOccurred())
	_ = resp.Body.Close()
	return resp.StatusCode
}

// Every request whose token is not in the gateway's review cache costs a TokenReview, and anyone
// who reaches the port may send token-shaped garbage. The gateway turns away what claims no
// ServiceAccount token for it could, remembers the API server's refusals for a moment (never its
// failures), and bounds the reviews in flight for tokens it never verified (by source too), with a
// lane of their own for tokens it verified before: an agent gets through a flood.
var _ = Describe("the TokenReviews a flood of garbage tokens costs", Ordered, func() {
	var (
		w     *world
		h     *holdingReviews
		url   string
		clock *clocktesting.FakePassiveClock
	)

	BeforeAll(func() {
		up, stop := startUpstream(GinkgoT().TempDir())
		DeferCleanup(stop)
		w = newWorld("gw-flood-", up.URL, "read_file")
		h = &holdingReviews{TokenReviewInterface: reviews.TokenReviewInterface, release: make(chan struct{})}
		clock = clocktesting.NewFakePassiveClock(time.Now())
		url = startGateway(func(o *gateway.Options) {
			o.TokenReviews, o.Clock, o.MaxTokenReviews = h, clock, 8 // 2 per source
		})
	})

	It("refuses what claims no token for the gateway could, without a review", func() {
		before := h.n.Load()
		for _, token := range []string{"a.b.c", "eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.c",
			forged("https://kubernetes.default.svc", time.Now().Add(time.Hour), "sig"),
			forged(audience, time.Now().Add(-time.Hour), "sig")} {
			Expect(postFrom("127.0.0.1", url, token)).To(Equal(http.StatusUnauthorized), token)
		}
		Expect(h.n.Load()).To(Equal(before), "a token no ServiceAccount token for the gateway can be was reviewed")
	})

	It("refuses a token the API server refused again without another review, for a moment", func() {
		token := forged(audience, time.Now().Add(time.Hour), "sig")
		before := h.n.Load()
		for range 5 {
			Expect(postFrom("127.0.0.1", url, token)).To(Equal(http.StatusUnauthorized))
		}
		Expect(h.n.Load()).To(Equal(before+1), "a refused token was reviewed again at once")
		clock.SetTime(clock.Now().Add(6 * time.Second))
		Expect(postFrom("127.0.0.1", url, token)).To(Equal(http.StatusUnauthorized))
		Expect(h.n.Load()).To(Equal(before + 2))
	})

	It("never takes the API server's failure to review for a refusal", func() {
		token := forged(audience, time.Now().Add(time.Hour), "unavailable")
		before := h.n.Load()
		for range 3 {
			Expect(postFrom("127.0.0.1", url, token)).To(Equal(http.StatusInternalServerError))
		}
		Expect(h.n.Load()).To(Equal(before + 3))
	})

	It("bounds the reviews in flight of unverified tokens, by source, and an agent gets through the flood", func() {
		By("an agent verified once, whose cached review has run out")
		Expect(postFrom("127.0.0.1", url, w.token)).To(Equal(http.StatusOK))
		clock.SetTime(clock.Now().Add(gateway.DefaultReviewTTL + time.Second))

		var flood sync.WaitGroup
		statuses := make(chan int, 16)
		floodFrom := func(source string) { // its bound: 2
			for i := range 2 {
				flood.Go(func() {
					defer GinkgoRecover()
					statuses <- postFrom(source, url, forged(audience, time.Now().Add(time.Hour), fmt.Sprintf("%s-%d-held", strings.ReplaceAll(source, ".", "-"), i)))
				})
			}
		}
		var releaseOnce sync.Once
		release := func() { releaseOnce.Do(func() { close(h.release) }); flood.Wait() }
		DeferCleanup(release)
		floodFrom("127.0.0.1")
		Eventually(h.holding.Load).Should(BeEquivalentTo(2))

		before := h.n.Load()
		Expect(postFrom("127.0.0.1", url, forged(audience, time.Now().Add(time.Hour), "more-held"))).
			To(Equal(http.StatusTooManyRequests), "a source's third review in flight")
		Expect(h.n.Load()).To(Equal(before), "a review past the source's bound was sent")

		By("a new agent from another source, and the known agent from the flooding one, get through")
		newcomer := w.agent("newcomer")
		Expect(postFrom("127.0.0.2", url, newcomer)).To(Equal(http.StatusOK))
		Expect(postFrom("127.0.0.1", url, w.token)).To(Equal(http.StatusOK))

		By("a flood from four sources fills the unverified tokens' lane, not the known ones'")
		clock.SetTime(clock.Now().Add(gateway.DefaultReviewTTL + time.Second))
		floodFrom("127.0.0.3")
		floodFrom("127.0.0.4")
		floodFrom("127.0.0.5")
		Eventually(h.holding.Load).Should(BeEquivalentTo(8))
		before = h.n.Load()
		Expect(postFrom("127.0.0.6", url, forged(audience, time.Now().Add(time.Hour), "sig"))).
			To(Equal(http.StatusTooManyRequests))
		Expect(h.n.Load()).To(Equal(before))
		Expect(postFrom("127.0.0.6", url, w.token)).To(Equal(http.StatusOK), "the known agent, its review run out again")
		Expect(h.n.Load()).To(Equal(before+1), "the known agent's review")

		release()
		close(statuses)
		for s := range statuses {
			Expect(s).To(Equal(http.StatusUnauthorized), "a forged token the API server reviewed")
		}
	})
})
