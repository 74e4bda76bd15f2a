package ledger

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A signed head is a writer's statement, under the operator's Ed25519 key, that its chain held
// the record Seq with hash Hash at SignedAt. The hash covers every record before it, so one
// signature anchors the whole chain up to Seq. The journal signs each sealed segment's seal
// (stored beside the segment as <segment>.sig) and, every SignEvery, its live head (head.sig);
// the operator publishes the newest signed head per writer outside the volume (AuditLedger
// status). A forger who can write the volume but has no key can truncate, re-hash and delete,
// but cannot produce signatures that verify: that is what turns the chain into evidence.

// DefaultSignEvery is how often the live head is signed when Config.SignEvery is zero.
const DefaultSignEvery = 5 * time.Second

// headSigFile holds the newest signed live head; sigExt names a sealed segment's signature.
const (
	headSigFile = "head.sig"
	sigExt      = ".sig"
	// signContext separates these signatures from anything else the key might ever sign.
	signContext = "toolgate.dev/ledger-head/v1"
)

// Errors a signature check wraps.
var (
	// ErrForeignKey: the signature names a key other than the one verify was given.
	ErrForeignKey = errors.New("signed by a foreign key")
	// ErrBadSignature: the signature does not verify under the key it names.
	ErrBadSignature = errors.New("signature does not verify")
)

// SignedHead is a signed statement of a chain's newest record.
type SignedHead struct {
	Writer string `json:"writer"`
	Seq    uint64 `json:"seq"`
	Hash   string `json:"hash"`
	// Segment is the segment file (without .gz) that holds Seq.
	Segment  string    `json:"segment"`
	SignedAt time.Time `json:"signedAt"`
	// KeyID is KeyID of the public key that verifies Signature.
	KeyID string `json:"keyID"`
	// Signature is the base64 Ed25519 signature over the fields above.
	Signature string `json:"signature"`
	// NotOnChainSince, not signed, is when the writer found that its volume no longer held this
	// head (the AuditLedger entry's notOnChainSince): verify then reports the chain broken, even
	// where retention has since deleted what showed it.
	NotOnChainSince time.Time `json:"notOnChainSince,omitzero"`
}

// KeyID names a public key: the first 16 hex digits of its sha256.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:8])
}

// payload is what is signed: every field but the signature, newline-separated after a context
// string, so no two different heads share a payload.
func (h SignedHead) payload() []byte {
	b := make([]byte, 0, 256)
	for _, s := range []string{signContext, h.Writer, strconv.FormatUint(h.Seq, 10), h.Hash, h.Segment,
		h.SignedAt.UTC().Format(time.RFC3339Nano), h.KeyID} {
		b = append(b, s...)
		b = append(b, '\n')
	}
	return b
}

// SignHead signs h (its KeyID and Signature are set from key). SignedAt is kept to the second,
// as Kubernetes stores times, so a head published in a status still verifies.
func SignHead(key ed25519.PrivateKey, h SignedHead) SignedHead {
	h.SignedAt = h.SignedAt.UTC().Truncate(time.Second)
	h.KeyID = KeyID(key.Public().(ed25519.PublicKey))
	h.Signature = base64.StdEncoding.EncodeToString(ed25519.Sign(key, h.payload()))
	return h
}

// VerifyAny checks h's signature under whichever of keys it names (several keys: the ledger
// spans a key rotation). It wraps ErrForeignKey when h names none of them, ErrBadSignature when
// the signature is wrong for its content.
func (h SignedHead) VerifyAny(keys []ed25519.PublicKey) error {
	ids := make([]string, 0, len(keys))
	for _, k := range keys {
		if KeyID(k) == h.KeyID {
			return h.Verify(k)
		}
		ids = append(ids, KeyID(k))
	}
	if len(keys) == 1 {
		return h.Verify(keys[0])
	}
	return fmt.Errorf("%w: key %s, none of the given keys %s", ErrForeignKey, orNone(h.KeyID), strings.Join(ids, ", "))
}

