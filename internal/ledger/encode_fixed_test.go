package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// mapFixed writes any map through a FieldWriter, keys sorted: every FieldWriter method on
// whatever a caller may pass, held to the map encoder (FuzzFieldWriterMatchesTheMapEncoder).
type mapFixed struct {
	m        map[string]any
	fellBack bool
}

func (f *mapFixed) Fields() map[string]any { f.fellBack = true; return f.m }

func (f *mapFixed) WriteFields(w *FieldWriter) { writeMapFixed(w, f.m) }

func writeMapFixed(w *FieldWriter, m map[string]any) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		switch v := m[k].(type) {
		case map[string]any:
			w.Object(k)
			writeMapFixed(w, v)
			w.End()
		case string:
			w.String(k, v)
		case bool:
			w.Bool(k, v)
		case int64:
			w.Int(k, v)
		case []string:
			w.Strings(k, v)
		default:
			w.Value(k, v)
		}
	}
}

// richFixed is richDecision written through a FieldWriter, as audit writes a decision.
type richFixed struct{ call string }

func (f richFixed) Fields() map[string]any {
	fields := richDecision(0).Fields
	fields["call"] = f.call
	return fields
}

func (f richFixed) WriteFields(w *FieldWriter) {
	w.Object("agentTool")
	w.String("actionClass", "execute")
	w.Bool("checkpointable", true)
	w.Int("generation", 3)
	w.String("skillCategory", "")
	w.String("uid", "5d7c0e1a-2b3c-4d5e-8f9a-0b1c2d3e4f5a")
	w.Bool("unsafe", false)
	w.Bool("writes", true)
	w.End()
	w.Object("arguments")
	w.String("command", `curl -H "Authorization: Bearer abcdefghijklmnop0123" https://api.example.com && git push --force origin main`)
	w.String("cwd", "/workspace/repo")
	w.Strings("paths", []string{"/workspace/repo/.git"})
	w.End()
	w.String("argumentsDigest", "sha256:b4354fc70f06a7e5cc2d2e4b8ab5f8c0e0d1f2a3b4c5d6e7f8091a2b3c4d5e6f")
	w.String("call", f.call)
	w.String("class", "git_destructive")
	w.String("decision", "deny")
	w.Object("facts")
	w.String("accumulatedCost", "1.25")
	w.Int("earlierAttempts", 3)
	w.Bool("humanApproved", false)
	w.Bool("readOnlyPlan", false)
	w.Int("repeats", 1)
	w.Bool("requireCheckpoints", false)
	w.String("totalCost", "40.1")
	w.End()
	w.String("message", "[ToolSafetyViolation] git push --force is not allowed")
	w.String("mode", "Enforce")
	w.String("namespace", "team-a")
	w.String("plan", "plan-a")
	w.String("reason", "ToolSafetyViolation")
	w.String("requester", "system:serviceaccount:team-a:coder")
	w.String("ruleId", "damage-control:git-push-force")
	w.String("sandboxId", "sbx-1234")
	w.String("snapshotHash", "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
	w.String("step", "build")
	w.String("tool", "shell")
	w.String("uid", "0b9f6a2e-8c1d-4f5e-9a7b-3c2d1e0f4a5b")
}

// richFixedDecision is richDecision(i) as the benchmark's fixed record.
func richFixedDecision(i int) Record {
	return Record{Kind: "decision", Fixed: richFixed{call: fmt.Sprintf("c-%d", i)}}
}

// The fixed writer gives exactly the map encoder's bytes for every case the map encoder's paths
// are held to, under several redaction settings, and writes them itself unless a key is long
// enough to be cut or a value is not UTF-8.
func TestFieldWriterMatchesTheMapEncoder(t *testing.T) {
	noValues := newRedactor(nil, 16)
	noValues.values = false
	reds := []redactor{newRedactor(nil, DefaultMaxStringLength), newRedactor([]string{"sandbox", "tool", "é"}, 64), internalRedactor, noValues}
	for i, fields := range directEncoderCases() {
		for _, r := range reds {
			f := &mapFixed{m: fields}
			got, err := r.encodeFixed(f)
			want, werr := r.encode(fields)
			if err != nil || werr != nil || !bytes.Equal(got, want) {
				t.Fatalf("case %d, max %d:\nwritten %s (%v)\nmap     %s (%v)", i, r.max, got, err, want, werr)
			}
			if _, direct := r.encodeDirect(fields); f.fellBack && direct {
				t.Errorf("case %d, max %d: the writer gave up where the direct map encoder did not", i, r.max)
			}
		}
	}
	r := newRedactor(nil, DefaultMaxStringLength)
	f := richFixed{call: "c-1"}
	got, err := r.encodeFixed(f)
	if want, werr := r.encode(f.Fields()); err != nil || werr != nil || !bytes.Equal(got, want) {
		t.Fatalf("richFixed:\nwritten %s (%v)\nmap     %s (%v)", got, err, want, werr)
	}
}

// brokenFixed writes its members wrongly in one of several ways; Fields is what it means.
type brokenFixed struct {
	write    func(w *FieldWriter)
	fellBack bool
}

func (b *brokenFixed) WriteFields(w *FieldWriter) { b.write(w) }
func (b *brokenFixed) Fields() map[string]any {
	b.fellBack = true
	return map[string]any{"a": "x", "b": map[string]any{"c": int64(1)}}
}

// A writer that breaks canonical form (keys repeated or out of order, objects not closed or
// closed twice) never reaches the volume as written: the journal encodes its map instead.
func TestFieldWriterFallsBackOnBrokenWriters(t *testing.T) {
	r := newRedactor(nil, DefaultMaxStringLength)
	want, _ := r.encode((&brokenFixed{}).Fields())
	for name, write := range map[string]func(w *FieldWriter){
		"unsorted":       func(w *FieldWriter) { w.Object("b"); w.Int("c", 1); w.End(); w.String("a", "x") },
		"repeated":       func(w *FieldWriter) { w.String("a", "x"); w.String("a", "x") },
		"unsorted below": func(w *FieldWriter) { w.String("a", "x"); w.Object("b"); w.Int("d", 1); w.Int("c", 1); w.End() },
		"not closed":     func(w *FieldWriter) { w.String("a", "x"); w.Object("b"); w.Int("c", 1) },
		"closed twice":   func(w *FieldWriter) { w.String("a", "x"); w.Object("b"); w.Int("c", 1); w.End(); w.End() },
		"too deep": func(w *FieldWriter) {
			for range maxFixedDepth + 1 {
				w.Object("z")
			}
		},
		"float": func(w *FieldWriter) { w.Value("a", 1.5) },
		"bad number under a secret key": func(w *FieldWriter) {
			w.Value("password", json.Number("1x"))
		},
		"bad UTF-8 inside a redacted object": func(w *FieldWriter) { w.Object("token"); w.String("x", "\xff"); w.End() },
	} {
		b := &brokenFixed{write: write}
		got, err := r.encodeFixed(b)
		if err != nil || !b.fellBack || !bytes.Equal(got, want) {
			t.Errorf("%s: wrote %s (fell back %v, %v), want the map's %s", name, got, b.fellBack, err, want)
		}
	}
}

// Append takes Fields or Fixed, and refuses a record with both rather than choose.
func TestAppendRefusesFieldsAndFixed(t *testing.T) {
	j, err := Open(Config{Dir: t.TempDir(), Writer: "w"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = j.Close() }()
	_, err = j.Append(t.Context(), Record{Kind: "decision", Fields: map[string]any{"a": 1}, Fixed: richFixed{}})
	if err == nil || !strings.Contains(err.Error(), "not both") {
		t.Fatalf("Append with Fields and Fixed: %v", err)
	}
	if _, err := j.Append(t.Context(), richFixedDecision(1)); err != nil {
		t.Fatal(err)
	}
	p := records(t, chainDirOf(j.cfg))
	if got := p[len(p)-1]; got.Kind != "decision" || got.str("call") != "c-1" {
		t.Errorf("fixed record read back as %+v", got.decodeFields())
	}
}

// FuzzFieldWriterMatchesTheMapEncoder: any JSON object written member by member through a
// FieldWriter gives the map encoder's bytes, under any string limit and redaction settings.
func FuzzFieldWriterMatchesTheMapEncoder(f *testing.F) {
	seedObjects(f)
	f.Fuzz(func(t *testing.T, in []byte, maxLen uint8, values bool) {
		fields, redactors, ok := fuzzFields(in, maxLen, values)
		if !ok {
			return
		}
		for _, r := range redactors {
			got, err := r.encodeFixed(&mapFixed{m: fields})
			want, werr := r.encode(fields)
			if (err == nil) != (werr == nil) || !bytes.Equal(got, want) {
				t.Fatalf("fields %q:\nwritten %s (%v)\nmap     %s (%v)", fields, got, err, want, werr)
			}
		}
	})
}

// The writer remembers which keys are secret per key set: a journal reconfigured to redact
// "plan" redacts it from its next fixed record on, and one without that key does not.
func TestFieldWriterKeyMemoryFollowsTheKeySet(t *testing.T) {
	plain, strict := newRedactor(nil, DefaultMaxStringLength), newRedactor([]string{"plan"}, DefaultMaxStringLength)
	f := richFixed{call: "c-1"}
	for range 3 {
		for _, r := range []redactor{plain, strict, plain} {
			got, err := r.encodeFixed(f)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := r.encode(f.Fields())
			if !bytes.Equal(got, want) {
				t.Fatalf("keys %v:\nwritten %s\nmap     %s", r.keys, got, want)
			}
			if redacted := bytes.Contains(got, []byte(`"plan":"`+Redacted+`"`)); redacted != (len(r.keys) > len(defaultRedactKeys)) {
				t.Fatalf("keys %v: plan redacted %v in %s", r.keys, redacted, got)
			}
		}
	}
}
