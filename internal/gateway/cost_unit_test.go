package gateway_test

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgate/toolgate/internal/gateway"
)

// TestStatedCost: an upstream's stated cost is used only when it is an exact, bounded amount of
// money; anything else is refused, so the gateway reports the tool's costPerCall instead.
func TestStatedCost(t *testing.T) {
	for _, tc := range []struct {
		stated any
		want   string // "" for refused
	}{
		{"0.4", "400m"},
		{"0", "0"},
		{"1000000000", "1G"},
		{0.25, "250m"},
		{"-1", ""},
		{"1e3", ""},
		{"0.0000000001", ""}, // 10 decimals
		{"1000000000.01", ""},
		{"NaN", ""},
		{"abc", ""},
		{"", ""},
		{true, ""},
		{map[string]any{"usd": "1"}, ""},
		{1e-7, ""}, // prints as 1e-07
	} {
		q, err := gateway.StatedCost(mcp.Meta{gateway.MetaCost: tc.stated})
		switch {
		case tc.want == "" && err == nil:
			t.Errorf("%#v: accepted as %v, want refused", tc.stated, q)
		case tc.want != "" && err != nil:
			t.Errorf("%#v: refused (%v), want %s", tc.stated, err, tc.want)
		case tc.want != "" && q.String() != tc.want:
			t.Errorf("%#v: %s, want %s", tc.stated, q.String(), tc.want)
		}
	}
	if q, err := gateway.StatedCost(mcp.Meta{}); q != nil || err != nil {
		t.Errorf("no stated cost: %v, %v; want nothing", q, err)
	}
}
