package ledger

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tamperFixture is a verified ledger with sealed gzip segments and a live segment.
type tamperFixture struct {
	dir    string   // the chain's directory
	root   string   // Config.Dir
	sealed []string // gzip segment files, oldest first
	live   string
}

func newTamperFixture(t *testing.T) tamperFixture {
	t.Helper()
	cfg := testConfig(t, newFakeClock(day0))
	cfg.MaxSegmentBytes = 2048
	cfg.Compress = true
	j := mustOpen(t, cfg)
	appendN(t, j, 20)
	// Stop rotating, so Maintain compresses every sealed segment and the live one takes the rest.
	j.cfg.MaxSegmentBytes = 1 << 30
	if _, err := j.Maintain(day0); err != nil {
		t.Fatal(err)
	}
	appendN(t, j, 3)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	f := tamperFixture{dir: chainDirOf(cfg), root: cfg.Dir}
	for _, name := range segmentFiles(t, f.dir) {
		if strings.HasSuffix(name, ".gz") {
			f.sealed = append(f.sealed, name)
		} else {
			f.live = name
		}
	}
	if len(f.sealed) < 3 || f.live == "" || len(f.lines(t, f.live)) < 4 {
		t.Fatalf("fixture: sealed %v live %q", f.sealed, f.live)
	}
	mustVerify(t, f.root)
	return f
}

