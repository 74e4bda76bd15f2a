package gateway

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// encodedGrowth is how many bytes an upstream's answer grows by when the SDK's server encodes it
// again for the agent: encoding/json (which the SDK's content types marshal with) escapes each <,
// > and & as \u003c (5 bytes more) and each U+2028 and U+2029 as \u2028 (3 more), in every string
// the answer holds (its text, an embedded resource's text, its structured content, its _meta).
// An upstream in TypeScript or Python writes them as they are, so an HTML or XML answer grows up
// to sixfold between what the answer budget counted and what the gateway holds to answer.
func encodedGrowth(out *mcp.CallToolResult) int64 {
	if out == nil {
		return 0
	}
	n := growthOf(out.Meta) + growthOf(out.StructuredContent)
	for _, c := range out.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			n += growthOf(c.Text)
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				n += growthOf(c.Resource.Text)
			}
		}
	}
	return n
}

// growthOf is encodedGrowth of one decoded JSON value.
func growthOf(v any) int64 {
	switch v := v.(type) {
	case string:
		var n int64
		for i := 0; i < len(v); i++ {
			switch {
			case v[i] == '<' || v[i] == '>' || v[i] == '&':
				n += 5
			case v[i] == 0xe2 && (strings.HasPrefix(v[i:], "\u2028") || strings.HasPrefix(v[i:], "\u2029")):
				n += 3
			}
		}
		return n
	case map[string]any:
		var n int64
		for k, e := range v {
			n += growthOf(k) + growthOf(e)
		}
		return n
	case mcp.Meta:
		return growthOf(map[string]any(v))
	case []any:
		var n int64
		for _, e := range v {
			n += growthOf(e)
		}
		return n
	}
	return 0
}

// holdEncoded makes the call's share of the answer budget cover its answer as the agent is sent
// it, grown by encodedGrowth, before the SDK encodes it: uncounted, one 16 MiB answer of < took
// 96 MiB to encode, beyond the budget's measure, and one agent could have the gateway killed with
// every other agent's calls. An answer that grows past the whole budget fails its call, as one
// over the bound on a message does; so does one whose call holds a share already when the budget
// has no room for the growth now (take: it does not wait while holding).
func holdEncoded(ctx context.Context, out *mcp.CallToolResult) error {
	share, growth := answerShareOf(ctx), encodedGrowth(out)
	if share == nil || growth == 0 {
		return nil
	}
	share.hold.mu.Lock()
	read := share.held
	share.hold.mu.Unlock()
	if read == 0 { // an answer read without a share: at most the free bytes
		read = freeAnswerBytes
	}
	if read+growth <= freeAnswerBytes {
		return nil
	}
	if err := share.take(ctx, read+growth); err != nil {
		return fmt.Errorf("its answer grows to %d bytes as it is encoded for the agent (its <, > and & are escaped as "+
			"\\u003c, six bytes each): %w", read+growth, err)
	}
	return nil
}
