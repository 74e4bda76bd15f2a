package gateway

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	clocktesting "k8s.io/utils/clock/testing"
)

func TestReviewCache(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(time.Unix(1000, 0))
	c := newReviewCache(clk, 10*time.Second, 3)
	long := &auth.TokenInfo{UserID: "long", Expiration: clk.Now().Add(time.Hour)}
	soon := &auth.TokenInfo{UserID: "soon", Expiration: clk.Now().Add(2 * time.Second)}
	c.put("long", long)
	c.put("soon", soon)
	if got, ok := c.get("long"); !ok || got != long {
		t.Fatalf("get(long) = %v, %v; want the cached review", got, ok)
	}
	if _, ok := c.get("other"); ok {
		t.Fatal("get(other) hit a token never reviewed")
	}
	clk.SetTime(clk.Now().Add(2 * time.Second))
	if _, ok := c.get("soon"); ok {
		t.Error("a review outlived its token's expiry")
	}
	if _, ok := c.get("long"); !ok {
		t.Error("a review expired before its TTL")
	}
	clk.SetTime(clk.Now().Add(8 * time.Second))
	if _, ok := c.get("long"); ok {
		t.Error("a review outlived its TTL")
	}

	for i := range 10 {
		c.put(fmt.Sprint(i), long)
		if n := len(c.entries); n > 3 {
			t.Fatalf("the cache holds %d reviews, more than its bound of 3", n)
		}
	}
	if _, ok := c.get("9"); !ok {
		t.Error("the newest review was not kept")
	}

	var off *reviewCache
	off.put("x", long)
	if _, ok := off.get("x"); ok {
		t.Error("a nil cache hit")
	}
}

func TestReviewCacheRefusalsAndKnownTokens(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(time.Unix(1000, 0))
	c := newReviewCache(clk, 10*time.Second, 3)
	info := &auth.TokenInfo{UserID: "agent", Expiration: clk.Now().Add(time.Hour)}
	c.put("agent", info)
	clk.SetTime(clk.Now().Add(11 * time.Second))
	if _, ok := c.get("agent"); ok {
		t.Fatal("a review outlived its TTL")
	}
	if !c.known("agent") {
		t.Error("a token verified once is not known until it expires")
	}
	refusal := fmt.Errorf("%w: refused", auth.ErrInvalidToken)
	c.refuse("agent", refusal)
	if c.known("agent") {
		t.Error("a token the API server refused is still known")
	}
	if err, ok := c.refused("agent"); !ok || !errors.Is(err, refusal) {
		t.Errorf("refused(agent) = %v, %v; want the refusal", err, ok)
	}
	clk.SetTime(clk.Now().Add(rejectedTTL))
	if _, ok := c.refused("agent"); ok {
		t.Error("a refusal outlived rejectedTTL")
	}
	for i := range 10 {
		c.refuse(fmt.Sprint(i), refusal)
		if n := len(c.rejected); n > 3 {
			t.Fatalf("the cache holds %d refusals, more than its bound of 3", n)
		}
	}
	c.put("agent", info)
	if _, ok := c.refused("agent"); ok {
		t.Error("a token verified since its refusal is still refused")
	}
}

func TestReviewGate(t *testing.T) {
	g := newReviewGate(8) // 2 per source
	var releases []func()
	take := func(source string, known bool) error {
		release, err := g.acquire(source, known)
		if err == nil {
			releases = append(releases, release)
		}
		return err
	}
	for range 2 {
		if err := take("a", false); err != nil {
			t.Fatal(err)
		}
	}
	if err := take("a", false); err == nil {
		t.Fatal("a source took a third review")
	}
	for _, s := range []string{"b", "b", "c", "c", "d", "d"} {
		if err := take(s, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := take("e", false); err == nil {
		t.Fatal("the unverified lane took a ninth review")
	}
	for range 8 {
		if err := take("a", true); err != nil {
			t.Fatalf("the known lane is filled by the unverified one: %v", err)
		}
	}
	if err := take("a", true); err == nil {
		t.Fatal("the known lane took a ninth review")
	}
	for _, r := range releases {
		r()
		r() // once
	}
	if g.unverified != 0 || g.known != 0 || len(g.bySource) != 0 {
		t.Errorf("released all, the gate still counts %d, %d, %v", g.unverified, g.known, g.bySource)
	}
}
