package gateway

import (
	"context"
	"errors"
)

// Authenticate runs the gateway's bearer-token check alone, for tests of what it learns.
func (g *Gateway) Authenticate(ctx context.Context, token string) (*Caller, error) {
	ti, err := g.authn.verify(ctx, token, nil)
	if err != nil {
		return nil, err
	}
	c, ok := callerOf(ti)
	if !ok {
		return nil, errors.New("no caller in the token info")
	}
	return c, nil
}

// StatedCost is statedCost, for tests of what an upstream may state.
var StatedCost = statedCost

// ServerBuilds is how many MCP servers the gateway has built so far.
func (g *Gateway) ServerBuilds() int {
	g.offerings.mu.Lock()
	defer g.offerings.mu.Unlock()
	return g.offerings.builds
}
