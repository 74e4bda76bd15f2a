package gateway

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"k8s.io/apimachinery/pkg/util/validation"
)

// internalErrors gives every error the gateway answers a JSON-RPC code. The SDK sends an error
// that carries none (the gateway's own failures: its cache unreadable, an upstream's transport
// failing) with code 0, which no client reads as anything; such an error is the gateway's, so it
// is -32603, Internal error, with its message. An error that carries a code (the gateway's -32602
// for bad input, an upstream's own error wrapped with its ToolServer's name) keeps it.
func internalErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if _, coded := errors.AsType[*jsonrpc.Error](err); err != nil && !coded {
			err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		return res, err
	}
}

// objectName says whether name can be an object's name, as an AgentTool's is (a DNS subdomain).
// A tool called by any other name is not registered, which needs no read to know: the call is
// submitted as it is, for the webhook to refuse it ToolNotRegistered.
func objectName(name string) bool {
	return len(validation.IsDNS1123Subdomain(name)) == 0
}

// jsonKind names the JSON type of a decoded value, for a message.
func jsonKind(v any) string {
	switch v.(type) {
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a string"
}
