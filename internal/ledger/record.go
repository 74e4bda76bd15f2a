package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Record is what a caller appends. The journal fills the sequence number, the time (when zero)
// and the hashes; Fields are redacted and truncated before they are written.
type Record struct {
	// Kind says what the record is about: "decision", "completion", "loss", ...
	Kind string
	// Time is when it happened; zero means now.
	Time time.Time
	// Fields are the record's content: decision, reason, message, plan, namespace, call, tool,
	// requester, snapshotHash, mode, dryRun, ... Any value encoding/json can encode.
	Fields map[string]any
	// Fixed, instead of Fields, is content of a fixed shape that writes itself (FixedFields):
	// the same bytes as its Fields map, without building and sorting the map.
	Fixed FixedFields
}

// Receipt identifies a durable record: its place in the writer's chain and its hash.
type Receipt struct {
	Seq  uint64
	Hash string
	// Bytes is the length of the record's line in the segment, newline included.
	Bytes int
}

// Kinds the journal writes itself. Callers may not append them, because the verifier trusts
// them: headers and seals link segments, retention records excuse deleted ones.
const (
	KindSegment   = "segment"
	KindSeal      = "seal"
	KindGap       = "gap"
	KindRetention = "retention"
)

// Field names of the journal's own records, written by the journal and read by the verifier.
const (
	fieldSegment     = "segment"
	fieldPrevSegment = "prevSegment"
	fieldReason      = "reason"
	fieldRecords     = "records"
	fieldBytes       = "bytes"
	fieldDigest      = "digest"
)

// Reasons a gap record gives.
const (
	// GapTornTail: the end of the live segment was an incomplete write (a crash mid-write); the
	// bytes were cut off and kept beside the segment.
	GapTornTail = "torn tail"
	// GapRecordsMissing: the head file says records were durable that the chain no longer holds
	// (storage lost them, or someone cut the segment at a line boundary).
	GapRecordsMissing = "acknowledged records missing"
	// GapHeadMismatch: the head file names a different hash for a record than the chain holds.
	GapHeadMismatch = "head file disagrees with the chain"
	// GapHeadUnreadable: the head file could not be read.
	GapHeadUnreadable = "head file unreadable"
)

func reservedKind(k string) bool {
	return k == KindSegment || k == KindSeal || k == KindRetention
}

// genesisHash is the prevHash of a chain's first record.
var genesisHash = hex.EncodeToString(make([]byte, sha256.Size))

const timeLayout = time.RFC3339Nano

// position is a place in a chain: the last record's sequence number and hash.
type position struct {
	seq  uint64
	hash string
}

func genesis() position { return position{seq: 0, hash: genesisHash} }

// entry is a record as stored: the wire form the verifier decodes. Top-level keys come in this
// fixed order; keys inside fields are sorted.
type entry struct {
	Seq      uint64         `json:"seq"`
	Time     string         `json:"time"`
	Writer   string         `json:"writer"`
	Kind     string         `json:"kind"`
	Fields   map[string]any `json:"fields"`
	PrevHash string         `json:"prevHash"`
}

// hashSuffix is what follows the body of a line: `,"hash":"<64 hex>"}`.
const (
	hashPrefix    = `,"hash":"`
	hashSuffixLen = len(hashPrefix) + 2*sha256.Size + len(`"}`)
)

// appendBody is the canonical encoding of a record without its hash: the bytes the hash is
// taken over, as appendLine writes them. fields must already be canonical JSON.
func appendBody(seq uint64, t, writer, kind string, fields []byte, prevHash string) []byte {
	dst := appendSeq(nil, seq)
	dst = appendString(dst, t)
	return appendBodyRest(dst, writer, kind, fields, prevHash)
}

// appendSeq starts a record's body, up to the value of "time".
func appendSeq(dst []byte, seq uint64) []byte {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendUint(dst, seq, 10)
	return append(dst, `,"time":`...)
}

// appendBodyRest is the body after the time.
func appendBodyRest(dst []byte, writer, kind string, fields []byte, prevHash string) []byte {
	dst = append(dst, `,"writer":`...)
	dst = appendString(dst, writer)
	dst = append(dst, `,"kind":`...)
	dst = appendString(dst, kind)
	dst = append(dst, `,"fields":`...)
	dst = append(dst, fields...)
	dst = append(dst, `,"prevHash":`...)
	dst = appendString(dst, prevHash)
	return append(dst, '}')
}

// appendLine appends one complete record line (body, hash, newline) chained after prev and
// returns the new position. The committer calls it for every record: the time is formatted and
// the hash hex-encoded straight into dst (the body is appendBody's, as the verifier rebuilds it;
// a formatted time has nothing to escape).
func appendLine(dst []byte, prev position, t time.Time, writer, kind string, fields []byte) ([]byte, position) {
	start := len(dst)
	dst = appendSeq(dst, prev.seq+1)
	dst = append(dst, '"')
	dst = t.UTC().AppendFormat(dst, timeLayout)
	dst = append(dst, '"')
	dst = appendBodyRest(dst, writer, kind, fields, prev.hash)
	sum := sha256.Sum256(dst[start:])
	dst = dst[:len(dst)-1] // reopen the object to add the hash as its last key
	dst = append(dst, hashPrefix...)
	hstart := len(dst)
	dst = hex.AppendEncode(dst, sum[:])
	h := string(dst[hstart:])
	dst = append(dst, '"', '}', '\n')
	return dst, position{seq: prev.seq + 1, hash: h}
}

