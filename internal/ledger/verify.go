package ledger

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrBroken is wrapped by the error Verify returns when a chain does not verify.
var ErrBroken = errors.New("ledger chain is broken")

// errNoChains: a directory holds no writer's chain.
var errNoChains = errors.New("no ledger chains")

// Report is what Verify found.
type Report struct {
	Dir    string
	Chains []ChainReport
	// Limits say what this verification could not prove, for want of the public key or of the
	// published heads.
	Limits []string
}

// ChainReport is one writer's chain.
type ChainReport struct {
	Writer   string
	Segments int
	Records  uint64
	FirstSeq uint64
	LastSeq  uint64
	HeadHash string
	// RetainedAfter names the newest segment retention deleted, when the chain no longer starts
	// at its first record.
	RetainedAfter string
	// Gaps are losses recovery found and recorded in the chain. They are reported, not failures:
	// the chain says what was lost instead of hiding it.
	Gaps []Gap
	// Losses are loss records callers appended for records they could not make durable. Like
	// gaps, they are reported, not failures.
	Losses []Loss
	// Unsigned counts, when a public key was given, the newest records no valid signature covers
	// (a seal's, head.sig or the published head): whoever holds the volume without the key could
	// have appended them. A live writer leaves those of the last few seconds.
	Unsigned uint64
	// Unpublished is true when published heads were given but none is this writer's: records cut
	// from its end, with its head.sig removed, are not detected.
	Unpublished bool
	// Broken is the first link that does not verify, or nil.
	Broken *Break
	// Notes are observations that are not failures (a leftover uncompressed copy, no head file).
	Notes []string
}

// Gap is a loss recorded by recovery.
type Gap struct {
	Writer      string
	File        string
	Seq         uint64 // the gap record's own sequence number
	Reason      string
	LostBytes   int64
	LostRecords uint64 // acknowledged records found missing, when the head file said so
	LastGoodSeq uint64
	SavedAs     string // where recovery kept the cut bytes
}

func (g Gap) String() string {
	s := fmt.Sprintf("writer %s: %s at seq %d (%s", g.Writer, g.Reason, g.Seq, g.File)
	if g.LostBytes > 0 {
		s += fmt.Sprintf(", %d bytes after seq %d cut off, kept in %s", g.LostBytes, g.LastGoodSeq, g.SavedAs)
	}
	if g.LostRecords > 0 {
		s += fmt.Sprintf(", %d acknowledged records after seq %d missing", g.LostRecords, g.LastGoodSeq)
	}
	return s + ")"
}

// Break is the first place a chain does not verify.
type Break struct {
	Writer string
	File   string // the segment file, as named on disk
	Line   int    // line in the (decompressed) file, from 1; 0 when the file as a whole is at fault
	Seq    uint64 // the record's sequence number, when it could be read
	What   string
}

func (b *Break) String() string {
	s := fmt.Sprintf("writer %s: %s", b.Writer, b.File)
	if b.Line > 0 {
		s += fmt.Sprintf(" line %d", b.Line)
	}
	if b.Seq > 0 {
		s += fmt.Sprintf(" (seq %d)", b.Seq)
	}
	return s + ": " + b.What
}

// OK reports whether every chain verified.
func (r Report) OK() bool { return r.FirstBreak() == nil }

// FirstBreak returns the first broken link, in writer order, or nil.
func (r Report) FirstBreak() *Break {
	for _, c := range r.Chains {
		if c.Broken != nil {
			return c.Broken
		}
	}
	return nil
}

// Summary is one line for people.
func (r Report) Summary() string {
	var records, lost uint64
	segments, gaps, losses := 0, 0, 0
	for _, c := range r.Chains {
		records += c.Records
		segments += c.Segments
		gaps += len(c.Gaps)
		losses += len(c.Losses)
		for _, l := range c.Losses {
			lost += l.Lost
		}
	}
	if b := r.FirstBreak(); b != nil {
		return "BROKEN: " + b.String()
	}
	s := fmt.Sprintf("ok: %d chains, %d records in %d segments", len(r.Chains), records, segments)
	if gaps > 0 {
		s += fmt.Sprintf(", %d gaps recorded by recovery", gaps)
	}
	if losses > 0 {
		s += fmt.Sprintf(", %d records lost by writers (in %d loss records)", lost, losses)
	}
	return s
}

