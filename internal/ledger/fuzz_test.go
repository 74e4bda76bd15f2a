package ledger

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseLine: whatever bytes a segment holds, parsing never panics, and a line it accepts is
// exactly what the writer would produce for that record: one encoding per record, so no changed
// byte can keep a valid hash.
func FuzzParseLine(f *testing.F) {
	fields, _ := newRedactor(nil, 1024).encode(map[string]any{"tool": "shell", "n": 1.5, "l": []any{"a", nil, true}})
	good, _ := appendLine(nil, genesis(), day0, "w", "decision", fields)
	f.Add(good[:len(good)-1])
	f.Add([]byte(`{"seq":1}`))
	f.Add([]byte(strings.Repeat("{", 100)))
	f.Fuzz(func(t *testing.T, line []byte) {
		p, err := parseLine(line)
		if err != nil {
			return
		}
		enc, err := appendCanonical(nil, p.decodeFields())
		if err != nil {
			t.Fatalf("accepted fields that do not re-encode: %v", err)
		}
		again, _ := appendLine(nil, position{seq: p.Seq - 1, hash: p.PrevHash}, p.time(), p.Writer, p.Kind, enc)
		if !bytes.Equal(again[:len(again)-1], line) {
			t.Fatalf("accepted a line the writer would not produce:\n%s\n%s", line, again)
		}
	})
}

// FuzzEncodeFields: any JSON object a caller passes is stored as valid canonical JSON, with
// every string bounded and secret-looking keys hidden.
func FuzzEncodeFields(f *testing.F) {
	f.Add([]byte(`{"password":"x","nested":{"Token":[1,2,{"authz":"y"}]},"s":"` + strings.Repeat("é", 40) + `"}`))
	f.Add([]byte(`{"":"","\u0000":"\n"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		var m map[string]any
		if json.Unmarshal(in, &m) != nil {
			return
		}
		r := newRedactor([]string{"extra"}, 16)
		out, err := r.encode(m)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber()
		var tree any
		if err := dec.Decode(&tree); err != nil {
			t.Fatalf("not valid JSON: %s: %v", out, err)
		}
		if again, _ := appendCanonical(nil, tree); !bytes.Equal(again, out) {
			t.Fatalf("not canonical:\n%s\n%s", out, again)
		}
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				if len(x) > 16+len("…[truncated 9999999999 bytes]") || !utf8.ValidString(x) {
					t.Fatalf("string not bounded or not UTF-8: %q", x)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for k, e := range x {
					walk(k)
					if r.secret(k) && e != Redacted {
						t.Fatalf("key %q not redacted", k)
					}
					walk(e)
				}
			}
		}
		walk(tree)
	})
}

// FuzzVerify: Verify reads whatever is on the volume without panicking, and a segment it
// accepts is made of records that parse.
func FuzzVerify(f *testing.F) {
	cfg := Config{Dir: f.TempDir(), Writer: "w", Clock: newFakeClock(day0)}
	j, err := Open(cfg)
	if err != nil {
		f.Fatal(err)
	}
	appendN(f, j, 3)
	_ = j.Close()
	seg := filepath.Join(cfg.Dir, "w", "2026-11-30.00000001.jsonl")
	valid, err := os.ReadFile(seg)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(valid) // a live segment: its records and the preallocated zeros after them
	f.Add(valid[:len(valid)/2])
	f.Add(valid[:dataEnd(valid)])
	// One directory per fuzzing process, rewritten for each input: executions within a process
	// are sequential, and a TempDir per input would make file creation the bulk of the work.
	dir := f.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "w"), 0o750); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		if err := os.WriteFile(filepath.Join(dir, "w", "2026-11-30.00000001.jsonl"), content, 0o640); err != nil {
			t.Fatal(err)
		}
		rep, err := Verify(dir)
		if err != nil {
			return
		}
		data := content[:dataEnd(content)] // the unwritten (zero) space at the end is not data
		for line := range bytes.SplitSeq(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			if len(data) > 0 {
				if _, perr := parseLine(line); perr != nil {
					t.Fatalf("Verify passed (%s) a segment with a bad line: %v", rep.Summary(), perr)
				}
			}
		}
	})
}
