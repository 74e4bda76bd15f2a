package audit

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/safety"
)

// trickyStrings are values every field of a fixed record gets: credentials the value rules
// redact, escapes, non-ASCII text (the Kelvin sign lower-cases to "k", so "to\u212aen" is a token
// by Unicode rules), invalid UTF-8 (the map path replaces it; the writer gives up), long text
// that truncation cuts, hex digests and the empty string.
var trickyStrings = []string{
	"", "deny", "team-a", "git push --force", "0b9f6a2e-8c1d-4f5e-9a7b-3c2d1e0f4a5b",
	"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
	`curl -H "Authorization: Bearer abcdefghijklmnop0123" https://api.example.com && git push --force origin main`,
	"sk-aaaaaaaaaaaaaaaaaaaaaaaaaaaa", "AKIAABCDEFGHIJKLMNOP", "https://u:pa55word@h/x", "--password=hunter22 ok",
	"ctl a\x00b\x1f\"q\"\\\n\r\t\u007f", "café --pass=wörd", "--to\u212aen=abcdefgh123", "bad \xff utf-8",
	strings.Repeat("x", 70) + " ghp_" + strings.Repeat("a", 36), strings.Repeat("é", 700),
	"-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----",
}

// trickyExtras are extra arguments: numbers kept as written, nesting, secret keys (whose values
// must still be valid for the map path), lists.
var trickyExtras = []string{
	`{"amount":399.50,"memo":"rent","n":12345678901234567890,"tags":["a","b"]}`,
	`{"password":{"x":[1,2.5e3,"\u00ff"]},"Token":"abcdefgh12345678","nested":{"api_key":null,"l":[true,{}]}}`,
	`{"cmd":"Authorization: Bearer abcdefghijklmnop","k":-0.0,"` + strings.Repeat("k", 80) + `":1}`,
	`[1,"two",{"three":3}]`, `"just a string with --secret=abcdefgh"`, `{}`, `not json`,
}

// randomDecision builds a decision from rng: every field from trickyStrings, each optional part
// present or not.
func randomDecision(rng *rand.Rand) Decision {
	str := func() string { return trickyStrings[rng.IntN(len(trickyStrings))] }
	d := Decision{Decision: str(), Reason: str(), Message: str(), Mode: str(), Namespace: str(), Plan: str(),
		Call: str(), Tool: str(), Step: str(), Requester: str(), SnapshotHash: str(), Approval: str(), RuleID: str(), Class: str()}
	if rng.IntN(4) > 0 {
		args := safetyv1alpha1.ToolArguments{Command: str(), Cwd: str()}
		for range rng.IntN(3) {
			args.Paths = append(args.Paths, str())
		}
		if rng.IntN(2) == 0 {
			args.Extra = &runtime.RawExtension{Raw: []byte(trickyExtras[rng.IntN(len(trickyExtras))])}
		}
		d.Request = &CallRequest{UID: str(), Arguments: args, SandboxID: str()}
	}
	if rng.IntN(4) > 0 {
		d.AgentTool = &ToolPin{UID: str(), Generation: rng.Int64N(1<<40) - 5, Writes: rng.IntN(2) == 0, Unsafe: rng.IntN(2) == 0,
			Checkpointable: rng.IntN(2) == 0, ActionClass: str(), SkillCategory: str()}
	}
	if rng.IntN(4) > 0 {
		d.Facts = &Facts{AccumulatedCost: safety.MustParseMoney(fmt.Sprintf("%d.%02d", rng.IntN(100), rng.IntN(100))),
			TotalCost: safety.MustParseMoney("40.1"), EarlierAttempts: rng.Int32N(10), Repeats: rng.IntN(5) - 1,
			HumanApproved: rng.IntN(2) == 0, ReadOnlyPlan: rng.IntN(2) == 0, RequireCheckpoints: rng.IntN(2) == 0}
		if rng.IntN(2) == 0 { // absent when nothing is held
			d.Facts.HeldCost = safety.MustParseMoney(fmt.Sprintf("0.%d", rng.IntN(10)))
		}
	}
	return d
}