// Verify checks every writer's chain under dir (a ledger's Dir, or one writer's directory):
// each record's hash and canonical form, each prevHash link, sequence continuity, every segment
// header's link to the previous segment and every seal's digest, across live and gzip segments.
// Retention is accepted only where a retention record in the chain deleted the missing segments,
// and the head file must be on the chain. The returned error wraps ErrBroken when a chain is
// broken (the Report says where), or reports that dir holds no ledger or cannot be read.
func Verify(dir string) (Report, error) { return VerifyWith(dir, VerifyOptions{}) }

// VerifyWith is Verify with the anchors kept outside the volume: the operator's public key,
// which checks every sealed segment's signature and the signed heads, and the published heads,
// which show records cut from the end and a chain re-hashed as a whole. Report.Limits says what
// could not be proven without them.
func VerifyWith(dir string, o VerifyOptions) (Report, error) {
	rep := Report{Dir: dir, Limits: o.limits()}
	chains, err := chainDirs(dir)
	// With published heads, a volume with no chain left is reported writer by writer (each
	// directory was removed); anything else that stops the listing (a link, two segments of one
	// index, a directory that cannot be read) is that error, named, not a removal.
	if err != nil && (len(o.Heads) == 0 || !errors.Is(err, errNoChains)) {
		return rep, err
	}
	seen := map[string]bool{}
	for _, c := range chains {
		seen[c.writer] = true
		rep.Chains = append(rep.Chains, verifyChain(c.dir, c.writer, o))
	}
	rep.Chains = append(rep.Chains, o.missingChains(seen)...)
	o.markedChains(rep.Chains)
	rep.Limits = append(rep.Limits, chainLimits(rep.Chains)...)
	if b := rep.FirstBreak(); b != nil {
		return rep, fmt.Errorf("%w: %s", ErrBroken, b)
	}
	return rep, nil
}

type chainDir struct{ dir, writer string }

// chainDirs finds the chains under dir: subdirectories holding segments or a head file (a
// volume's lost+found is not one), or dir itself when it is a writer's directory.
func chainDirs(dir string) ([]chainDir, error) {
	if ok, err := isChain(dir); err != nil {
		return nil, err
	} else if ok {
		return []chainDir{{dir: dir, writer: filepath.Base(filepath.Clean(dir))}}, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	var out []chainDir
	for _, e := range ents {
		sub := filepath.Join(dir, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			// A writer's directory linked in from elsewhere is a chain no writer of this volume
			// wrote (or one of them twice): refuse it by name rather than skip or follow it.
			return nil, fmt.Errorf("ledger: %w: %s", ErrSymlink, sub)
		}
		if !e.IsDir() {
			continue
		}
		ok, err := isChain(sub)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, chainDir{dir: sub, writer: e.Name()})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("ledger: %w in %s", errNoChains, dir)
	}
	return out, nil
}

// isChain reports whether dir holds a chain; a symbolic link in it, or two segments with one
// index, is an error, not "no chain", so a chain so altered is reported instead of passed over
// (with its head file removed it was skipped). A directory that cannot be read (a volume's
// lost+found) is no chain.
func isChain(dir string) (bool, error) {
	segs, err := listSegments(dir)
	if errors.Is(err, ErrSymlink) || errors.Is(err, ErrCorrupt) {
		return false, fmt.Errorf("ledger: %w", err)
	}
	if err == nil && len(segs) > 0 {
		return true, nil
	}
	_, err = os.Lstat(filepath.Join(dir, headFile))
	return err == nil, nil
}