// Verify checks h's signature under pub. It wraps ErrForeignKey when h names another key and
// ErrBadSignature when the signature is wrong for its content.
func (h SignedHead) Verify(pub ed25519.PublicKey) error {
	if want := KeyID(pub); h.KeyID != want {
		return fmt.Errorf("%w: key %s, not the given key %s", ErrForeignKey, orNone(h.KeyID), want)
	}
	sig, err := base64.StdEncoding.DecodeString(h.Signature)
	if err != nil || !ed25519.Verify(pub, h.payload(), sig) {
		return fmt.Errorf("%w: the signed head of writer %s at seq %d was altered or forged", ErrBadSignature, h.Writer, h.Seq)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// writeSignature stores a signed head in dir/name atomically (temporary file, fsync, rename),
// so a reader never sees half a signature.
func writeSignature(dir, name string, h SignedHead) error {
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, name+".tmp")
	f, err := openNoFollow(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("ledger: writing signature %s: %w", name, err)
	}
	return nil
}

// readSignature reads a signed head; ok is false when the file does not exist.
func readSignature(path string) (h SignedHead, ok bool, err error) {
	b, err := readSmallFile(path)
	if os.IsNotExist(err) {
		return SignedHead{}, false, nil
	}
	if err != nil {
		return SignedHead{}, false, err
	}
	if err := json.Unmarshal(b, &h); err != nil {
		return SignedHead{}, true, fmt.Errorf("%s: unreadable signature: %w", filepath.Base(path), err)
	}
	return h, true, nil
}

// SignHead signs the chain's newest durable record now, stores it in head.sig and returns it.
// The journal calls it every SignEvery and on Close; the operator publishes the result. Without
// a signing key, or before the first record, ok is false. An unchanged head is not signed again.
func (j *Journal) SignHead() (h SignedHead, ok bool, err error) {
	if j.cfg.SigningKey == nil {
		return SignedHead{}, false, nil
	}
	j.signMu.Lock()
	defer j.signMu.Unlock()
	j.smu.Lock()
	pos, seg := j.stats.pos, j.stats.segment
	j.smu.Unlock()
	if pos.seq == 0 {
		return SignedHead{}, false, nil
	}
	if last := j.signed.Load(); last != nil && last.Seq == pos.seq && last.Hash == pos.hash {
		return *last, true, nil
	}
	h = SignHead(j.cfg.SigningKey, SignedHead{Writer: j.cfg.Writer, Seq: pos.seq, Hash: pos.hash, Segment: seg, SignedAt: j.cfg.Clock.Now()})
	// The published copy is the anchor; head.sig on the volume is a convenience a forger can
	// delete but not forge, so failing to write it does not withhold the signature.
	err = writeSignature(j.dir, headSigFile, h)
	j.signed.Store(&h)
	return h, true, err
}

// LastSignedHead returns the newest head SignHead signed, without signing.
func (j *Journal) LastSignedHead() (SignedHead, bool) {
	if h := j.signed.Load(); h != nil {
		return *h, true
	}
	return SignedHead{}, false
}

// signLoop signs the live head every SignEvery until the journal closes.
func (j *Journal) signLoop() {
	defer close(j.signExited)
	t := time.NewTicker(j.cfg.SignEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			_, _, _ = j.SignHead() // head.sig is best effort; the next tick retries
		case <-j.quit:
			return
		}
	}
}

// signSeal signs a seal record before it is written, so a sealed segment never lacks its
// signature: a crash after the signature and before the seal leaves a signature for an unsealed
// segment, which verify ignores and the next seal overwrites.
func (j *Journal) signSeal(segment string, pos position, now time.Time) error {
	if j.cfg.SigningKey == nil {
		return nil
	}
	h := SignHead(j.cfg.SigningKey, SignedHead{Writer: j.cfg.Writer, Seq: pos.seq, Hash: pos.hash, Segment: segment, SignedAt: now})
	if err := writeSignature(j.dir, segment+sigExt, h); err != nil {
		return err
	}
	return syncDir(j.dir)
}
