package gateway

import (
	"encoding/json"
	"testing"

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