// claim is what a retention record says it deleted, and where the record is.
type claim struct {
	deleted map[string]bool
	through string
	seq     uint64
	hash    string
	at      recordLoc
}

type chainVerifier struct {
	dir, writer string
	rep         ChainReport
	head        headState
	hasHead     bool
	prev        position // the last record that verified
	started     bool
	prevSeg     string // the previous segment file's name
	first       *parsed
	firstFile   string
	lastFile    string
	lastLine    int
	claims      []claim
	// excuse is the retention record that accepted the chain's start after deleted segments.
	excuse *claim

	keys    []ed25519.PublicKey // none: signatures are not checked
	anchors []anchor            // signed heads this chain must contain
	// proven is the last seq a valid signature covers; unproven is the first record after it,
	// where a break found by a signature is reported (everything before it is proven).
	proven   uint64
	unproven recordLoc
	needLoc  bool
}

func verifyChain(dir, writer string, o VerifyOptions) ChainReport {
	v := &chainVerifier{dir: dir, writer: writer, rep: ChainReport{Writer: writer}, keys: o.keys(), needLoc: true}
	v.anchors = v.loadAnchors(o)
	// The head is read before the segments: it is written after the data it names, so data
	// read later can only be newer.
	head, ok, err := readHead(dir)
	if err != nil {
		v.rep.Notes = append(v.rep.Notes, err.Error())
	}
	v.head, v.hasHead = head, ok
	segs, err := listSegments(dir)
	if err != nil {
		v.brk("", 0, 0, "%v", err)
		return v.rep
	}
	if !ok && len(segs) > 0 {
		v.rep.Notes = append(v.rep.Notes, "no head file: truncation at a line boundary of the newest segment cannot be detected")
	}
	for i, s := range segs {
		v.segment(s, i == len(segs)-1)
	}
	v.checkStart()
	v.checkHead(segs)
	v.checkAnchors(o)
	v.rep.Segments = len(segs)
	if v.rep.Records > 0 {
		v.rep.HeadHash = v.prev.hash
	}
	return v.rep
}

// brk records a break unless an earlier one was found; after the first break the chain is only
// read for counts and retention records.
func (v *chainVerifier) brk(file string, line int, seq uint64, format string, args ...any) {
	if v.rep.Broken == nil {
		v.rep.Broken = &Break{Writer: v.writer, File: file, Line: line, Seq: seq, What: fmt.Sprintf(format, args...)}
	}
}

func (v *chainVerifier) segment(s segment, newest bool) {
	file := s.file()
	v.leftover(s)
	rc, err := openSegment(v.dir, s)
	if err != nil {
		v.brk(file, 0, 0, "cannot read: %v", err)
		return
	}
	defer func() { _ = rc.Close() }()
	lr := newLineReader(rc)
	digest := sha256.New()
	var size int64
	sealed := false
	var seal sealAt
	lines := 0
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, errTorn) {
			v.brkTorn(file, lr, line)
			break
		}
		if err != nil {
			v.brk(file, lr.line+1, 0, "reading after line %d: %v (a truncated or altered compressed segment?)", lr.line, err)
			break
		}
		lines++
		v.lastFile, v.lastLine = file, lr.line
		if off, ok := nulOffset(line, lr.offset); ok {
			v.brk(file, lr.line, v.prev.seq+1, "%s", nulInData(off))
			continue
		}
		p, err := parseLine(line)
		if err != nil {
			v.brk(file, lr.line, v.prev.seq+1, "%v", err)
			continue
		}
		v.rep.Records++
		if v.rep.FirstSeq == 0 {
			v.rep.FirstSeq = p.Seq
		}
		v.rep.LastSeq = p.Seq
		v.record(recordAt{seg: s, file: file, line: lr.line, p: p, afterSeal: sealed, digest: digest, size: size})
		if p.Kind == KindSeal {
			sealed, seal = true, sealAt{line: lr.line, seq: p.Seq, time: p.time()}
		}
		digest.Write(line)
		digest.Write([]byte{'\n'})
		size += int64(len(line)) + 1
		v.prev, v.started = p.position(), true
	}
	v.prevSeg = s.name
	v.segmentEnd(s, rc, lines, seal, newest)
}

