package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	mode := os.Args[1]
	s := mcp.NewServer(&mcp.Implementation{Name: "x", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "a"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) { return &mcp.CallToolResult{}, nil, nil })
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Printf("%s %s %.100s\n", r.Method, r.Header.Get("Mcp-Protocol-Version"), body)
		if bytes.Contains(body, []byte("subscriptions/listen")) {
			switch mode {
			case "500":
				http.Error(w, "no", 500)
				return
			case "hold":
				<-r.Context().Done()
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { fmt.Println("CHANGED") }})
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	start := time.Now()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	fmt.Println("connect:", err, time.Since(start))
	if err != nil {
		return
	}
	mcp.AddTool(s, &mcp.Tool{Name: "b"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) { return &mcp.CallToolResult{}, nil, nil })
	time.Sleep(500 * time.Millisecond)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "a"})
	fmt.Println("call:", res != nil, err)
	cs.Close()
}
