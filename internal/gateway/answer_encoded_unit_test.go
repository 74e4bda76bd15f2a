package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEncodedGrowthIsWhatTheSDKAdds checks encodedGrowth against the SDK's own encoding: the
// answer encoded is as long as its strings' text plus the growth, for every part of it that
// holds text.
func TestEncodedGrowthIsWhatTheSDKAdds(t *testing.T) {
	plain := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "plain text, é and ☃"}}}
	if g := encodedGrowth(plain); g != 0 {
		t.Errorf("growth of text without <, > or & = %d, want 0", g)
	}
	for _, c := range []struct {
		name string
		out  *mcp.CallToolResult
	}{
		{"text", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "<a href=\"x&y\">\u2028\u2029"}}}},
		{"an embedded resource", &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{
			Resource: &mcp.ResourceContents{URI: "file:///a", Text: "<x/>"}}}}},
		{"structured content and _meta", &mcp.CallToolResult{Content: []mcp.Content{},
			StructuredContent: map[string]any{"<k>": []any{"&", map[string]any{"a": ">"}, 1.0, true, nil}},
			Meta:              mcp.Meta{"note": "<&>"}}},
	} {
		encoded, err := json.Marshal(c.out)
		if err != nil {
			t.Fatal(err)
		}
		unescaped := len(encoded) - len(jsonEscapes(string(encoded)))
		if got := encodedGrowth(c.out); got != int64(unescaped) || got == 0 {
			t.Errorf("%s: growth %d, want %d (the SDK's encoding %s)", c.name, got, unescaped, encoded)
		}
	}
}

// jsonEscapes is s with the escapes encoding/json writes for <, >, & and U+2028/9 written back
// as the characters.
func jsonEscapes(s string) string {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
			switch s[i+2 : i+6] {
			case "003c":
				out, i = append(out, '<'), i+5
				continue
			case "003e":
				out, i = append(out, '>'), i+5
				continue
			case "0026":
				out, i = append(out, '&'), i+5
				continue
			case "2028", "2029":
				out, i = append(out, "\u2028"...), i+5
				continue
			}
		}
		out = append(out, s[i])
	}
	return string(out)
}

// TestGrowingAnswersDoNotWaitForEachOther gives two calls, each holding part of the budget for an
// answer it has read, answers that grow past what is left as they are encoded: waiting for the
// growth while holding their shares, each would wait for the other until its upstream timeout
// (and every large answer behind them). A call that holds a share does not wait: it fails at once.
func TestGrowingAnswersDoNotWaitForEachOther(t *testing.T) {
	budget := newAnswerBudget(200 << 10)
	markup := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("<", 12<<10)}}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	errs := make(chan error, 2)
	answered := make([]func(), 0, 2)
	held := make([]context.Context, 0, 2)
	// Both answers are read before either is encoded: started in between, the first call's
	// growth could fit and leave the second call's read waiting for it.
	for range 2 {
		hctx, done := withAnswerHold(ctx, budget)
		answered = append(answered, done)
		cctx := withAnswerShare(hctx)
		if err := answerShareOf(cctx).take(cctx, 100<<10); err != nil { // the answer, read
			t.Fatal(err)
		}
		held = append(held, cctx)
	}
	for _, cctx := range held {
		go func() { errs <- holdEncoded(cctx, markup) }()
	}
	for range 2 {
		err := <-errs
		if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "grows to") {
			t.Fatalf("holdEncoded: %v; want it to fail at once, saying the answer grows", err)
		}
	}
	// Holding nothing, a call waits for its growth, and gets it once the budget has room.
	for _, done := range answered {
		done()
	}
	hctx, done := withAnswerHold(ctx, budget)
	defer done()
	cctx := withAnswerShare(hctx)
	if err := holdEncoded(cctx, markup); err != nil {
		t.Fatalf("holdEncoded of an answer read free: %v", err)
	}
}