func randomCompletion(rng *rand.Rand) Completion {
	str := func() string { return trickyStrings[rng.IntN(len(trickyStrings))] }
	c := Completion{Namespace: str(), Plan: str(), Call: str(), UID: str(), Tool: str(), Step: str(), Phase: str(), Cost: str(),
		FinishedAt: time.Unix(rng.Int64N(1<<32), rng.Int64N(1e9))}
	if rng.IntN(2) == 0 {
		c.ReportedFinishedAt = time.Unix(rng.Int64N(1<<32), 0).In(time.FixedZone("x", 3600))
	}
	if rng.IntN(2) == 0 {
		c.LastPhase = str() // an unfinished call's
	}
	return c
}

// redactionSettings are journals' redaction settings the two paths must agree under: the
// defaults, extra keys that hide plain fields and whole objects (agentTool, arguments, facts)
// and non-ASCII ones, and string limits that cut values and, at 16, keys.
var redactionSettings = []ledger.Config{
	{},
	{RedactKeys: []string{"plan", "tool", "arg", "fact", "é"}, MaxStringLength: 64},
	{RedactKeys: []string{"uid", "mode", "Cost", "class"}, MaxStringLength: 100},
	{MaxStringLength: 16},
}

// mustMatchFieldsMap fails t unless rec writes exactly the bytes its Fields map encodes to under
// cfg, and reports whether the writer did so itself (it did not give up and fall back to Fields).
func mustMatchFieldsMap(t testing.TB, cfg ledger.Config, rec ledger.FixedFields) (wroteItself bool) {
	t.Helper()
	return mustEncodeAsFieldsMap(t, cfg, ledger.NewFieldEncoder(cfg), rec)
}

// mustEncodeAsFieldsMap is mustMatchFieldsMap with enc, the encoder for cfg, built once by a
// caller that encodes many records.
func mustEncodeAsFieldsMap(t testing.TB, cfg ledger.Config, enc ledger.FieldEncoder, rec ledger.FixedFields) bool {
	t.Helper()
	want, werr := enc.Encode(ledger.Record{Fields: rec.Fields()})
	probe := &fallbackProbe{FixedFields: rec}
	got, err := enc.Encode(ledger.Record{Fixed: probe})
	if (err == nil) != (werr == nil) || !bytes.Equal(got, want) {
		t.Fatalf("under %+v:\nwritten %s (%v)\nmap     %s (%v)", cfg, got, err, want, werr)
	}
	return !probe.fellBack
}

// fallbackProbe notes whether the journal asked for the record's map.
type fallbackProbe struct {
	ledger.FixedFields
	fellBack bool
}

func (p *fallbackProbe) Fields() map[string]any {
	p.fellBack = true
	return p.FixedFields.Fields()
}

