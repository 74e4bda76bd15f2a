package ledger

import (
	"cmp"
	"crypto/ed25519"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"
)

// VerifyOptions are the anchors a verifier holds outside the volume.
type VerifyOptions struct {
	// PublicKey is the operator's Ed25519 public key. With it every sealed segment must carry a
	// valid signature of its seal, and every signed head (published or head.sig) must verify.
	PublicKey ed25519.PublicKey
	// PublicKeys are more of the operator's public keys, with PublicKey: after a key rotation the
	// ledger holds seals and heads signed by each, and every signature must verify under the key
	// it names, which must be one of them.
	PublicKeys []ed25519.PublicKey
	// Heads are the signed heads the operator published (AuditLedger status), at most one per
	// writer. Each writer's chain must contain the record its head names, with that hash.
	Heads []SignedHead
}

// What verification cannot prove without the anchors. Verify reports these in Report.Limits.
const (
	LimitNoKey = "no public key: signatures are not checked, so a forger who rewrites every record, " +
		"hash, seal and the head file consistently is not detected"
	LimitNoHeads = "no published heads: records cut from the end of a chain (with the head file rewritten " +
		"to match) and newest segments deleted are detected only by a newer head.sig left on the volume, " +
		"not when it was removed or replaced by a head.sig the writer signed earlier"
	LimitHeadsUnsigned = "published heads are compared without a public key: they prove truncation and " +
		"re-hashing only as far as the place they were read from is trusted"
)

// keys are every public key given, PublicKey first.
func (o VerifyOptions) keys() []ed25519.PublicKey {
	var keys []ed25519.PublicKey
	if o.PublicKey != nil {
		keys = append(keys, o.PublicKey)
	}
	return append(keys, o.PublicKeys...)
}

func (o VerifyOptions) limits() []string {
	var l []string
	if len(o.keys()) == 0 {
		l = append(l, LimitNoKey)
		if len(o.Heads) > 0 {
			l = append(l, LimitHeadsUnsigned)
		}
	}
	if len(o.Heads) == 0 {
		l = append(l, LimitNoHeads)
	}
	return l
}

// missingChains reports a broken chain for every published head whose writer has no chain.
func (o VerifyOptions) missingChains(seen map[string]bool) []ChainReport {
	var out []ChainReport
	for _, h := range o.Heads {
		if seen[h.Writer] {
			continue
		}
		seen[h.Writer] = true
		out = append(out, ChainReport{Writer: h.Writer, Broken: &Break{Writer: h.Writer, File: h.Segment, Seq: 1,
			What: fmt.Sprintf("the chain is missing, but its published head (signed %s) records seq %d: the writer's directory was removed",
				h.SignedAt.UTC().Format(time.RFC3339), h.Seq)}})
	}
	slices.SortFunc(out, func(a, b ChainReport) int { return cmp.Compare(a.Writer, b.Writer) })
	return out
}

// markedChains breaks every chain whose published head its own writer marked as no longer on
// it: the writer saw the loss when it restarted on a rolled-back volume, so the mark stands even
// where the chain verifies now (retention may have deleted the segments that showed it).
func (o VerifyOptions) markedChains(chains []ChainReport) {
	for _, h := range o.Heads {
		if h.NotOnChainSince.IsZero() {
			continue
		}
		for i := range chains {
			if chains[i].Writer == h.Writer && chains[i].Broken == nil {
				chains[i].Broken = &Break{Writer: h.Writer, File: h.Segment, Seq: h.Seq, What: fmt.Sprintf(
					"its writer found on %s that the volume no longer held its published head (hash %s): "+
						"the volume was rolled back or rewritten", h.NotOnChainSince.UTC().Format(time.RFC3339), h.Hash)}
			}
		}
	}
}

// sourcePublished names an anchor read from the AuditLedger's status.
const sourcePublished = "published head"