// parsed is one decoded, self-consistent line.
type parsed struct {
	entry
	hash string
	// rawFields is the canonical JSON of the fields. Fields is decoded from it eagerly only for
	// the journal's own kinds, which the verifier reads; other records' fields are decoded on
	// demand, so verifying a decision costs no map allocation.
	rawFields []byte
}

// Errors parseLine distinguishes, so the verifier can say what is wrong.
var (
	errNotRecord    = errors.New("not a ledger record")
	errHashMismatch = errors.New("hash mismatch")
)

// parseLine decodes one line (without its newline) and checks that its hash is the sha256 of
// its body and that it is in canonical form: exactly the bytes appendLine writes for it. Any
// changed byte fails one of those checks. The canonical form is checked by a scanner rather than
// by decoding and re-encoding (TestParseLineMatchesReference and FuzzParseLineMatchesReference
// hold it to that definition), because it is most of the verifier's work.
func parseLine(line []byte) (parsed, error) {
	n := len(line)
	if n < hashSuffixLen+2 || line[0] != '{' || !bytes.Equal(line[n-hashSuffixLen:n-hashSuffixLen+len(hashPrefix)], []byte(hashPrefix)) ||
		line[n-2] != '"' || line[n-1] != '}' {
		return parsed{}, fmt.Errorf("%w: no trailing hash", errNotRecord)
	}
	stored := string(line[n-hashSuffixLen+len(hashPrefix) : n-2])
	if !isHex(stored) {
		return parsed{}, fmt.Errorf("%w: hash is not lowercase hex", errNotRecord)
	}
	prefix := line[:n-hashSuffixLen] // the body is prefix + "}"
	h := sha256.New()
	h.Write(prefix)
	h.Write([]byte{'}'})
	var sum [sha256.Size]byte
	if computed := hex.EncodeToString(h.Sum(sum[:0])); computed != stored {
		return parsed{}, fmt.Errorf("%w: stored %s, computed %s", errHashMismatch, short(stored), short(computed))
	}
	p, err := scanBody(prefix)
	if err != nil {
		return parsed{}, fmt.Errorf("%w: %w", errNotRecord, err)
	}
	p.hash = stored
	return p, nil
}

// scanBody reads the canonical body (without its closing brace) of a record.
func scanBody(prefix []byte) (parsed, error) {
	s := &canonScanner{b: prefix}
	var p parsed
	s.lit(`{"seq":`)
	p.Seq = s.uint()
	s.lit(`,"time":`)
	p.Time = s.str()
	s.lit(`,"writer":`)
	p.Writer = s.str()
	s.lit(`,"kind":`)
	p.Kind = s.str()
	s.lit(`,"fields":`)
	start := s.i
	if s.err == nil && s.peek() != '{' {
		s.fail("fields are not an object")
	}
	s.value(1)
	p.rawFields = prefix[start:s.i]
	s.lit(`,"prevHash":`)
	p.PrevHash = s.str()
	if s.err == nil && s.i != len(prefix) {
		s.fail("data after prevHash")
	}
	if s.err != nil {
		return parsed{}, s.err
	}
	if t, err := time.Parse(timeLayout, p.Time); err != nil || t.UTC().Format(timeLayout) != p.Time {
		return parsed{}, fmt.Errorf("time %q is not canonical RFC 3339 UTC", p.Time)
	}
	if !isHex(p.PrevHash) {
		return parsed{}, errors.New("prevHash is not a sha256")
	}
	switch p.Kind {
	case KindSegment, KindSeal, KindGap, KindRetention:
		p.Fields = p.decodeFields()
	}
	return p, nil
}

func (p parsed) decodeFields() map[string]any {
	if p.Fields != nil {
		return p.Fields
	}
	dec := json.NewDecoder(bytes.NewReader(p.rawFields))
	dec.UseNumber()
	var m map[string]any
	_ = dec.Decode(&m) // the scanner accepted it, so it decodes
	return m
}

func (p parsed) position() position { return position{seq: p.Seq, hash: p.hash} }

func (p parsed) time() time.Time {
	t, _ := time.Parse(timeLayout, p.Time)
	return t
}

// str returns a string field, or "".
func (p parsed) str(key string) string {
	s, _ := p.decodeFields()[key].(string)
	return s
}

// num returns an unsigned integer field, or 0.
func (p parsed) num(key string) uint64 {
	n, _ := p.decodeFields()[key].(json.Number)
	u, _ := strconv.ParseUint(string(n), 10, 64)
	return u
}

func isHex(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}
