package main

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/ledger"
)

// Near misses of the anchor fixes: what the lenient heads reader, the key bundles and replay's
// anchors must still refuse.

func pubPEM(t *testing.T, key ed25519.PrivateKey) []byte {
	t.Helper()
	b, err := ledger.EncodePublicKey(key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestLedgerVerifyKeysNearMisses(t *testing.T) {
	dir, pub, heads := signedLedger(t)
	genuine, err := os.ReadFile(pub)
	if err != nil {
		t.Fatal(err)
	}
	other, err := ledger.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	priv, err := ledger.EncodePrivateKey(other)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	file := func(name string, parts ...[]byte) string {
		p := filepath.Join(tmp, name)
		writeTestFile(t, p, []byte(strings.Join(func() []string {
			s := make([]string, 0, len(parts))
			for _, b := range parts {
				s = append(s, string(b))
			}
			return s
		}(), "")))
		return p
	}
	otherPub := file("other.pub", pubPEM(t, other))
	for _, tt := range []struct {
		name string
		keys []string
		code int
		want string
	}{
		// A key besides the genuine one, in a bundle or repeated, in either order: still verifies.
		{"bundle, genuine last", []string{file("b1.pub", pubPEM(t, other), genuine)}, exitOK, "ok"},
		{"repeated, genuine first", []string{pub, otherPub}, exitOK, "ok"},
		{"the same key twice", []string{pub, pub}, exitOK, "ok"},
		// Only other keys: foreign, naming every key given.
		{"another key only", []string{otherPub}, exitFailed, "foreign"},
		{"two other keys", []string{otherPub, file("third.pub", pubPEM(t, testKey(t)))}, exitFailed,
			"none of the given keys"},
		// A bundle is read whole or not at all.
		{"a private key in the bundle", []string{file("b2.pub", genuine, priv)}, exitUsage, "PEM block 2"},
		{"a broken block after a key", []string{file("b3.pub", genuine, []byte("-----BEGIN PUBLIC KEY-----\nnot base64\n"))},
			exitUsage, "PEM block 2"},
		{"base64 lines with junk", []string{file("b4.pub", []byte("aGVsbG8=\n"))}, exitUsage, "--public-key"},
	} {
		args := make([]string, 0, 5+2*len(tt.keys))
		args = append(args, "ledger", "verify", dir, "--heads", heads)
		for _, k := range tt.keys {
			args = append(args, "--public-key", k)
		}
		code, out, errOut := runCLI(t, args...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("%s: exit %d, want %d naming %q\n%s%s", tt.name, code, tt.code, tt.want, out, errOut)
		}
	}
}

func testKey(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	k, err := ledger.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestLedgerVerifyHeadsNearMisses(t *testing.T) {
	dir, pub, heads := signedLedger(t)
	b, err := os.ReadFile(heads)
	if err != nil {
		t.Fatal(err)
	}
	orig := string(b)
	edit := func(name, old, repl string) string {
		t.Helper()
		s := strings.Replace(orig, old, repl, 1)
		if s == orig {
			t.Fatalf("fixture %s: %q not in\n%s", name, old, orig)
		}
		p := filepath.Join(t.TempDir(), name)
		writeTestFile(t, p, []byte(s))
		return p
	}
	for _, tt := range []struct {
		name, file string
		code       int
		want       string
	}{
		// Unknown fields anywhere but in a head are ignored.
		{"newer spec", edit("spec.yaml", "spec: {}\n", "spec:\n  replication: {mode: async}\n"), exitOK, "ok"},
		// A field unknown inside a signed head may be something a later release signs: refused.
		{"unknown head field", edit("head.yaml", "  - hash:", "  - chainID: abc\n    hash:"), exitUsage,
			"status.signedHeads[0]: json: unknown field \"chainID\""},
		// A key given twice is ambiguous: which one is the head?
		{"duplicate key", edit("dup.yaml", "  - hash:", "  - seq: 1\n    hash:"), exitUsage, "already"},
		{"not an AuditLedger", edit("kind.yaml", "kind: AuditLedger", "kind: ConfigMap"), exitUsage, "want AuditLedger"},
	} {
		code, out, errOut := runCLI(t, "ledger", "verify", dir, "--public-key", pub, "--heads", tt.file)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("%s: exit %d, want %d naming %q\n%s%s", tt.name, code, tt.code, tt.want, out, errOut)
		}
	}
	list := filepath.Join(t.TempDir(), "heads.json")
	writeTestFile(t, list, []byte(`[{"writer":"webhook-0","seq":1,"hash":"x","segment":"s",`+
		`"signedAt":"2026-01-01T00:00:00Z","keyID":"k","signature":"s","chainID":"c"}]`))
	if code, _, errOut := runCLI(t, "ledger", "verify", dir, "--heads", list); code != exitUsage ||
		!strings.Contains(errOut, "unknown field") {
		t.Errorf("a JSON list of heads with an unknown field: exit %d %s", code, errOut)
	}
}

func TestReplayAnchorsNearMisses(t *testing.T) {
	dir, pub, heads := signedLedger(t)
	// The genuine key and heads: replayed, and nothing is left unproven.
	code, out, errOut := runCLI(t, "replay", "--ledger", dir, "--public-key", pub, "--heads", heads)
	if code != exitOK || !strings.Contains(out, ": verified (") || strings.Contains(out, "cannot prove") {
		t.Errorf("replay with the genuine anchors: exit %d\n%s%s", code, out, errOut)
	}
	// The key alone: verified, and it says the heads were not given.
	code, out, _ = runCLI(t, "replay", "--ledger", dir, "--public-key", pub)
	if code != exitOK || !strings.Contains(out, "cannot prove: no published heads") {
		t.Errorf("replay with the key alone: exit %d\n%s", code, out)
	}
	// The heads catch records cut from the end, in replay as in verify.
	live, _ := filepath.Glob(filepath.Join(dir, "webhook-0", "*.jsonl"))
	for _, f := range append(live, filepath.Join(dir, "webhook-0", "head"), filepath.Join(dir, "webhook-0", "head.sig")) {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	code, _, errOut = runCLI(t, "replay", "--ledger", dir, "--public-key", pub, "--heads", heads)
	if code != exitUsage || !strings.Contains(errOut, "does not verify") || !strings.Contains(errOut, "cut from the end") {
		t.Errorf("replay of a truncated ledger with its heads: exit %d\n%s", code, errOut)
	}
	// Bad anchor flags are usage errors, as in verify.
	for _, args := range [][]string{
		{"--public-key", heads},
		{"--heads", pub},
		{"--heads", heads, "--heads-from-cluster"},
	} {
		if code, _, errOut := runCLI(t, append([]string{"replay", "--ledger", dir}, args...)...); code != exitUsage ||
			!strings.Contains(errOut, args[0]) {
			t.Errorf("replay %v: exit %d %s", args, code, errOut)
		}
	}
}