// chainLimits are what the anchors could not prove of each unbroken chain: records after its
// newest signature, and a chain whose writer published no head.
func chainLimits(chains []ChainReport) []string {
	var out []string
	for _, c := range chains {
		if c.Broken != nil {
			continue
		}
		if c.Unsigned > 0 {
			out = append(out, fmt.Sprintf("writer %s: seq %d..%d follow the chain's newest signature: whoever holds the volume "+
				"without the key could have appended them (a live writer signs its head every few seconds)", c.Writer, c.LastSeq-c.Unsigned+1, c.LastSeq))
		}
		if c.Unpublished {
			out = append(out, fmt.Sprintf("writer %s published no head: records cut from its end, with its head.sig removed, are not detected", c.Writer))
		}
	}
	return out
}

// recordLoc is where a record is.
type recordLoc struct {
	file string
	line int
	seq  uint64
}

// anchor is a signed head the chain must contain, and where it came from.
type anchor struct {
	SignedHead
	source string // "published head" or "head.sig"
	seen   bool   // the record at Seq was read
	bad    string // why the anchor itself does not verify
}

// loadAnchors collects this writer's published head and, with a key, its head.sig. head.sig is
// on the volume, so without a key it proves nothing and is not used.
func (v *chainVerifier) loadAnchors(o VerifyOptions) []anchor {
	var out []anchor
	for _, h := range o.Heads {
		if h.Writer == v.writer {
			out = append(out, anchor{SignedHead: h, source: sourcePublished})
		}
	}
	if len(v.keys) == 0 {
		return out
	}
	h, ok, err := readSignature(filepath.Join(v.dir, headSigFile))
	switch {
	case err != nil:
		v.rep.Notes = append(v.rep.Notes, err.Error())
	case !ok:
		v.rep.Notes = append(v.rep.Notes, "no head.sig: the live head was never signed, or the file was removed")
	case h.Writer != v.writer:
		out = append(out, anchor{SignedHead: h, source: headSigFile, bad: fmt.Sprintf("it is signed for writer %q", h.Writer)})
	default:
		out = append(out, anchor{SignedHead: h, source: headSigFile})
	}
	for i := range out {
		if out[i].bad == "" && len(v.keys) > 0 {
			if err := out[i].VerifyAny(v.keys); err != nil {
				out[i].bad = err.Error()
			}
		}
	}
	return out
}

// signed checks a seal's signature and every anchor that names this record. A failure is
// reported at the first record no valid signature proves: what precedes it is proven intact.
func (v *chainVerifier) signed(r recordAt) {
	for i := range v.anchors {
		a := &v.anchors[i]
		if a.bad != "" || a.Seq != r.p.Seq {
			continue
		}
		a.seen = true
		if a.Hash != r.p.hash {
			v.brkUnproven("the %s signed %s says seq %d had hash %s, the chain has %s: the chain was rewritten and re-hashed at or after this record",
				a.source, a.SignedAt.UTC().Format(time.RFC3339), a.Seq, short(a.Hash), short(r.p.hash))
		}
	}
	if r.p.Kind != KindSeal || len(v.keys) == 0 {
		return
	}
	if what := v.sealSignature(r); what != "" {
		v.brkUnproven("segment %s: %s", r.seg.name, what)
		return
	}
	v.proven, v.needLoc = r.p.Seq, true
}

func (v *chainVerifier) sealSignature(r recordAt) string {
	h, ok, err := readSignature(filepath.Join(v.dir, r.seg.name+sigExt))
	switch {
	case err != nil:
		return err.Error()
	case !ok:
		return "the sealed segment has no signature (" + r.seg.name + sigExt + " is missing)"
	}
	if err := h.VerifyAny(v.keys); err != nil {
		if errors.Is(err, ErrForeignKey) {
			return "the seal's signature is foreign: " + err.Error()
		}
		return err.Error()
	}
	if h.Writer != v.writer || h.Seq != r.p.Seq || h.Hash != r.p.hash || h.Segment != r.seg.name {
		return fmt.Sprintf("the signature is for writer %s seq %d hash %s in %s, the seal is seq %d hash %s: the segment was rewritten and re-hashed",
			h.Writer, h.Seq, short(h.Hash), h.Segment, r.p.Seq, short(r.p.hash))
	}
	return ""
}

