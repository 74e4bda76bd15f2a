package gateway

import (
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
