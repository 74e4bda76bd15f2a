package gateway

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/toolgate/toolgate/pkg/toolcall"
)

// undeclared refuses arguments holding a top-level key (present) that the tool's schema does not
// declare (s.declared; nil takes any key). Such a key is carried unjudged in spec.arguments.extra,
// while an upstream may read it all the same: a Python server's field by its name beside its
// alias (pydantic's populate_by_name), a JavaScript one's object spread into an option, a
// **kwargs. An agent could so hand the tool a path, a command or an amount the engine and the
// rules never see as one.
func (s *toolSchema) undeclared(present []member, tool string) error {
	if s.declared == nil {
		return nil
	}
	first, found := "", false
	for _, m := range present {
		if key := m.key; !s.declared[key] && (!found || key < first) {
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

// judgedUndeclared refuses every call of a tool whose ToolServer maps, as its command, a path, a
// tree path or its working directory, a key the tool's schema does not declare (where it lists
// the keys it takes). An agent can never send that key (undeclared refuses it), so the map judges
// nothing, while the argument the tool does read its path or command from (the map's "file" for
// a schema's "path", or a key nested in an object, "options.path") goes unjudged to the upstream.
// It is the platform's mistake, and the gateway's to catch: -32603, naming the ToolServer.
func (s *toolSchema) judgedUndeclared(m toolcall.ArgumentMap, tool, server string) error {
	if s == nil || s.declared == nil {
		return nil
	}
	for _, key := range m.Judged() {
		if key != "" && !s.declared[key] {
			return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(
				"ToolServer %s maps the argument %q of tool %q, which the tool's input schema does not declare "+
					"(it declares %q): the arguments the tool reads would go unjudged, so no call of it is sent; "+
					"the ToolServer's arguments must name the tool's own keys", server, key, tool, s.known)}
		}
	}
	return nil
}

// unseen refuses every call of a tool whose input schema's top-level object is nested or
// composed beyond what the gateway reads (maxSchemaDepth levels, maxSchemaNodes parts): the keys
// it takes and the defaults it fills in are unseen, so a call naming no path could be judged as
// touching none while the tool reads the path its schema's default names, or a key the
// composition declares reach the tool unjudged. No generator writes such a schema; it is the
// upstream's to fix, or the platform's to stop serving: -32603, naming the ToolServer.
func (s *toolSchema) unseen(tool, server string) error {
	if s == nil || !s.unread {
		return nil
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(
		"tool %q of ToolServer %s has an input schema nested or composed beyond what the gateway reads (%d levels, "+
			"%d parts): the arguments it takes and the defaults it fills in are unseen, so no call of it is sent",
		tool, server, maxSchemaDepth, maxSchemaNodes)}
}
