package ledger

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRedaction(t *testing.T) {
	tests := []struct {
		name  string
		extra []string
		in    map[string]any
		want  string
	}{
		{
			name: "default keys, any case, as substrings",
			in: map[string]any{"Password": "p", "apiKey": "k", "X-Auth-Header": "a", "refresh_TOKEN": "t",
				"clientSecret": "s", "CREDENTIALS": map[string]any{"user": "u"}, "tool": "shell"},
			want: `{"CREDENTIALS":"[REDACTED]","Password":"[REDACTED]","X-Auth-Header":"[REDACTED]","apiKey":"[REDACTED]",` +
				`"clientSecret":"[REDACTED]","refresh_TOKEN":"[REDACTED]","tool":"shell"}`,
		},
		{
			name: "nested maps and maps inside lists",
			in: map[string]any{"call": map[string]any{"args": []any{map[string]any{"token": "t", "path": "/a"}},
				"env": map[string]any{"DB_PASSWORD": "p", "HOME": "/root"}}},
			want: `{"call":{"args":[{"path":"/a","token":"[REDACTED]"}],"env":{"DB_PASSWORD":"[REDACTED]","HOME":"/root"}}}`,
		},
		{
			name:  "extra keys from the config",
			extra: []string{"Session", " cookie "},
			in:    map[string]any{"sessionId": "s", "Set-Cookie": "c", "decision": "allow"},
			want:  `{"Set-Cookie":"[REDACTED]","decision":"allow","sessionId":"[REDACTED]"}`,
		},
		{
			name: "passwd, passphrase and cookie keys; header maps",
			in: map[string]any{"db_passwd": "p", "gpgPassphrase": "q", "headers": map[string]any{"Cookie": "sid=1", "Set-Cookie": "sid=2",
				"Authorization": "Basic x", "Accept": "text/html"}},
			want: `{"db_passwd":"[REDACTED]","gpgPassphrase":"[REDACTED]","headers":{"Accept":"text/html","Authorization":"[REDACTED]",` +
				`"Cookie":"[REDACTED]","Set-Cookie":"[REDACTED]"}}`,
		},
		{
			name: "password and passphrase spelled with a separator",
			in: map[string]any{"Pass_Word": "p", "db-pass-word": "q", "pass.phrase": "r", "PASS WORD": "s", "passage": "keep",
				"cmd": "PASS_WORD=hunter22 ./run --pass-phrase hunter23"},
			want: `{"PASS WORD":"[REDACTED]","Pass_Word":"[REDACTED]","cmd":"PASS_WORD=[REDACTED:credential-assignment] ./run ` +
				`--pass-phrase [REDACTED:credential-option]","db-pass-word":"[REDACTED]","pass.phrase":"[REDACTED]","passage":"keep"}`,
		},
		{
			name: "key names in fullwidth letters or with invisible characters in them",
			in:   map[string]any{"ＰＡＳＳＷＯＲＤ": "p", "pass\u200bword": "q", "api\u00adKey": "r", "to\u2060ken": "s", "café": "keep"},
			want: "{\"api\u00adKey\":\"[REDACTED]\",\"café\":\"keep\",\"pass\u200bword\":\"[REDACTED]\",\"to\u2060ken\":\"[REDACTED]\"," +
				"\"ＰＡＳＳＷＯＲＤ\":\"[REDACTED]\"}",
		},
		{
			name: "a JSON document in a string argument is redacted as fields",
			in:   map[string]any{"body": `{"user": "alice", "password": "hunter2", "nested": [{"apiKey": "k"}]}`, "plain": `{"user":"bob"}`},
			want: `{"body":"{\"nested\":[{\"apiKey\":\"[REDACTED]\"}],\"password\":\"[REDACTED]\",\"user\":\"alice\"}","plain":"{\"user\":\"bob\"}"}`,
		},
		{
			name: "an option's value in the next list element",
			in: map[string]any{"args": []any{"--user", "bob", "--password", "hunter2", "--token=abc", "--client-secret", "s",
				"--cli-password", "c", "--no-password", "keep"}, "argv": []string{"mysql", "-h", "db", "-pS3cret", "x"},
				"ssh": []string{"sshpass", "-p", "hunter2", "ssh", "-p", "22", "host"}, "curl": []string{"curl", "-u", "al:pw", "https://x"},
				"run": []string{"docker", "run", "-p", "8080:80", "nginx"}},
			want: `{"args":["--user","bob","--password","[REDACTED]","--token=[REDACTED]","--client-secret","[REDACTED]",` +
				`"--cli-password","[REDACTED]","--no-password","keep"],"argv":["mysql","-h","db","-p[REDACTED]","x"],` +
				`"curl":["curl","-u","al:[REDACTED]","https://x"],"run":["docker","run","-p","8080:80","nginx"],` +
				`"ssh":["sshpass","-p","[REDACTED]","ssh","-p","22","host"]}`,
		},
		{
			name: "a map whose keys are credentials",
			in: map[string]any{"users": map[string]any{"ghp_" + strings.Repeat("a1B2", 9): "alice", "ghp_" + strings.Repeat("c3D4", 9): "bob",
				"plain": "carol"}},
			want: `{"users":{"[REDACTED:github-pat]":"alice","[REDACTED:github-pat]#2":"bob","plain":"carol"}}`,
		},
		{
			name: "a credential word in prose is not a credential (values are redacted by shape, see secrets_test.go)",
			in:   map[string]any{"message": "password is hunter2"},
			want: `{"message":"password is hunter2"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := newRedactor(tt.extra, 1024).encode(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Fatalf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestTruncation(t *testing.T) {
	tests := []struct {
		name string
		max  int
		in   map[string]any
		want string
	}{
		{"short strings kept", 8, map[string]any{"m": "12345678"}, `{"m":"12345678"}`},
		{"long string cut with the byte count", 8, map[string]any{"m": "1234567890ab"}, `{"m":"12345678…[truncated 4 bytes]"}`},
		{"cut on a rune boundary", 5, map[string]any{"m": "abcdéfg"}, `{"m":"abcd…[truncated 4 bytes]"}`},
		{"strings in lists and nested maps", 4, map[string]any{"a": []any{"xxxxxx"}, "b": map[string]any{"c": "yyyyy"}},
			`{"a":["xxxx…[truncated 2 bytes]"],"b":{"c":"yyyy…[truncated 1 bytes]"}}`},
		{"long keys cut, colliding ones numbered", 4, map[string]any{"abcdXX": 1, "abcdYY": 2},
			`{"abcd…[truncated 2 bytes]":1,"abcd…[truncated 2 bytes]#2":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := newRedactor(nil, tt.max).encode(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Fatalf("(-want +got)\n%s", diff)
			}
		})
	}
}

