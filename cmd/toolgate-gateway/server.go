package main

import (
	"net/http"
	"time"

	"github.com/toolgate/toolgate/internal/serving"
)

// mcpServer is the MCP endpoint's server on addr. Bounds on what a caller holds before it is
// authenticated: the time and the bytes of the request line and headers (a bearer token is at
// most 8 KiB), idle connections, and how many connections are held at once (maxConnections;
// serving.CapConnections says what happens at the cap), on the TLS and the plain listener alike.
// No read or write timeout for the whole request: a net/http read deadline that passes while a
// handler runs ends the request's context, and an admitted call answers, on its SSE stream,
// when its upstream does (UpstreamCallTimeout); the body itself is at most MaxRequestBytes and
// must arrive within the gateway's BodyReadTimeout, and each write of an answer is bounded by
// --answer-write-timeout (the gateway's Handler).
func mcpServer(addr string, handler http.Handler, maxConnections int) *http.Server {
	server := &http.Server{Addr: addr, Handler: handler, ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	serving.CapConnections(server, "gateway", maxConnections)
	return server
}
