package gateway

import (
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestACallerHasAtMostItsLimitInFlight: each caller has its own slots; one call past the limit
// is refused with CodeTooManyCalls, naming the caller and the limit; a release, given once or
// many times, frees one slot, and a caller with none in flight leaves no entry behind.
func TestACallerHasAtMostItsLimitInFlight(t *testing.T) {
	c := newCallsInFlight(2)
	a1, err := c.acquire("a")
	if err != nil {
		t.Fatal(err)
	}
	a2, err := c.acquire("a")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.acquire("a")
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != CodeTooManyCalls || !strings.Contains(rpc.Message, "a has 2 calls in flight") {
		t.Fatalf("a third call of a: %v", err)
	}
	b, err := c.acquire("b")
	if err != nil {
		t.Fatalf("another caller is refused for a's calls: %v", err)
	}
	a1()
	a1() // a second release of one slot frees nothing more
	a3, err := c.acquire("a")
	if err != nil {
		t.Fatalf("a freed slot is not taken: %v", err)
	}
	if _, err := c.acquire("a"); err == nil {
		t.Fatal("a release given twice freed two slots")
	}
	a2()
	a3()
	b()
	if len(c.by) != 0 {
		t.Errorf("callers with nothing in flight are kept: %v", c.by)
	}
}
