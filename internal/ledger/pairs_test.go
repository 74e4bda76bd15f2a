package ledger

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A setting named in one field and valued in another ({"name": "DB_PASSWORD", "value": "x"}):
// the value's own key says nothing, its name does. Both encoders must hide it.
func TestRedactsTheValueOfANamedCredentialPair(t *testing.T) {
	tests := []struct {
		name string
		in   map[string]any
		want string
	}{
		{
			name: "Kubernetes env entries",
			in: map[string]any{"env": []any{map[string]any{"name": "DB_PASSWORD", "value": "hunter2"},
				map[string]any{"name": "HOME", "value": "/root"}}},
			want: `{"env":[{"name":"DB_PASSWORD","value":"[REDACTED]"},{"name":"HOME","value":"/root"}]}`,
		},
		{
			name: "HTTP headers as HAR and Postman write them, any case",
			in: map[string]any{"headers": []any{map[string]any{"Name": "X-Api-Key", "Value": "abcdefghijklmn"},
				map[string]any{"key": "Authorization", "value": "Token abcdefghijklmn", "disabled": false},
				map[string]any{"key": "Accept", "value": "text/html"}}},
			want: `{"headers":[{"Name":"X-Api-Key","Value":"[REDACTED]"},{"disabled":false,"key":"Authorization","value":"[REDACTED]"},` +
				`{"key":"Accept","value":"text/html"}]}`,
		},
		{
			// ParameterKey holds the word key, so its own value (the name) was hidden already.
			name: "CloudFormation parameters, a map of strings, a structured value",
			in: map[string]any{"params": []any{map[string]any{"ParameterKey": "DbPassword", "ParameterValue": "hunter2"}},
				"one": map[string]string{"name": "client_secret", "value": "s3cr3t"},
				"obj": map[string]any{"name": "token", "value": map[string]any{"raw": "abc"}}},
			want: `{"obj":{"name":"token","value":"[REDACTED]"},"one":{"name":"client_secret","value":"[REDACTED]"},` +
				`"params":[{"ParameterKey":"[REDACTED]","ParameterValue":"[REDACTED]"}]}`,
		},
		{
			// fetch/undici's Headers init, curl-like MCP tools and HAR-ish tools: [name, value] pairs.
			name: "header pairs as two-string lists, in a list of lists or alone, []string too",
			in: map[string]any{"headers": []any{[]any{"Authorization", "Basic dXNlcjpwYXNz"}, []any{"Accept", "*/*"},
				[]any{"x-api-key", "abcdefghijklmn"}, []string{"Cookie", "sid=abc"}},
				"one": []string{"DB_PASSWORD", "hunter2"}},
			want: `{"headers":[["Authorization","[REDACTED]"],["Accept","*/*"],["x-api-key","[REDACTED]"],["Cookie","[REDACTED]"]],` +
				`"one":["DB_PASSWORD","[REDACTED]"]}`,
		},
		{
			name: "near misses of pairs: an argument vector, names the key test reads as no credential, not two strings",
			in: map[string]any{"argv": []string{"ls", "-la"}, "usage": []any{"token_count", "5"}, "kv": []any{"key", "user:42"},
				"max": []any{"MAX_TOKENS", "1024"}, "three": []any{"Authorization", "a", "b"}, "num": []any{"Authorization", 5},
				"one": []any{"Authorization"}, "who": []any{"author", "alice"},
				"paths": []string{"auth/login.go", "auth/login_test.go"}, "files": []any{"secrets/db.txt", "token.go"}},
			want: `{"argv":["ls","-la"],"files":["secrets/db.txt","token.go"],"kv":["key","user:42"],"max":["MAX_TOKENS","1024"],` +
				`"num":["Authorization",5],"one":["Authorization"],"paths":["auth/login.go","auth/login_test.go"],` +
				`"three":["Authorization","a","b"],"usage":["token_count","5"],"who":["author","alice"]}`,
		},
		{
			// A call's paths are files, whatever they are named: hiding the second of two would
			// lose what the call touched and make its decision unreplayable.
			name: "near misses: two paths under a paths key, at any depth",
			in: map[string]any{"paths": []string{"auth", "status"},
				"arguments": map[string]any{"paths": []any{"secrets", "src"}}},
			want: `{"arguments":{"paths":["secrets","src"]},"paths":["auth","status"]}`,
		},
		{
			name: "near misses: names that are not credentials, a name without a value, a value without a name",
			in: map[string]any{"env": []any{map[string]any{"name": "MAX_TOKENS", "value": "1024"},
				map[string]any{"name": "TOKEN_FILE", "value": "/run/t"}, map[string]any{"name": "key", "value": "user:42"},
				map[string]any{"name": "DB_PASSWORD", "valueFrom": map[string]any{"secretKeyRef": map[string]any{"name": "db"}}},
				map[string]any{"value": "plain"}, map[string]any{"name": "author", "value": "alice"}}},
			want: `{"env":[{"name":"MAX_TOKENS","value":"1024"},{"name":"TOKEN_FILE","value":"/run/t"},{"name":"key","value":"user:42"},` +
				`{"name":"DB_PASSWORD","valueFrom":{"secretKeyRef":{"name":"db"}}},{"value":"plain"},{"name":"author","value":"alice"}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRedactor(nil, 1024)
			got, err := r.encode(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Fatalf("encode (-want +got)\n%s", diff)
			}
			tree, err := r.encodeRoundTrip(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(tree)); diff != "" {
				t.Fatalf("tree path (-want +got)\n%s", diff)
			}
			// The same document passed as a JSON string (an MCP client's argument) is redacted alike.
			doc, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.redactString(string(doc)); got != tt.want {
				t.Fatalf("as a JSON string: got %s, want %s", got, tt.want)
			}
		})
	}
}