// The point of redaction is that the secret never reaches the volume, in any file.
func TestSecretsNeverReachTheVolume(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	cfg.RedactKeys = []string{"bearer"}
	cfg.MaxStringLength = 64
	cfg.MaxSegmentBytes = 1 // a segment per batch: secrets would have to survive sealing too
	cfg.Compress = true
	j := mustOpen(t, cfg)
	const secret = "s3cr3t-VALUE-0xC0FFEE"
	long := strings.Repeat("L", 5000)
	for _, f := range []map[string]any{
		{"args": map[string]any{"env": map[string]any{"GITHUB_TOKEN": secret}}},
		{"Bearer": secret},
		{"message": long},
	} {
		if _, err := j.Append(context.Background(), Record{Kind: "decision", Fields: f}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := j.Maintain(day0); err != nil {
		t.Fatal(err)
	}
	rep := mustVerify(t, cfg.Dir)
	if rep.Chains[0].Records == 0 {
		t.Fatal("nothing written")
	}
	var all bytes.Buffer
	for _, p := range records(t, chainDirOf(cfg)) {
		all.WriteString(p.Time + string(mustCanonical(t, p.Fields)) + "\n")
	}
	ents, _ := os.ReadDir(chainDirOf(cfg))
	for _, e := range ents {
		all.Write(readFile(t, filepath.Join(chainDirOf(cfg), e.Name())))
	}
	if bytes.Contains(all.Bytes(), []byte(secret)) {
		t.Fatal("the secret is on the volume")
	}
	if bytes.Contains(all.Bytes(), []byte(long[:65])) {
		t.Fatal("a string longer than MaxStringLength is on the volume")
	}
	if !bytes.Contains(all.Bytes(), []byte("…[truncated 4936 bytes]")) {
		t.Fatal("the truncation marker is missing")
	}
}

func mustCanonical(t *testing.T, v map[string]any) []byte {
	t.Helper()
	b, err := appendCanonical(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Under the default limit every argument a call can carry is recorded whole (so it still hashes
// to argumentsDigest and its decision can be replayed: an 8192-character command of four-byte
// runes), through both encoders; a longer string, which no argument can be, is still cut, so a
// record's size stays bounded.
func TestDefaultLimitKeepsEveryAdmissibleArgument(t *testing.T) {
	command := strings.Repeat("𝔭", 8192) // the schema's 8192 characters, each of the most bytes
	if len(command) != DefaultMaxStringLength {
		t.Fatalf("the test's command is %d bytes, want the bound %d", len(command), DefaultMaxStringLength)
	}
	over := strings.Repeat("x", DefaultMaxStringLength+10)
	fields := map[string]any{"arguments": map[string]any{"command": command, "extra": map[string]any{"note": over}}}
	want := `{"arguments":{"command":"` + command + `","extra":{"note":"` + over[:DefaultMaxStringLength] +
		`…[truncated 10 bytes]"}}}`
	for name, encode := range map[string]func(map[string]any) ([]byte, error){
		"direct":     newRedactor(nil, DefaultMaxStringLength).encode,
		"round trip": newRedactor(nil, DefaultMaxStringLength).encodeRoundTrip,
	} {
		got, err := encode(fields)
		if err != nil {
			t.Fatal(name, err)
		}
		if string(got) != want {
			t.Fatalf("%s: the command was not kept whole or the long note not cut (%d bytes)", name, len(got))
		}
	}
}
