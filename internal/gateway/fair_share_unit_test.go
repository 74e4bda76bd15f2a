package gateway

import (
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

func TestFairShares(t *testing.T) {
	clk := clocktesting.NewFakePassiveClock(time.Unix(1000, 0))
	f := newFairShares(clk, 6)
	take := func(caller string) (func(), bool) {
		release, err := f.acquire(caller)
		return release, err == nil
	}
	a := make([]func(), 0, 6)
	for range 6 { // alone, a caller may use all of it
		r, ok := take("a")
		if !ok {
			t.Fatal("a caller alone was refused below the bound")
		}
		a = append(a, r)
	}
	if _, ok := take("b"); ok {
		t.Fatal("a request past the bound was taken")
	}
	a[0]()
	a[0]() // once
	if _, ok := take("a"); ok {
		t.Error("a caller over its share (b waits) took the room given back")
	}
	rb, ok := take("b")
	if !ok {
		t.Fatal("a waiting caller under its share was refused the room given back")
	}
	rb()
	clk.SetTime(clk.Now().Add(shareWaitMemory))
	if _, ok := take("a"); !ok {
		t.Error("a caller alone again (b's wait forgotten, its request ended) was refused")
	}
	for _, r := range a[1:] {
		r()
	}
	if f.total != 1 || len(f.by) != 1 {
		t.Errorf("released all but one, fairShares counts %d, %v", f.total, f.by)
	}

	// Room no one asks for is anyone's: three callers (share 2) with room left and none waiting.
	f = newFairShares(clk, 6)
	for _, c := range []string{"a", "b", "c", "a", "a"} {
		if _, ok := take(c); !ok {
			t.Fatalf("%s was refused room no one else asks for", c)
		}
	}
	if _, ok := take("d"); !ok { // the sixth
		t.Fatal("d was refused the last room")
	}
	if _, ok := take("b"); ok {
		t.Fatal("a request past the bound was taken")
	}
}
