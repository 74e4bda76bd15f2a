package ledger

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// signedFixture is a tamper fixture whose journal signs, with the head it published last.
type signedFixture struct {
	tamperFixture
	pub  ed25519.PublicKey
	head SignedHead
}

func testKey(seed byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
}

func newSignedFixture(t *testing.T) signedFixture {
	t.Helper()
	key := testKey(1)
	cfg := testConfig(t, newFakeClock(day0))
	cfg.MaxSegmentBytes = 2048
	cfg.Compress = true
	cfg.SigningKey = key
	j := mustOpen(t, cfg)
	appendN(t, j, 20)
	j.cfg.MaxSegmentBytes = 1 << 30
	if _, err := j.Maintain(day0); err != nil {
		t.Fatal(err)
	}
	appendN(t, j, 15)
	head, ok, err := j.SignHead()
	if err != nil || !ok {
		t.Fatalf("SignHead: %v %v", ok, err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	f := signedFixture{tamperFixture: tamperFixture{dir: chainDirOf(cfg), root: cfg.Dir}, pub: key.Public().(ed25519.PublicKey), head: head}
	for _, name := range segmentFiles(t, f.dir) {
		if strings.HasSuffix(name, ".gz") {
			f.sealed = append(f.sealed, name)
		} else {
			f.live = name
		}
	}
	if len(f.sealed) < 3 || f.live == "" || len(f.lines(t, f.live)) < 12 {
		t.Fatalf("fixture: sealed %v live %q", f.sealed, f.live)
	}
	if rep, err := VerifyWith(f.root, f.anchors()); err != nil || len(rep.Limits) != 0 {
		t.Fatalf("the untouched fixture does not verify with its anchors: %v, limits %v\n%s", err, rep.Limits, dumpChains(rep))
	}
	return f
}

func (f signedFixture) anchors() VerifyOptions {
	return VerifyOptions{PublicKey: f.pub, Heads: []SignedHead{f.head}}
}

// setHead rewrites the head file as a forger who knows the format would, naming line's record.
func (f signedFixture) setHead(t *testing.T, segment string, line []byte) {
	t.Helper()
	p, err := parseLine(bytes.TrimSuffix(line, []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	h, err := openHead(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = h.close() }()
	if err := h.write(p.position(), segment); err != nil {
		t.Fatal(err)
	}
}

func (f signedFixture) remove(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := os.Remove(filepath.Join(f.dir, n)); err != nil {
			t.Fatal(err)
		}
	}
}

// forgeAll rewrites the whole chain as a forger with write access and no key would: the first
// decision record is altered, every record after it re-linked and re-hashed, every seal's
// digest recomputed, and the head file pointed at the new newest record. sign, when set,
// re-signs each seal with the forger's own key.
func (f signedFixture) forgeAll(t *testing.T, sign ed25519.PrivateKey) {
	t.Helper()
	prev := genesis()
	forged := false
	var last []byte
	files := append(append([]string{}, f.sealed...), f.live)
	for _, name := range files {
		in := f.lines(t, name)
		out := make([][]byte, 0, len(in))
		digest := sha256.New()
		var size int
		for _, line := range in {
			p, err := parseLine(bytes.TrimSuffix(line, []byte("\n")))
			if err != nil {
				t.Fatal(err)
			}
			fields := p.decodeFields()
			if !forged && p.Kind == "decision" {
				fields["decision"], forged = "deny", true
			}
			if p.Kind == KindSeal {
				fields[fieldDigest] = hex.EncodeToString(digest.Sum(nil))
				fields[fieldBytes] = json.Number(strconv.Itoa(size))
			}
			body := appendBody(p.Seq, p.Time, p.Writer, p.Kind, mustCanonical(t, fields), prev.hash)
			l := []byte(resign(string(body)) + "\n")
			np, err := parseLine(l[:len(l)-1])
			if err != nil {
				t.Fatal(err)
			}
			if p.Kind == KindSeal && sign != nil {
				seg := strings.TrimSuffix(name, gzipExt)
				if err := writeSignature(f.dir, seg+sigExt, SignHead(sign, SignedHead{Writer: p.Writer, Seq: np.Seq, Hash: np.hash, Segment: seg, SignedAt: day0})); err != nil {
					t.Fatal(err)
				}
			}
			digest.Write(l)
			size += len(l)
			prev = np.position()
			out = append(out, l)
			last = l
		}
		f.rewrite(t, name, out)
	}
	f.setHead(t, f.live, last)
	_ = os.Remove(filepath.Join(f.dir, headSigFile))
}

func TestVerifyWithAnchorsDetectsTampering(t *testing.T) {
	type want struct {
		file string
		line int // 0: any
		what string
	}
	// Each tamper is invisible to Verify without anchors (the report says what it cannot prove)
	// and caught with the public key and the published head.
	tests := []struct {
		name   string
		tamper func(t *testing.T, f signedFixture) want
	}{
		{"delete the last 10 records, head file rewritten, head.sig removed", func(t *testing.T, f signedFixture) want {
			l := f.lines(t, f.live)
			n := len(l) - 10
			f.rewrite(t, f.live, l[:n])
			f.setHead(t, f.live, l[n-1])
			f.remove(t, headSigFile)
			return want{f.live, n + 1, "records were cut from the end"}
		}},
		{"rewrite every hash and the head file", func(t *testing.T, f signedFixture) want {
			f.forgeAll(t, nil)
			return want{f.sealed[0], 1, "re-hashed"}
		}},
		{"rewrite every hash and re-sign with a foreign key", func(t *testing.T, f signedFixture) want {
			f.forgeAll(t, testKey(2))
			return want{f.sealed[0], 1, "foreign"}
		}},
		{"remove the newest sealed segment and the live one, head file rewritten", func(t *testing.T, f signedFixture) want {
			newest := f.sealed[len(f.sealed)-1]
			l := f.lines(t, f.sealed[len(f.sealed)-2])
			f.remove(t, newest, strings.TrimSuffix(newest, gzipExt)+sigExt, f.live, headSigFile)
			f.setHead(t, strings.TrimSuffix(f.sealed[len(f.sealed)-2], gzipExt), l[len(l)-1])
			return want{f.sealed[len(f.sealed)-2], len(l) + 1, "records were cut from the end"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newSignedFixture(t)
			w := tt.tamper(t, f)
			rep, err := Verify(f.root)
			if err != nil {
				t.Fatalf("without anchors this tamper should pass the chain checks, got %v", err)
			}
			if !strings.Contains(strings.Join(rep.Limits, "\n"), "no public key") || !strings.Contains(strings.Join(rep.Limits, "\n"), "no published heads") {
				t.Fatalf("without anchors the report must say what it cannot prove, limits %q", rep.Limits)
			}
			rep, err = VerifyWith(f.root, f.anchors())
			if !errors.Is(err, ErrBroken) {
				t.Fatalf("VerifyWith did not detect it: %v\n%s", err, dumpChains(rep))
			}
			b := rep.FirstBreak()
			if b.File != w.file || w.line != 0 && b.Line != w.line || !strings.Contains(b.What, w.what) {
				t.Fatalf("first break: %s\nwant file %s line %d containing %q", b, w.file, w.line, w.what)
			}
			t.Log(b)
		})
	}
}

func TestVerifyWithAnchorsSignatureFaults(t *testing.T) {
	tests := []struct {
		name   string
		opts   func(f signedFixture) VerifyOptions
		tamper func(t *testing.T, f signedFixture)
		file   func(f signedFixture) string
		what   string
	}{
		{"a sealed segment's signature removed", nil,
			func(t *testing.T, f signedFixture) { f.remove(t, strings.TrimSuffix(f.sealed[1], gzipExt)+sigExt) },
			func(f signedFixture) string { return f.sealed[1] }, "has no signature"},
		{"verified with another key", func(f signedFixture) VerifyOptions {
			return VerifyOptions{PublicKey: testKey(3).Public().(ed25519.PublicKey), Heads: []SignedHead{f.head}}
		}, nil, func(f signedFixture) string { return f.sealed[0] }, "foreign"},
		{"published head altered", func(f signedFixture) VerifyOptions {
			h := f.head
			h.Seq--
			return VerifyOptions{PublicKey: f.pub, Heads: []SignedHead{h}}
		}, nil, func(f signedFixture) string { return f.live }, "does not verify"},
		{"published head signed by a foreign key", func(f signedFixture) VerifyOptions {
			return VerifyOptions{PublicKey: f.pub, Heads: []SignedHead{SignHead(testKey(4), f.head)}}
		}, nil, func(f signedFixture) string { return f.live }, "foreign"},
		{"the writer's directory removed", nil,
			func(t *testing.T, f signedFixture) {
				if err := os.RemoveAll(f.dir); err != nil {
					t.Fatal(err)
				}
			}, func(f signedFixture) string { return f.head.Segment }, "the chain is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newSignedFixture(t)
			if tt.tamper != nil {
				tt.tamper(t, f)
			}
			o := f.anchors()
			if tt.opts != nil {
				o = tt.opts(f)
			}
			rep, err := VerifyWith(f.root, o)
			if !errors.Is(err, ErrBroken) {
				t.Fatalf("VerifyWith did not detect it: %v\n%s", err, dumpChains(rep))
			}
			if b := rep.FirstBreak(); b.File != tt.file(f) || !strings.Contains(b.What, tt.what) {
				t.Fatalf("first break: %s\nwant file %s containing %q", b, tt.file(f), tt.what)
			}
		})
	}
}

func TestSignedHeadRoundTrip(t *testing.T) {
	key := testKey(5)
	h := SignHead(key, SignedHead{Writer: "webhook-0", Seq: 7, Hash: strings.Repeat("a", 64), Segment: "2026-11-30.00000001.jsonl", SignedAt: day0})
	if err := h.Verify(key.Public().(ed25519.PublicKey)); err != nil {
		t.Fatal(err)
	}
	for name, alter := range map[string]func(*SignedHead){
		"seq":     func(h *SignedHead) { h.Seq++ },
		"hash":    func(h *SignedHead) { h.Hash = strings.Repeat("b", 64) },
		"writer":  func(h *SignedHead) { h.Writer = "webhook-1" },
		"segment": func(h *SignedHead) { h.Segment = "2026-11-30.00000002.jsonl" },
		"time":    func(h *SignedHead) { h.SignedAt = h.SignedAt.Add(time.Second) },
	} {
		bad := h
		alter(&bad)
		if err := bad.Verify(key.Public().(ed25519.PublicKey)); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s altered: Verify = %v, want ErrBadSignature", name, err)
		}
	}
}

func TestJournalSignsOnlyWithAKey(t *testing.T) {
	cfg := testConfig(t, newFakeClock(day0))
	j := mustOpen(t, cfg)
	appendN(t, j, 2)
	if _, ok, err := j.SignHead(); ok || err != nil {
		t.Fatalf("a journal without a key signed: %v %v", ok, err)
	}
	cfg.SigningKey = ed25519.PrivateKey([]byte("short"))
	cfg.Dir = t.TempDir()
	if _, err := Open(cfg); err == nil || !strings.Contains(err.Error(), "SigningKey") {
		t.Fatalf("Open with a malformed key: %v, want an error naming SigningKey", err)
	}
}

// Each anchor alone catches what it is for: the published head a full re-hash, head.sig on the
// volume (with the key) a truncation the forger did not clean up after.
func TestVerifyWithOneAnchor(t *testing.T) {
	t.Run("published head without the key catches a full re-hash", func(t *testing.T) {
		f := newSignedFixture(t)
		f.forgeAll(t, nil)
		rep, err := VerifyWith(f.root, VerifyOptions{Heads: []SignedHead{f.head}})
		if !errors.Is(err, ErrBroken) || !strings.Contains(rep.FirstBreak().What, "re-hashed") {
			t.Fatalf("not detected: %v", err)
		}
		if !strings.Contains(strings.Join(rep.Limits, "\n"), "without a public key") {
			t.Fatalf("limits %q do not say the heads are unchecked", rep.Limits)
		}
	})
	t.Run("head.sig with the key catches truncation", func(t *testing.T) {
		f := newSignedFixture(t)
		l := f.lines(t, f.live)
		f.rewrite(t, f.live, l[:len(l)-10])
		f.setHead(t, f.live, l[len(l)-11])
		rep, err := VerifyWith(f.root, VerifyOptions{PublicKey: f.pub})
		if !errors.Is(err, ErrBroken) || !strings.Contains(rep.FirstBreak().What, "head.sig") {
			t.Fatalf("not detected: %v\n%s", err, dumpChains(rep))
		}
	})
	t.Run("retention takes signatures with their segments", func(t *testing.T) {
		f := newSignedFixture(t)
		cfg := Config{Dir: f.root, Writer: "webhook-0", Clock: newFakeClock(day0), SigningKey: testKey(1), MaxSegments: 1, Compress: true}
		j := mustOpen(t, cfg)
		if _, err := j.Maintain(day0); err != nil {
			t.Fatal(err)
		}
		head, _, _ := j.SignHead()
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(f.dir, strings.TrimSuffix(f.sealed[0], gzipExt)+sigExt)); !os.IsNotExist(err) {
			t.Fatalf("the deleted segment's signature is still there: %v", err)
		}
		if rep, err := VerifyWith(f.root, VerifyOptions{PublicKey: f.pub, Heads: []SignedHead{head}}); err != nil {
			t.Fatalf("after retention: %v\n%s", err, dumpChains(rep))
		}
	})
}

func TestKeyEncodingRoundTrip(t *testing.T) {
	key := testKey(6)
	pemKey, err := EncodePrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParsePrivateKey(pemKey)
	if err != nil || !back.Equal(key) {
		t.Fatalf("private key round trip: %v", err)
	}
	pemPub, err := EncodePublicKey(key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]byte{pemPub, []byte(base64.StdEncoding.EncodeToString(key.Public().(ed25519.PublicKey)) + "\n")} {
		pub, err := ParsePublicKey(in)
		if err != nil || !pub.Equal(key.Public()) {
			t.Fatalf("public key %q: %v", in, err)
		}
	}
	for _, bad := range []string{"", "hello", string(pemKey)} {
		if _, err := ParsePublicKey([]byte(bad)); err == nil {
			t.Errorf("ParsePublicKey(%q) accepted it", bad)
		}
	}
}