// lines returns a segment's lines (decompressed), each with its newline.
func (f tamperFixture) lines(t *testing.T, name string) [][]byte {
	t.Helper()
	b := readFile(t, filepath.Join(f.dir, name))
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	lines := bytes.SplitAfter(b[:dataEnd(b)], []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// rewrite stores lines as the segment's content, recompressing a gzip segment as Maintain would.
func (f tamperFixture) rewrite(t *testing.T, name string, lines [][]byte) {
	t.Helper()
	b := bytes.Join(lines, nil)
	if strings.HasSuffix(name, ".gz") {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		_, _ = zw.Write(b)
		_ = zw.Close()
		b = z.Bytes()
	}
	writeFile(t, filepath.Join(f.dir, name), b)
}

func (f tamperFixture) edit(t *testing.T, name string, fn func([][]byte) [][]byte) {
	t.Helper()
	f.rewrite(t, name, fn(f.lines(t, name)))
}

func flipByte(line []byte) []byte {
	i := bytes.Index(line, []byte(`"call-`))
	if i < 0 {
		panic("no call field in " + string(line))
	}
	out := bytes.Clone(line)
	out[i+2] ^= 0x20 // "call" -> "cAll": one byte, still valid JSON
	return out
}

// resignFrom re-signs lines[from:] as a forger who recomputes hashes would: the record at from
// is altered, each later one is re-linked and re-hashed.
func resignFrom(t *testing.T, lines [][]byte, from int) [][]byte {
	t.Helper()
	out := make([][]byte, len(lines))
	copy(out, lines)
	var prev string
	for i := from; i < len(out); i++ {
		p, err := parseLine(bytes.TrimSuffix(out[i], []byte("\n")))
		if i == from {
			p, err = parseLine(bytes.TrimSuffix(lines[i], []byte("\n")))
			p.Fields = p.decodeFields()
			p.Fields["forged"] = "yes"
		}
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if i > from {
			p.PrevHash = prev
		}
		fields := mustCanonical(t, p.decodeFields())
		body := appendBody(p.Seq, p.Time, p.Writer, p.Kind, fields, p.PrevHash)
		line := resign(string(body))
		pp, err := parseLine([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		prev = pp.hash
		out[i] = []byte(line + "\n")
	}
	return out
}

func TestVerifyDetectsTampering(t *testing.T) {
	type want struct {
		file string
		line int // 0: any
		what string
	}
	tests := []struct {
		name   string
		tamper func(t *testing.T, f tamperFixture) want
	}{
		{"live: one byte changed", func(t *testing.T, f tamperFixture) want {
			f.edit(t, f.live, func(l [][]byte) [][]byte { l[2] = flipByte(l[2]); return l })
			return want{f.live, 3, "hash mismatch"}
		}},
		{"live: record deleted", func(t *testing.T, f tamperFixture) want {
			f.edit(t, f.live, func(l [][]byte) [][]byte { return append(l[:2], l[3:]...) })
			return want{f.live, 3, "records missing"}
		}},
		{"live: two records swapped", func(t *testing.T, f tamperFixture) want {
			f.edit(t, f.live, func(l [][]byte) [][]byte { l[2], l[3] = l[3], l[2]; return l })
			return want{f.live, 3, "seq jumps"}
		}},
		{"live: cut inside a record", func(t *testing.T, f tamperFixture) want {
			f.edit(t, f.live, func(l [][]byte) [][]byte { l[3] = l[3][:40]; return l[:4] })
			return want{f.live, 4, "unterminated final line"}
		}},
		{"live: cut at a line boundary", func(t *testing.T, f tamperFixture) want {
			n := len(f.lines(t, f.live))
			f.edit(t, f.live, func(l [][]byte) [][]byte { return l[:n-2] })
			return want{f.live, n - 1, "head file records seq"}
		}},
		{"live: one record altered and re-hashed", func(t *testing.T, f tamperFixture) want {
			f.edit(t, f.live, func(l [][]byte) [][]byte { return append(resignFrom(t, l[:3], 2), l[3:]...) })
			return want{f.live, 4, "prevHash"}
		}},
		{"live: the rest of the chain forged consistently", func(t *testing.T, f tamperFixture) want {
			n := len(f.lines(t, f.live))
			f.edit(t, f.live, func(l [][]byte) [][]byte { return resignFrom(t, l, 2) })
			return want{f.live, n, "rewritten"}
		}},
		{"sealed: one byte changed", func(t *testing.T, f tamperFixture) want {
			f.edit(t, f.sealed[1], func(l [][]byte) [][]byte { l[1] = flipByte(l[1]); return l })
			return want{f.sealed[1], 2, "hash mismatch"}
		}},
		{"sealed: record deleted", func(t *testing.T, f tamperFixture) want {
			f.edit(t, f.sealed[1], func(l [][]byte) [][]byte { return append(l[:1], l[2:]...) })
			return want{f.sealed[1], 2, "records missing"}
		}},
		{"sealed: two records swapped", func(t *testing.T, f tamperFixture) want {
			f.edit(t, f.sealed[1], func(l [][]byte) [][]byte { l[1], l[2] = l[2], l[1]; return l })
			return want{f.sealed[1], 2, "seq jumps"}
		}},
		{"sealed: seal and last record cut off", func(t *testing.T, f tamperFixture) want {
			n := len(f.lines(t, f.sealed[1]))
			f.edit(t, f.sealed[1], func(l [][]byte) [][]byte { return l[:n-2] })
			return want{f.sealed[1], n - 1, "does not end in its seal"}
		}},
		{"sealed: compressed file truncated", func(t *testing.T, f tamperFixture) want {
			p := filepath.Join(f.dir, f.sealed[1])
			b := readFile(t, p)
			writeFile(t, p, b[:len(b)*2/3])
			return want{f.sealed[1], 0, "unexpected EOF"}
		}},
		{"sealed: a second gzip member appended", func(t *testing.T, f tamperFixture) want {
			// gunzip and zcat read every member: an auditor reading the file with them would see
			// these records, so a verify that reads only the first member must not pass it.
			appendToFile(t, filepath.Join(f.dir, f.sealed[1]), gzipOf(t, f.lines(t, f.sealed[1])[1]))
			return want{f.sealed[1], 0, "after the end of its compressed data"}
		}},
		{"sealed: bytes after the compressed data", func(t *testing.T, f tamperFixture) want {
			appendToFile(t, filepath.Join(f.dir, f.sealed[1]), []byte("not gzip"))
			return want{f.sealed[1], 0, "after the end of its compressed data"}
		}},
		{"sealed: records re-hashed, seal digest left", func(t *testing.T, f tamperFixture) want {
			n := len(f.lines(t, f.sealed[1]))
			f.edit(t, f.sealed[1], func(l [][]byte) [][]byte { return resignFrom(t, l, 1) })
			return want{f.sealed[1], n, "seal"}
		}},
		{"a middle segment deleted", func(t *testing.T, f tamperFixture) want {
			if err := os.Remove(filepath.Join(f.dir, f.sealed[1])); err != nil {
				t.Fatal(err)
			}
			return want{f.sealed[2], 1, strings.TrimSuffix(f.sealed[1], ".gz") + " is missing"}
		}},
		{"the oldest segment deleted without retention", func(t *testing.T, f tamperFixture) want {
			if err := os.Remove(filepath.Join(f.dir, f.sealed[0])); err != nil {
				t.Fatal(err)
			}
			return want{f.sealed[1], 1, "no retention record deleted it"}
		}},
		{"the live segment deleted", func(t *testing.T, f tamperFixture) want {
			if err := os.Remove(filepath.Join(f.dir, f.live)); err != nil {
				t.Fatal(err)
			}
			return want{f.sealed[len(f.sealed)-1], 0, "head file records seq"}
		}},
		{"a segment renamed", func(t *testing.T, f tamperFixture) want {
			to := strings.Replace(f.sealed[1], "2026-11-30", "2026-11-29", 1)
			if err := os.Rename(filepath.Join(f.dir, f.sealed[1]), filepath.Join(f.dir, to)); err != nil {
				t.Fatal(err)
			}
			return want{to, 1, "the header names segment"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTamperFixture(t)
			w := tt.tamper(t, f)
			rep, err := Verify(f.root)
			if !errors.Is(err, ErrBroken) || rep.OK() {
				t.Fatalf("Verify did not detect it: err %v\n%s", err, dumpChains(rep))
			}
			b := rep.FirstBreak()
			if b.File != w.file || w.line != 0 && b.Line != w.line || !strings.Contains(b.What, w.what) {
				t.Fatalf("first break: %s\nwant file %s line %d containing %q", b, w.file, w.line, w.what)
			}
			t.Log(b)
		})
	}
}

// gzipOf is b as one gzip member.
func gzipOf(t *testing.T, b []byte) []byte {
	t.Helper()
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Bytes()
}

func appendToFile(t *testing.T, path string, b []byte) {
	t.Helper()
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
}
