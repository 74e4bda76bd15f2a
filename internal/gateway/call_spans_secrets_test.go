package gateway

import (
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// An MCP error may quote what the agent sent (the span code says so), and an upstream's
// JSON-RPC error often echoes the offending parameter. The span's status is shortened to 80
// bytes but not redacted, so a credential the agent passed in its arguments — the very values
// the ledger, the denial message and the approval hint redact (ledger.RedactSecrets) — goes to
// the trace backend, which far more people read than the ledger. Spans must carry no secrets.
func TestCallSpanStatusCarriesNoCredential(t *testing.T) {
	recorder := tracetest.NewSpanRecorder()
	spans := newCallSpans(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder)))
	const token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	for _, msg := range []string{
		"invalid params: Bearer " + token,
		"token=" + token + ": rejected by upstream",
		"calling read_file: https://bob:S3cr3tP4ssw0rd@git.example.com/repo.git",
	} {
		_, span := spans.call(t.Context(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "x"}}, nil)
		endCallSpan(span, nil, errors.New(msg))
		ended := recorder.Ended()
		got := ended[len(ended)-1].Status().Description
		for _, secret := range []string{token[:12], "S3cr3tP4ssw0rd"} {
			if strings.Contains(got, secret) {
				t.Errorf("error %q: the span's status %q carries the credential", msg, got)
			}
		}
	}
}
