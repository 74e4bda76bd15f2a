package ledger

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"strings"
	"testing"
)

// Records appended by someone who holds the volume but not the key verify as a chain (the
// hashes are public), so verify must say that no signature covers them: after a writer's last
// signed head, and in a writer's directory nobody published a head for.
func TestVerifyReportsRecordsNoSignatureCovers(t *testing.T) {
	key := testKey(1)
	pub := key.Public().(ed25519.PublicKey)
	cfg := testConfig(t, newFakeClock(day0))
	cfg.SigningKey = key
	j := mustOpen(t, cfg)
	appendN(t, j, 10)
	head, ok, err := j.SignHead()
	if err != nil || !ok {
		t.Fatalf("SignHead: %v %v", ok, err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	anchors := VerifyOptions{PublicKey: pub, Heads: []SignedHead{head}}
	if rep, err := VerifyWith(cfg.Dir, anchors); err != nil || len(rep.Limits) != 0 {
		t.Fatalf("the signed chain: %v, limits %q", err, rep.Limits)
	}

	forger := cfg
	forger.SigningKey = nil
	fj := mustOpen(t, forger)
	for range 5 {
		if _, err := fj.Append(context.Background(), Record{Kind: "decision", Fields: map[string]any{"decision": "allow", "call": "never-happened"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := fj.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := VerifyWith(cfg.Dir, anchors)
	if err != nil {
		t.Fatalf("an appended chain still links: %v", err)
	}
	if len(rep.Chains) != 1 || rep.Chains[0].Unsigned == 0 {
		t.Fatalf("chains %+v: want the appended records counted as unsigned", rep.Chains)
	}
	last := rep.Chains[0].LastSeq
	if want := fmt.Sprintf("seq %d..%d follow the chain's newest signature", head.Seq+1, last); !strings.Contains(strings.Join(rep.Limits, "\n"), want) {
		t.Fatalf("limits %q do not say %q", rep.Limits, want)
	}

	other := Config{Dir: cfg.Dir, Writer: "toolgate-controller-manager-5d8f-abcde", Clock: cfg.Clock}
	oj := mustOpen(t, other)
	appendN(t, oj, 1)
	if err := oj.Close(); err != nil {
		t.Fatal(err)
	}
	rep, _ = VerifyWith(cfg.Dir, anchors)
	limits := strings.Join(rep.Limits, "\n")
	for _, want := range []string{"writer toolgate-controller-manager-5d8f-abcde published no head", "writer toolgate-controller-manager-5d8f-abcde: seq 1.."} {
		if !strings.Contains(limits, want) {
			t.Errorf("a chain nobody signed: limits %q do not say %q", rep.Limits, want)
		}
	}
}
