package gateway

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// undeclared refuses arguments holding a top-level key (present) that the tool's schema does not
// declare (s.declared; nil takes any key). Such a key is carried unjudged in spec.arguments.extra,
// while an upstream may read it all the same: a Python server's field by its name beside its
// alias (pydantic's populate_by_name), a JavaScript one's object spread into an option, a
// **kwargs. An agent could so hand the tool a path, a command or an amount the engine and the
// rules never see as one.
func (s *toolSchema) undeclared(present map[string]json.RawMessage, tool string) error {
	if s.declared == nil {
		return nil
	}
	first, found := "", false
	for key := range present {
		if !s.declared[key] && (!found || key < first) {
			first, found = key, true
		}
	}
	if !found {
		return nil
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(
		"tool %q does not declare the argument %q; its input schema declares %q, and an undeclared argument is "+
			"neither judged nor passed on", tool, first, s.known)}
}