// segmentEnd checks how a segment of lines records ends: in its seal, unless it is the newest
// plain one, and a compressed one with the seal time its gzip header carries.
func (v *chainVerifier) segmentEnd(s segment, rc io.ReadCloser, lines int, seal sealAt, newest bool) {
	file, sealed := s.file(), seal.line > 0
	switch {
	case lines == 0 && (!newest || s.gz):
		v.brk(file, 0, 0, "empty segment")
	case lines > 0 && !sealed && s.gz:
		v.brk(file, lines+1, 0, "compressed segment does not end in its seal: it was truncated")
	case lines > 0 && !sealed && !newest:
		v.brk(file, lines+1, 0, "segment is not sealed but newer segments exist: its end (at least the seal) was cut off")
	case sealed && s.gz:
		if at := gzipHeaderTime(rc); !at.IsZero() && at.Unix() != seal.time.Unix() {
			v.brk(file, seal.line, seal.seq, "the gzip header says the segment was sealed at %s, its seal record at %s: "+
				"the header, which no hash covers and retention reads, was altered", at.UTC().Format(time.RFC3339), seal.time.UTC().Format(time.RFC3339))
		}
	}
}

// sealAt is where a segment's seal is, and its time.
type sealAt struct {
	line int
	seq  uint64
	time time.Time
}

// gzipHeaderTime is the seal time a compressed segment's gzip header carries (compress sets it);
// zero for a plain segment or a header without one.
func gzipHeaderTime(rc io.ReadCloser) time.Time {
	if dc, ok := rc.(dataCloser); ok {
		if g, ok := dc.Closer.(*gzipFile); ok {
			return g.ModTime
		}
	}
	return time.Time{}
}

// leftover notes an uncompressed copy left beside a gzip segment, and breaks if it is not a
// copy of the gzip's data.
func (v *chainVerifier) leftover(s segment) {
	if !s.plainLeftover {
		return
	}
	if err := checkLeftover(v.dir, s); err != nil {
		v.brk(s.name, 0, 0, "%v", err)
	}
	v.rep.Notes = append(v.rep.Notes, fmt.Sprintf("%s: an uncompressed copy is left beside it (compression was interrupted; Open removes it)", s.file()))
}

// brkTorn reports an unterminated final line.
func (v *chainVerifier) brkTorn(file string, lr *lineReader, line []byte) {
	if off, ok := nulOffset(line, lr.offset); ok {
		v.brk(file, lr.line, 0, "%s", nulInData(off))
		return
	}
	v.brk(file, lr.line, 0, "unterminated final line (%d bytes): a torn write that Open has not recovered yet, or the file was truncated", len(line))
}

// nulInData says what NUL bytes with data after them are. Zeros are only ever the unwritten
// space at a segment's end (see dataEnd), so here they are a write torn by a power loss that Open
// has not recovered yet, or damage.
func nulInData(off int64) string {
	return fmt.Sprintf("NUL bytes at byte offset %d followed by data: unwritten space inside the segment's data "+
		"(a torn write that Open has not recovered yet, media corruption or tampering)", off)
}

// recordAt is one parsed record in its place.
type recordAt struct {
	seg       segment
	file      string
	line      int
	p         parsed
	afterSeal bool
	digest    hash.Hash // of the segment's bytes before this record
	size      int64     // how many bytes those are
}

