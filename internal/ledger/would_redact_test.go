package ledger

import (
	"strings"
	"testing"
)

func TestWouldRedact(t *testing.T) {
	for _, tc := range []struct {
		fields map[string]any
		want   bool
	}{
		{map[string]any{"extra": map[string]any{"password": []any{"x"}}}, true},
		{map[string]any{"extra": map[string]any{"env": []any{map[string]any{"name": "API_TOKEN", "value": "x"}}}}, true},
		{map[string]any{"paths": []string{"--password", "x"}}, true},
		{map[string]any{"command": "curl -H 'Authorization: Bearer abcdefghijkl' https://x"}, true},
		{map[string]any{"extra": map[string]any{"max_tokens": 1024, "to": "a@example.com"}}, false},
		{map[string]any{"command": "make test", "paths": []string{"docs/token-budget.md"}, "cwd": "/src"}, false},
		{map[string]any{"note": strings.Repeat("long strings are not cut ", 100)}, false},
	} {
		got, err := WouldRedact(tc.fields)
		if err != nil || got != tc.want {
			t.Errorf("WouldRedact(%v) = %v, %v; want %v", tc.fields, got, err, tc.want)
		}
	}
	if _, err := WouldRedact(map[string]any{"f": func() {}}); err == nil {
		t.Error("fields that do not encode gave no error")
	}
}