// A decision and a completion write exactly the bytes their maps encode to, for thousands of
// records under every redaction setting; and they do it themselves whenever nothing in them
// needs the map path, or the speed-up is gone silently.
func TestFixedRecordsWriteTheirFieldsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	var decisions, fellBack int
	encoders := make([]ledger.FieldEncoder, len(redactionSettings))
	for i, cfg := range redactionSettings {
		encoders[i] = ledger.NewFieldEncoder(cfg)
	}
	for range 3000 {
		d := randomDecision(rng)
		c := randomCompletion(rng)
		for i, cfg := range redactionSettings {
			if !mustEncodeAsFieldsMap(t, cfg, encoders[i], newDecisionRecord(d)) {
				fellBack++
			}
			decisions++
			mustEncodeAsFieldsMap(t, cfg, encoders[i], completionRecord{&c})
		}
	}
	// Most random decisions hold something (invalid UTF-8, a long key in the extra arguments, a
	// 16-byte limit) that sends them to the map path; clean ones must never go there.
	if fellBack == decisions || fellBack == 0 {
		t.Errorf("%d of %d decisions fell back to their map: the test reaches only one path", fellBack, decisions)
	}
	clean := Decision{Decision: "deny", Reason: "ToolSafetyViolation", Message: "[ToolSafetyViolation] no", Mode: "Enforce",
		Namespace: "team-a", Plan: "plan-a", Call: "c-1", Tool: "shell", Step: "build", Requester: "system:serviceaccount:team-a:coder",
		SnapshotHash: "sha256:ab", Approval: "team-a/ok", RuleID: "damage-control:git-push-force", Class: "git_destructive",
		Request: &CallRequest{UID: "u", SandboxID: "sbx-1", Arguments: safetyv1alpha1.ToolArguments{
			Command: trickyStrings[6], Cwd: "/workspace", Paths: []string{"a", "é"},
			Extra: &runtime.RawExtension{Raw: []byte(trickyExtras[0])}}},
		AgentTool: &ToolPin{UID: "t", Generation: 3, Writes: true}, Facts: &Facts{Repeats: 2}}
	done := Completion{Namespace: "team-a", Plan: "p", Call: "c", UID: "u", Tool: "shell", Step: "s", Phase: "Succeeded",
		Cost: "1.25", FinishedAt: time.Now(), ReportedFinishedAt: time.Now()}
	for _, cfg := range redactionSettings[:3] {
		if !mustMatchFieldsMap(t, cfg, newDecisionRecord(clean)) {
			t.Errorf("a plain decision fell back to its map under %+v", cfg)
		}
		if !mustMatchFieldsMap(t, cfg, completionRecord{&done}) {
			t.Errorf("a completion fell back to its map under %+v", cfg)
		}
	}
}

// FuzzFixedRecordsWriteTheirFieldsMap is the test above for any strings, extra arguments and
// string limit.
func FuzzFixedRecordsWriteTheirFieldsMap(f *testing.F) {
	for i, s := range trickyStrings {
		f.Add(s, trickyStrings[(i+6)%len(trickyStrings)], []byte(trickyExtras[i%len(trickyExtras)]), uint16(i*10), uint8(i))
	}
	f.Fuzz(func(t *testing.T, a, b string, extra []byte, maxLen uint16, shape uint8) {
		d := Decision{Decision: a, Reason: b, Message: a + b, Mode: b, Namespace: a, Plan: b, Call: a, Tool: b, Step: a,
			Requester: b, SnapshotHash: a, Approval: b, RuleID: a, Class: b}
		if shape&1 != 0 {
			args := safetyv1alpha1.ToolArguments{Command: a, Cwd: b, Paths: []string{b, a}[:shape>>4&3%3]}
			if shape&2 != 0 {
				args.Extra = &runtime.RawExtension{Raw: extra}
			}
			d.Request = &CallRequest{UID: b, Arguments: args, SandboxID: a}
		}
		if shape&4 != 0 {
			d.AgentTool = &ToolPin{UID: a, Generation: int64(maxLen) - 7, Writes: true, ActionClass: b, SkillCategory: a}
		}
		if shape&8 != 0 {
			d.Facts = &Facts{EarlierAttempts: int32(shape), Repeats: -int(maxLen), HumanApproved: true}
		}
		c := Completion{Namespace: a, Plan: b, Call: a, UID: b, Tool: a, Step: b, Phase: a, Cost: b, FinishedAt: time.Unix(int64(maxLen), 0)}
		for _, cfg := range []ledger.Config{{MaxStringLength: int(maxLen) + 1}, {RedactKeys: []string{a, "arg"}, MaxStringLength: 64}} {
			mustMatchFieldsMap(t, cfg, newDecisionRecord(d))
			mustMatchFieldsMap(t, cfg, completionRecord{&c})
		}
	})
}