// record checks one record that parsed, with an ordered chain of checks in the style of
// cert-manager's policies: each returns what is wrong or "", and the first failure is the break.
// Gap, retention and loss records are collected whatever the outcome.
func (v *chainVerifier) record(r recordAt) {
	if v.needLoc {
		v.unproven, v.needLoc = recordLoc{file: r.file, line: r.line, seq: r.p.Seq}, false
	}
	for _, check := range []func(recordAt) string{v.placement, v.header, v.link, v.headWitness, v.seal} {
		if what := check(r); what != "" {
			v.brk(r.file, r.line, r.p.Seq, "%s", what)
			break
		}
	}
	v.signed(r)
	if r.line == 1 && !v.started {
		p := r.p
		v.first, v.firstFile = &p, r.file
	}
	switch r.p.Kind {
	case KindGap:
		p := r.p
		v.rep.Gaps = append(v.rep.Gaps, Gap{Writer: v.writer, File: r.file, Seq: p.Seq, Reason: p.str(fieldReason),
			LostBytes: int64(p.num("lostBytes")), LostRecords: p.num("lostRecords"), LastGoodSeq: p.num("lastGoodSeq"), SavedAs: p.str("savedAs")})
	case KindRetention:
		c := parseClaim(r.p)
		c.at = recordLoc{file: r.file, line: r.line, seq: r.p.Seq}
		v.claims = append(v.claims, c)
	case KindLoss:
		v.rep.Losses = append(v.rep.Losses, lossOf(v.writer, r.file, r.p))
	}
}

// placement: a record belongs to this writer, and nothing follows a seal.
func (v *chainVerifier) placement(r recordAt) string {
	switch {
	case r.afterSeal:
		return "record after the segment's seal"
	case r.p.Writer != v.writer:
		return fmt.Sprintf("record of writer %q in this writer's chain", r.p.Writer)
	case r.line > 1 && r.p.Kind == KindSegment:
		return "segment header in the middle of a segment"
	}
	return ""
}

// header: a segment starts with its own header, which names the segment before it.
func (v *chainVerifier) header(r recordAt) string {
	if r.line != 1 {
		return ""
	}
	switch name, prev := r.p.str(fieldSegment), r.p.str(fieldPrevSegment); {
	case r.p.Kind != KindSegment:
		return fmt.Sprintf("the segment does not start with its header record (found %q): its beginning was cut off", r.p.Kind)
	case name != r.seg.name:
		return fmt.Sprintf("the header names segment %s, but the file is %s", name, r.seg.name)
	case v.started && prev != v.prevSeg:
		return fmt.Sprintf("segment %s is missing: this segment's header links to it, but the previous segment present is %s", prev, v.prevSeg)
	}
	return ""
}

// link: each record follows the one before it, by sequence number and by hash.
func (v *chainVerifier) link(r recordAt) string {
	switch p := r.p; {
	case !v.started:
	case p.Seq > v.prev.seq+1:
		return fmt.Sprintf("seq jumps from %d to %d: records missing or out of order", v.prev.seq, p.Seq)
	case p.Seq <= v.prev.seq:
		return fmt.Sprintf("seq %d follows seq %d: records out of order or repeated", p.Seq, v.prev.seq)
	case p.PrevHash != v.prev.hash:
		return fmt.Sprintf("prevHash %s does not match the hash %s of seq %d before it", short(p.PrevHash), short(v.prev.hash), v.prev.seq)
	}
	return ""
}

// headWitness: the record the head file names has the hash the head file recorded.
func (v *chainVerifier) headWitness(r recordAt) string {
	if v.hasHead && r.p.Seq == v.head.Seq && r.p.hash != v.head.Hash {
		return fmt.Sprintf("the head file says seq %d had hash %s: the chain was rewritten from here", r.p.Seq, short(v.head.Hash))
	}
	return ""
}

// seal: a seal names its segment and counts and digests exactly what precedes it.
func (v *chainVerifier) seal(r recordAt) string {
	if r.p.Kind != KindSeal {
		return ""
	}
	p := r.p
	switch records, size := p.num(fieldRecords), p.num(fieldBytes); {
	case p.str(fieldSegment) != r.seg.name:
		return fmt.Sprintf("the seal names segment %s, but the file is %s", p.str(fieldSegment), r.seg.name)
	case records != uint64(r.line-1) || size != uint64(r.size):
		return fmt.Sprintf("the seal counts %d records and %d bytes, the segment has %d and %d", records, size, r.line-1, r.size)
	case p.str(fieldDigest) != hex.EncodeToString(r.digest.Sum(nil)):
		return "the seal's digest does not match the segment's content"
	}
	return ""
}