func (v *chainVerifier) brkUnproven(format string, args ...any) {
	what := fmt.Sprintf(format, args...)
	if v.proven > 0 {
		what += fmt.Sprintf(" (records through seq %d are proven by a valid signature)", v.proven)
	}
	u := v.unproven
	v.brk(u.file, u.line, u.seq, "%s", what)
}

// checkAnchors runs after the chain is read: an anchor that does not verify is a foreign or
// forged signature, and one past the chain's end means records were cut from the end. With a key
// it also counts the records after the newest valid signature, which nothing proves.
func (v *chainVerifier) checkAnchors(o VerifyOptions) {
	signed, published := v.proven, false
	for _, a := range v.anchors {
		if a.source == sourcePublished {
			published = true
		}
		if a.bad == "" && a.seen && a.Seq <= v.rep.LastSeq {
			signed = max(signed, a.Seq)
		}
	}
	if len(v.keys) > 0 && v.rep.LastSeq > signed {
		// Counted from the chain's first retained record at most: retention deleted the rest.
		v.rep.Unsigned = v.rep.LastSeq - max(signed, v.rep.FirstSeq-1)
	}
	v.rep.Unpublished = len(o.Heads) > 0 && !published
	for _, a := range v.anchors {
		switch {
		case a.bad != "":
			v.brkUnproven("the %s at seq %d does not verify: %s", a.source, a.Seq, a.bad)
		case a.Seq > v.rep.LastSeq:
			file, line := v.lastFile, v.lastLine+1
			if file == "" {
				file = a.Segment
			}
			v.brk(file, line, v.rep.LastSeq+1, "the chain ends at seq %d, but the %s signed %s records seq %d (segment %s): records were cut from the end",
				v.rep.LastSeq, a.source, a.SignedAt.UTC().Format(time.RFC3339), a.Seq, a.Segment)
		case !a.seen && a.Seq < v.rep.FirstSeq && len(v.keys) > 0 && signed == 0 && a.source == sourcePublished:
			v.brk(v.firstFile, 1, v.rep.FirstSeq, "the published head signed %s records seq %d, before this chain's first record, and no valid signature "+
				"proves any record of the chain: every record the writer wrote after its published head chains back through it, so the "+
				"chain was replaced (its retention record claiming the rest was deleted is unsigned)", a.SignedAt.UTC().Format(time.RFC3339), a.Seq)
		case !a.seen && a.Seq < v.rep.FirstSeq:
			v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("the %s names seq %d, which retention has deleted: it proves nothing about the retained records", a.source, a.Seq))
		}
	}
	v.checkExcuseSigned(signed)
}

// checkExcuseSigned: with a key, the retention record that excuses the chain's missing oldest
// segments must itself be signed (seq at most signed, the newest valid signature's). One appended
// after the newest signature would let whoever holds the volume delete signed history and leave
// a chain that verifies. The journal signs its head after every retention record and before it
// deletes anything, so a genuine one is always covered.
func (v *chainVerifier) checkExcuseSigned(signed uint64) {
	e := v.excuse
	if len(v.keys) == 0 || e == nil || e.at.seq <= signed {
		return
	}
	newest := "no valid signature covers any record of the chain"
	if signed > 0 {
		newest = fmt.Sprintf("it follows the chain's newest valid signature (seq %d)", signed)
	}
	v.brk(e.at.file, e.at.line, e.at.seq, "the retention record that says segments through %s were deleted is unsigned (%s), so nothing proves "+
		"its writer wrote it: whoever holds the volume without the key could have appended it and deleted the oldest segments", e.through, newest)
}
