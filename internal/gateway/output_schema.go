package gateway

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// deniedSchema is the JSON Schema of Denied, the structured content of a denial. It admits
// nothing else: no other key, no key of another type.
const deniedSchema = `{"type":"object","properties":{"reason":{"type":"string"},"field":{"type":"string"},` +
	`"message":{"type":"string"}},"required":["reason","message"],"additionalProperties":false}`

// idDialects are the JSON Schema dialects whose identifier keyword is "$id" (draft-06 and
// later), by their meta-schema's URI without "#" and scheme; draft-04 and earlier name a schema by
// "id".
var idDialects = []string{
	"json-schema.org/draft-06/schema",
	"json-schema.org/draft-07/schema",
	"json-schema.org/draft/2019-09/schema",
	"json-schema.org/draft/2020-12/schema",
}

// outputSchema is the output schema the gateway offers for its tool name whose upstream declares
// upstream: nil (none) when the upstream declares none, and otherwise one that admits both the
// upstream's answers and the gateway's denials, {"type": "object", "anyOf": [upstream, Denied's
// schema]}. MCP requires a tool's structured content to conform to its declared output schema,
// and strict clients check it, errors too: the TypeScript SDK's Client.callTool (Ajv, against the
// schema tools/list gave) refuses a result whose structured content does not, so a denial's
// Denied would break every tool whose upstream declares one.
//
// The upstream's schema is embedded as its own schema resource, so that its references still
// mean what they meant: its "#/definitions/...", "#/$defs/..." and "#" would otherwise resolve
// against the gateway's root. So it keeps its "$id" (and "$schema") and is given one,
// "urn:toolgate:gateway:tool:NAME:output", when it has none; a "$ref" at its root moves into its
// allOf (its meaning in 2019-09 and later, which apply a $ref's siblings as allOf does; draft-06
// and -07 ignore them, and so an $id beside a $ref, but Ajv applies them anyway, and recurses
// without end on a $ref beside an $id with no other keyword). The root has no "$id", which the TypeScript SDK would take to
// fetch an older validator by.
//
// An upstream schema that cannot be embedded so (no JSON Schema at all, a root that is not an
// object's, an "$id" that is not an absolute URI, a dialect whose identifier is not "$id") is an
// error: the gateway then offers the
// tool with no output schema, rather than one its denials or its references break.
func outputSchema(name string, upstream any) (any, error) {
	if upstream == nil {
		return nil, nil
	}
	embedded := upstream
	switch s := upstream.(type) {
	case bool: // true admits every answer, false none: both as they are
	case map[string]any:
		var err error
		if embedded, err = ownResource(name, s); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("its output schema is %s, not a schema", jsonKind(upstream))
	}
	return map[string]any{"type": "object", "anyOf": []any{embedded, json.RawMessage(deniedSchema)}}, nil
}

// ownResource is schema as a schema resource of its own: with an absolute "$id", and no "$ref"
// beside it (see outputSchema). schema is not changed: what differs is copied.
func ownResource(name string, schema map[string]any) (map[string]any, error) {
	if _, ok := schema["id"]; ok {
		return nil, fmt.Errorf(`its output schema names itself by "id" (draft-04 and earlier), which later dialects ignore`)
	}
	if dialect, ok := schema["$schema"]; ok {
		d, isString := dialect.(string)
		if !isString || !slices.Contains(idDialects, strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(d, "https://"), "http://"), "#")) {
			return nil, fmt.Errorf(`its output schema's dialect ("$schema" %v) is not one that names a schema by "$id" (draft-06 to 2020-12)`, dialect)
		}
	}
	if !admitsObjects(schema["type"]) {
		return nil, fmt.Errorf(`its output schema's root is of type %v, not an object (protocol 2026-07-28 allows an array or a `+
			`primitive answer), which the object at the offered schema's root would refuse`, schema["type"])
	}
	out := maps.Clone(schema)
	switch id := schema["$id"].(type) {
	case nil:
		if _, ok := schema["$id"]; ok {
			return nil, fmt.Errorf(`its output schema's "$id" is null`)
		}
		out["$id"] = "urn:toolgate:gateway:tool:" + url.PathEscape(name) + ":output"
	case string:
		if u, err := url.Parse(id); err != nil || !u.IsAbs() || u.Fragment != "" {
			return nil, fmt.Errorf(`its output schema's "$id" %q is not an absolute URI without a fragment`, id)
		}
	default:
		return nil, fmt.Errorf(`its output schema's "$id" is %s, not a URI`, jsonKind(id))
	}
	if ref, ok := schema["$ref"]; ok {
		allOf, isList := schema["allOf"].([]any)
		if _, has := schema["allOf"]; has && !isList {
			return nil, fmt.Errorf(`its output schema's "allOf" is %s, not a list`, jsonKind(schema["allOf"]))
		}
		delete(out, "$ref")
		out["allOf"] = append(slices.Clip(allOf), map[string]any{"$ref": ref})
	}
	return out, nil
}

// admitsObjects says a schema's "type" keyword lets an object through: absent, "object", or a
// list naming it. Any other type is an answer the offered schema's root ("type": "object", as MCP
// requires of an output schema before 2026-07-28) would refuse, success included.
func admitsObjects(t any) bool {
	switch t := t.(type) {
	case nil:
		return true
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	}
	return false
}
