package gateway

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// schemaProperties are the top-level argument keys schema (a tool's input schema, as its upstream
// lists it) declares; nil when it declares none, or takes keys beyond them
// (additionalProperties true or a schema), so that any key goes.
func schemaProperties(schema any) map[string]bool {
	data, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	var s struct {
		Properties           map[string]json.RawMessage `json:"properties"`
		AdditionalProperties json.RawMessage            `json:"additionalProperties"`
		PatternProperties    json.RawMessage            `json:"patternProperties"`
	}
	if json.Unmarshal(data, &s) != nil || len(s.Properties) == 0 || len(s.PatternProperties) > 0 {
		return nil
	}
	if extra := strings.TrimSpace(string(s.AdditionalProperties)); extra != "" && extra != "false" {
		return nil
	}
	declared := make(map[string]bool, len(s.Properties))
	for key := range s.Properties {
		declared[key] = true
	}
	return declared
}

// undeclared refuses arguments holding a top-level key that the tool's schema does not declare
// (declared; nil takes any key). Such a key is carried unjudged in spec.arguments.extra, while an
// upstream may read it all the same: a Python server's field by its name beside its alias
// (pydantic's populate_by_name), a JavaScript one's object spread into an option, a **kwargs. An
// agent could so hand the tool a path, a command or an amount the engine and the rules never
// see as one. Arguments that are not one JSON object are left to toolcall.Build to refuse.
func undeclared(args json.RawMessage, declared map[string]bool, tool string) error {
	if declared == nil {
		return nil
	}
	keys, ok := topLevelKeys(args)
	if !ok {
		return nil
	}
	var unknown []string
	for key := range keys {
		if !declared[key] {
			unknown = append(unknown, key)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	known := make([]string, 0, len(declared))
	for key := range declared {
		known = append(known, key)
	}
	slices.Sort(known)
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(
		"tool %q does not declare the argument %q; its input schema declares %q, and an undeclared argument is "+
			"neither judged nor passed on", tool, unknown[0], known)}
}
