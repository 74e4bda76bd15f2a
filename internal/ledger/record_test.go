package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// The stored form is a compatibility contract: auditors verify old segments with new binaries.
// A change here must be deliberate, so the exact bytes and hash are pinned.
func TestLineFormatIsPinned(t *testing.T) {
	fields, err := newRedactor(nil, 1024).encode(map[string]any{"tool": "read_file", "decision": "deny", "n": 3})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 30, 5, 9, 0, 123000000, time.FixedZone("CET", 3600))
	line, pos := appendLine(nil, genesis(), at, "webhook-0", "decision", fields)
	// The hash was computed independently (Python's hashlib over the body), not by this package.
	const wantHash = "4702462f1dff332ed96f7d5fb9d6aa64d5ba9eb976c3b5a71add3976fffea93c"
	const wantLine = `{"seq":1,"time":"2026-11-30T04:09:00.123Z","writer":"webhook-0","kind":"decision",` +
		`"fields":{"decision":"deny","n":3,"tool":"read_file"},` +
		`"prevHash":"0000000000000000000000000000000000000000000000000000000000000000",` +
		`"hash":"` + wantHash + `"}` + "\n"
	if string(line) != wantLine {
		t.Fatalf("line:\n got %s\nwant %s", line, wantLine)
	}
	if pos != (position{seq: 1, hash: wantHash}) {
		t.Fatalf("position %+v, want seq 1 hash %s", pos, wantHash)
	}
	p, err := parseLine(line[:len(line)-1])
	if err != nil {
		t.Fatalf("parseLine: %v", err)
	}
	if p.Seq != 1 || p.Kind != "decision" || p.str("tool") != "read_file" || p.hash != wantHash {
		t.Fatalf("parsed %+v", p)
	}
}

// resign recomputes a line's hash after its body was edited, as a forger would.
func resign(body string) string {
	sum := sha256.Sum256([]byte(body))
	return body[:len(body)-1] + hashPrefix + hex.EncodeToString(sum[:]) + `"}`
}

func TestParseLineRejects(t *testing.T) {
	fields, _ := newRedactor(nil, 1024).encode(map[string]any{"tool": "shell", "decision": "allow"})
	good, _ := appendLine(nil, genesis(), day0, "w", "decision", fields)
	line := string(good[:len(good)-1])
	body := line[:len(line)-hashSuffixLen] + "}"

	tests := []struct {
		name string
		line string
		want error
	}{
		{"one byte changed in a field", strings.Replace(line, `"shell"`, `"shelL"`, 1), errHashMismatch},
		{"one byte changed in the hash", line[:len(line)-3] + "0\"}", errHashMismatch},
		{"hash removed", body, errNotRecord},
		{"hash in upper case", strings.ToUpper(line[:len(line)-66]) + strings.ToUpper(line[len(line)-66:]), errNotRecord},
		{"whitespace added and re-signed", resign(strings.Replace(body, `"seq":1,`, `"seq": 1,`, 1)), errNotRecord},
		{"unknown field added and re-signed", resign(strings.Replace(body, `{"seq"`, `{"x":1,"seq"`, 1)), errNotRecord},
		{"keys out of order and re-signed", resign(strings.Replace(body, `"decision":"allow","tool":"shell"`, `"tool":"shell","decision":"allow"`, 1)), errNotRecord},
		{"duplicate key and re-signed", resign(strings.Replace(body, `"decision":"allow"`, `"decision":"deny","decision":"allow"`, 1)), errNotRecord},
		{"time not in UTC and re-signed", resign(strings.Replace(body, `10:00:00Z`, `11:00:00+01:00`, 1)), errNotRecord},
		{"fields null and re-signed", resign(strings.Replace(body, `"fields":{"decision":"allow","tool":"shell"}`, `"fields":null`, 1)), errNotRecord},
		{"not JSON", "hello", errNotRecord},
		{"empty", "", errNotRecord},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.line == line {
				t.Fatal("test case does not change the line")
			}
			_, err := parseLine([]byte(tt.line))
			if !errors.Is(err, tt.want) {
				t.Fatalf("parseLine error %v, want %v", err, tt.want)
			}
		})
	}
}

func TestCanonicalEncoding(t *testing.T) {
	tests := []struct {
		name string
		in   string // JSON
		want string
	}{
		{"keys sorted at every level", `{"b":1,"a":{"d":[{"z":1,"y":2}],"c":null}}`, `{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}`},
		{"numbers keep their text", `{"n":1.50,"m":-0,"e":1e3}`, `{"e":1e3,"m":-0,"n":1.50}`},
		{"only required escapes", `{"s":"<a&b> \"q\" \\ \n\t\u0001 é ☃"}`, `{"s":"<a&b> \"q\" \\ \n\t\u0001 é ☃"}`},
		{"empty containers", `{"a":[],"o":{}}`, `{"a":[],"o":{}}`},
		{"booleans", `{"t":true,"f":false}`, `{"f":false,"t":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dec := json.NewDecoder(strings.NewReader(tt.in))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			got, err := appendCanonical(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
			if !json.Valid(got) {
				t.Fatalf("not valid JSON: %s", got)
			}
		})
	}
	if _, err := appendCanonical(nil, map[string]any{"f": 1.5}); err == nil {
		t.Fatal("a float64 (not a decoded json.Number) was accepted; the encoder only takes decoded trees")
	}
}

func TestFieldsEncodeLikeEncodingJSON(t *testing.T) {
	type call struct {
		Tool string `json:"tool"`
		Args []string
	}
	got, err := newRedactor(nil, 1024).encode(map[string]any{
		"call": call{Tool: "shell", Args: []string{"ls"}},
		"at":   time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		"n":    uint64(1 << 63),
		"f":    0.1,
		"nil":  nil,
	})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"at":"2026-01-02T03:04:05Z","call":{"Args":["ls"],"tool":"shell"},"f":0.1,"n":9223372036854775808,"nil":null}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if _, err := newRedactor(nil, 1024).encode(map[string]any{"c": make(chan int)}); err == nil {
		t.Fatal("a channel was encoded")
	}
	if !bytes.Equal(mustEncode(t, nil), []byte("{}")) {
		t.Fatal("nil fields do not encode as {}")
	}
}

func mustEncode(t *testing.T, m map[string]any) []byte {
	t.Helper()
	b, err := newRedactor(nil, 1024).encode(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