func parseClaim(p parsed) claim {
	c := claim{deleted: map[string]bool{}}
	if list, ok := p.Fields["deleted"].([]any); ok {
		for _, n := range list {
			if s, ok := n.(string); ok {
				c.deleted[s] = true
			}
		}
	}
	if t, ok := p.Fields["through"].(map[string]any); ok {
		c.through, _ = t[fieldSegment].(string)
		c.hash, _ = t["hash"].(string)
		if n, ok := t["seq"].(json.Number); ok {
			c.seq, _ = strconv.ParseUint(string(n), 10, 64)
		}
	}
	return c
}

// checkStart accepts the oldest segment's link: the chain's genesis, or a segment whose
// predecessors a retention record in the chain deleted.
func (v *chainVerifier) checkStart() {
	f := v.first
	if f == nil {
		return
	}
	prevSeg := f.str(fieldPrevSegment)
	if f.Seq == 1 && f.PrevHash == genesisHash && prevSeg == "" {
		return
	}
	for _, c := range v.claims {
		if !c.deleted[prevSeg] {
			continue
		}
		// Either the deletion ended right before this segment, or this segment was deleted
		// too and a crash interrupted the deletion.
		if c.through == prevSeg && c.seq == f.Seq-1 && c.hash == f.PrevHash || c.deleted[f.str(fieldSegment)] {
			v.rep.RetainedAfter = prevSeg
			v.excuse = &c
			return
		}
	}
	what := fmt.Sprintf("the chain starts at seq %d after segment %s, which is missing and no retention record deleted it: the oldest segments were removed", f.Seq, prevSeg)
	if prevSeg == "" {
		what = fmt.Sprintf("the chain starts at seq %d with prevHash %s instead of the genesis: its beginning was removed", f.Seq, short(f.PrevHash))
	}
	// This is the chain's first position, so it precedes any other break.
	if b := v.rep.Broken; b == nil || b.File != v.firstFile || b.Line != 1 {
		v.rep.Broken = &Break{Writer: v.writer, File: v.firstFile, Line: 1, Seq: f.Seq, What: what}
	}
}

// checkHead catches the one truncation the chain cannot show by itself: whole records cut from
// the end of the newest segment, or newest segments deleted.
func (v *chainVerifier) checkHead(segs []segment) {
	if !v.hasHead || v.head.Seq <= v.rep.LastSeq {
		return
	}
	file, line := v.lastFile, v.lastLine+1
	if file == "" && len(segs) > 0 {
		file = segs[len(segs)-1].file()
	}
	if file == "" {
		file = headFile
	}
	v.brk(file, line, v.head.Seq, "the chain ends at seq %d, but the head file records seq %d (segment %s) as durable: records were cut from the end",
		v.rep.LastSeq, v.head.Seq, v.head.Segment)
}

// String lists a chain report for people.
func (c ChainReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "writer %s: %d records (seq %d..%d) in %d segments", c.Writer, c.Records, c.FirstSeq, c.LastSeq, c.Segments)
	if c.RetainedAfter != "" {
		fmt.Fprintf(&b, ", retention deleted segments through %s", c.RetainedAfter)
	}
	if c.HeadHash != "" {
		fmt.Fprintf(&b, ", head %s", c.HeadHash)
	}
	for _, g := range c.Gaps {
		fmt.Fprintf(&b, "\n  gap: %s", g)
	}
	for _, l := range c.Losses {
		fmt.Fprintf(&b, "\n  loss: %s", l)
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "\n  note: %s", n)
	}
	if c.Broken != nil {
		fmt.Fprintf(&b, "\n  BROKEN: %s", c.Broken)
	}
	return b.String()
}
