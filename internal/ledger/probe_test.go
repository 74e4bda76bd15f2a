package ledger

import "testing"

func TestProbeNested(t *testing.T) {
	r := newRedactor(nil, 1024)
	for _, f := range []map[string]any{
		{"body": "{\"inner\": \"{\\\"password\\\": \\\"hunter2\\\"}\"}"},
		{"body": "[{\"password\":\"hunter2\"}]"},
		{"body": " {\"password\":\"hunter2\"} trailing"},
		{"list": []any{"curl", "-H", "Authorization: Bearer abcdefghijkl", "--data", `{"token":"abc"}`}},
		{"list": []any{"--password:hunter2", "-Password", "hunter2", "/p:hunter2", "--pass", "hunter2", "--pw", "x"}},
		{"ghp_abcdefghijklmnopqrstuvwxyz0123456789": "alice"},
		{"m": map[string]any{"Authorization": map[string]any{"scheme": "Bearer"}}},
		{"url": "https://user:hunter2@host/x", "u2": "postgres://u:p%40ss@h/db"},
	} {
		out, err := r.encode(f)
		t.Logf("%s %v", out, err)
	}
}
