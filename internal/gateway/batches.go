package gateway

import (
	"bufio"
	"io"
	"net/http"
)

// errBatch is the answer to a JSON-RPC batch.
const errBatch = "toolgate-gateway takes no JSON-RPC batches (MCP removed them in protocol 2025-06-18): " +
	"send each request as a message of its own"

// refuseBatches answers a JSON-RPC batch (a POST whose body's first JSON token is '[') with HTTP
// 400, before the SDK reads it. The SDK answers a batch as one JSON array that it encodes with
// encoding/json's HTML escaping: each <, > and & of an upstream's answer grows from one byte to
// six (\u003c), beyond what the answer budget counts (answerBudget), and encoding one 16 MiB
// answer of an HTML file allocated 724 MiB, more than the gateway's memory limit, so that one
// agent could take the gateway down with every other agent's calls. MCP clients send no batches
// (protocol 2025-06-18 removed them; the SDK refuses them from then on), so no agent needs one.
// The body keeps its bound: what is read here counts towards MaxRequestBytes.
func refuseBatches(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body := bufio.NewReader(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
		if firstToken(body) == '[' {
			http.Error(w, errBatch, http.StatusBadRequest)
			return
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{body, r.Body}
		next.ServeHTTP(w, r)
	})
}

// firstToken is the first byte of body that is not JSON white space, left unread in body; 0 when
// there is none to read (the body is empty, or over its bound: the SDK says so when it reads).
func firstToken(body *bufio.Reader) byte {
	for {
		b, err := body.ReadByte()
		if err != nil {
			return 0
		}
		switch b {
		case ' ', '\t', '\n', '\r':
			continue
		}
		_ = body.UnreadByte() // the byte just read: cannot fail
		return b
	}
}
