package gateway

import (
	"encoding/json"
	"testing"
)

const benchSchema = `{"type":"object","properties":{"path":{"type":"string","default":"."},"pattern":{"type":"string"},` +
	`"limit":{"type":"integer","default":100},"ignoreCase":{"type":"boolean"}},"additionalProperties":false}`

var benchArgs = json.RawMessage(`{"pattern":"TODO","ignoreCase":true,"path":"src"}`)

func benchDecoded(b *testing.B) any {
	var v any
	if err := json.Unmarshal([]byte(benchSchema), &v); err != nil {
		b.Fatal(err)
	}
	return v
}

// BenchmarkCallArguments is the per-call work on a call's arguments: defaults written in, keys
// checked against the declared ones.
func BenchmarkCallArguments(b *testing.B) {
	schema := benchDecoded(b)
	s := readToolSchema(schema)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.arguments(benchArgs, "t"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadToolSchema is the per-tool work when an upstream's tools are listed.
func BenchmarkReadToolSchema(b *testing.B) {
	schema := benchDecoded(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = readToolSchema(schema)
	}
}
