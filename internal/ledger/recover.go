package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrCorrupt is returned by Open when a live segment is damaged somewhere other than its tail.
var ErrCorrupt = errors.New("ledger segment is corrupt")

// recover restores the chain's state from disk and returns the gap records to append, one per
// loss it found.
func (j *Journal) recover() ([]map[string]any, error) {
	if err := removeTemp(j.dir); err != nil {
		return nil, err
	}
	segs, err := listSegments(j.dir)
	if err != nil {
		return nil, fmt.Errorf("ledger: listing %s: %w", j.dir, err)
	}
	if err := finishCompression(j.dir, segs); err != nil {
		return nil, err
	}
	var gaps []map[string]any
	head, hasHead, err := readHead(j.dir)
	if err != nil {
		gaps = append(gaps, map[string]any{fieldReason: GapHeadUnreadable, "detail": err.Error()})
	}

	j.pos, j.nextIndex = genesis(), 1
	var lastRotation time.Time
	headHash := "" // the chain's hash at head.Seq, when recovery saw that record
	if len(segs) > 0 {
		newest := segs[len(segs)-1]
		j.nextIndex = newest.index + 1
		if newest.gz {
			seal, err := sealOf(j.dir, newest)
			if err != nil {
				return nil, err
			}
			j.pos, j.prevName, lastRotation = seal.position(), newest.name, seal.time()
		} else {
			scan, err := scanLive(filepath.Join(j.dir, newest.name), head.Seq)
			if err != nil {
				return nil, err
			}
			g, sealedAt, err := j.resume(newest, segs[:len(segs)-1], scan)
			if err != nil {
				return nil, err
			}
			if g != nil {
				gaps = append(gaps, g)
			}
			headHash, lastRotation = scan.atHead, sealedAt
			segs[len(segs)-1].size = scan.good // its data; stats count no unwritten space
		}
	}
	switch {
	case !hasHead:
	case head.Seq > j.pos.seq:
		// Records that were acknowledged durable are gone: the storage lost them or someone
		// cut the segment at a line boundary. Say so in the chain before the head moves on.
		gaps = append(gaps, map[string]any{
			fieldReason:    GapRecordsMissing,
			"headSeq":      head.Seq,
			"headHash":     head.Hash,
			"lastGoodSeq":  j.pos.seq,
			"lastGoodHash": j.pos.hash,
			"lostRecords":  head.Seq - j.pos.seq,
		})
	case headHash != "" && headHash != head.Hash:
		gaps = append(gaps, map[string]any{
			fieldReason: GapHeadMismatch,
			"headSeq":   head.Seq,
			"headHash":  head.Hash,
			"chainHash": headHash,
		})
	}
	return gaps, j.initStats(segs, lastRotation)
}

// resume continues the newest uncompressed segment: it cuts off a torn tail and makes the
// segment live again, or notes that it is sealed. It returns the gap record for a cut tail and
// when the chain's newest seal was written (zero if it has none).
func (j *Journal) resume(s segment, older []segment, scan liveScan) (gap map[string]any, sealedAt time.Time, err error) {
	path := filepath.Join(j.dir, s.name)
	if len(scan.tail) > 0 {
		saved := fmt.Sprintf("%s.torn-%d", s.name, scan.good)
		if err := writeFileAtomic(filepath.Join(j.dir, saved), scan.tail); err != nil {
			return nil, sealedAt, fmt.Errorf("ledger: saving the torn tail of %s: %w", s.name, err)
		}
		if err := truncateSync(path, scan.good); err != nil {
			return nil, sealedAt, fmt.Errorf("ledger: cutting the torn tail of %s: %w", s.name, err)
		}
		sum := sha256.Sum256(scan.tail)
		gap = map[string]any{
			fieldReason:  GapTornTail,
			fieldSegment: s.name,
			"offset":     scan.good,
			"lostBytes":  len(scan.tail),
			"lostSha256": hex.EncodeToString(sum[:]),
			"savedAs":    saved,
			"detail":     scan.tornErr.Error(),
		}
	}
	switch {
	case scan.records == 0:
		// Nothing valid in it: created but never written, or its only lines were torn. The
		// chain continues from the previous segment's seal.
		if len(older) > 0 {
			prev := older[len(older)-1]
			seal, err := sealOf(j.dir, prev)
			if err != nil {
				return nil, sealedAt, err
			}
			j.pos, j.prevName, sealedAt = seal.position(), prev.name, seal.time()
		}
		err = j.reopenLive(s, scan)
	case scan.sealed:
		j.pos, j.prevName, sealedAt = scan.last, s.name, scan.lastTime
		if scan.fileSize > scan.good {
			// A crash between the seal and trimSealed left its preallocated zero tail.
			if err := truncateSync(path, scan.good); err != nil {
				return nil, sealedAt, fmt.Errorf("ledger: trimming the unwritten tail of sealed segment %s: %w", s.name, err)
			}
		}
	default:
		j.pos = scan.last
		if len(older) > 0 {
			// The header was written right after the previous segment's seal.
			j.prevName, sealedAt = older[len(older)-1].name, scan.firstTime
		}
		err = j.reopenLive(s, scan)
	}
	if gap != nil {
		gap["lastGoodSeq"], gap["lastGoodHash"] = j.pos.seq, j.pos.hash
	}
	return gap, sealedAt, err
}

// reopenLive continues a live segment at its logical end. Its zero tail is kept as the
// preallocation (a torn tail was cut with it, and the next batch extends again); it is fsynced
// once, since a crash may have come in the middle of an extension, before its fsync.
func (j *Journal) reopenLive(s segment, scan liveScan) error {
	alloc := scan.good
	if len(scan.tail) == 0 {
		alloc = scan.fileSize
	}
	f, err := j.cfg.openFile(filepath.Join(j.dir, s.name), os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("ledger: opening segment %s: %w", s.name, err)
	}
	if alloc > scan.good {
		if err := f.Sync(); err != nil {
			_ = f.Close()
			return fmt.Errorf("ledger: syncing segment %s: %w", s.name, err)
		}
	}
	j.live = &liveSegment{f: f, name: s.name, index: s.index, day: s.day, size: scan.good, alloc: alloc,
		records: scan.records, digest: scan.digest}
	return nil
}

// sealOf returns a sealed segment's seal record.
func sealOf(dir string, s segment) (parsed, error) {
	p, err := lastRecord(dir, s)
	if err != nil {
		return parsed{}, fmt.Errorf("ledger: reading the seal of %s: %w", s.file(), err)
	}
	if p.Kind != KindSeal {
		return parsed{}, fmt.Errorf("%w: %s ends in a %q record, not its seal, but newer segments exist", ErrCorrupt, s.file(), p.Kind)
	}
	return p, nil
}

func (j *Journal) initStats(segs []segment, lastRotation time.Time) error {
	st := statsState{pos: j.pos, lastRotation: lastRotation}
	if len(segs) > 0 {
		st.segment = segs[len(segs)-1].name // the newest segment holds the newest record
	}
	for _, s := range segs {
		if j.live != nil && s.index == j.live.index {
			st.live, st.liveBytes = true, j.live.size
			continue
		}
		st.sealedCount++
		st.sealedBytes += s.size
	}
	if len(segs) > 0 && (j.live == nil || segs[0].index != j.live.index || j.live.size > 0) {
		first, err := firstRecord(j.dir, segs[0])
		if err != nil {
			return fmt.Errorf("ledger: %w", err)
		}
		st.firstSeq = first.Seq
	}
	j.smu.Lock()
	j.stats = st
	j.smu.Unlock()
	return nil
}

// liveScan is what scanLive found in the newest uncompressed segment.
type liveScan struct {
	good      int64    // bytes of valid, chained records from the start
	records   int      // how many
	last      position // the last valid record
	firstTime time.Time
	lastTime  time.Time
	sealed    bool
	digest    hash.Hash // sha256 of the good bytes
	tail      []byte    // data after the good bytes: a torn write
	fileSize  int64     // the file's size: the data and the unwritten (zero) space after it
	tornErr   error     // what is wrong with the tail's first line
	atHead    string    // the hash of the record whose seq the head file names, if seen
}

// scanLive reads a segment's records until the first one that is incomplete, invalid or does not
// chain. What follows is a torn tail only if it holds no complete valid record: a crash leaves a
// partial line (or, after a power loss, garbage), never a whole record with a valid hash. A
// valid record after the damage means alteration or media corruption, and scanLive returns
// ErrCorrupt rather than cut away evidence.
func scanLive(path string, headSeq uint64) (liveScan, error) {
	name := filepath.Base(path)
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return liveScan{}, fmt.Errorf("ledger: %w", err)
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat()
	if err != nil {
		return liveScan{}, fmt.Errorf("ledger: %w", err)
	}
	sc := liveScan{digest: sha256.New(), fileSize: info.Size()}
	lr := newLineReader(dataReader(f))
	var badLine int
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return sc, nil
		}
		if err != nil && !errors.Is(err, errTorn) {
			return liveScan{}, fmt.Errorf("ledger: reading %s: %w", name, err)
		}
		if err == nil {
			var p parsed
			p, err = parseLine(line)
			switch {
			case err != nil:
			case sc.records > 0 && (p.Seq != sc.last.seq+1 || p.PrevHash != sc.last.hash):
				err = fmt.Errorf("record seq %d does not follow seq %d", p.Seq, sc.last.seq)
			case sc.sealed:
				err = errors.New("record after the seal")
			}
			if err == nil {
				if sc.records == 0 {
					sc.firstTime = p.time()
				}
				sc.good = lr.next
				sc.records++
				sc.last, sc.lastTime = p.position(), p.time()
				sc.sealed = p.Kind == KindSeal
				if p.Seq == headSeq {
					sc.atHead = p.hash
				}
				sc.digest.Write(line)
				sc.digest.Write([]byte{'\n'})
				continue
			}
		}
		sc.tornErr = fmt.Errorf("line %d: %w", lr.line, err)
		badLine = lr.line
		break
	}
	if _, err := f.Seek(sc.good, io.SeekStart); err != nil {
		return liveScan{}, fmt.Errorf("ledger: reading %s: %w", name, err)
	}
	rest, err := io.ReadAll(io.LimitReader(dataReader(f), maxTornTail+1))
	if err != nil {
		return liveScan{}, fmt.Errorf("ledger: reading %s: %w", name, err)
	}
	if len(rest) > maxTornTail {
		// A crash tears one write at most: more than that after the last good record is not a
		// torn tail, and is not read into memory to be kept in a side file.
		return liveScan{}, fmt.Errorf("%w: %s line %d: %v; more than %d bytes follow it, more than one write: "+
			"see docs/ledger.md (recovery) before writing to this chain again", ErrCorrupt, name, badLine, sc.tornErr, maxTornTail)
	}
	if err := tornOnly(rest, name, badLine, sc.tornErr, headSeq); err != nil {
		return liveScan{}, err
	}
	sc.tail = rest
	return sc, nil
}

// tornOnly returns ErrCorrupt if the data after the last good record holds a whole valid record,
// unless it is what a torn in-place batch leaves: a crash before a batch's sync completes may
// keep some of its pages and lose others, which stay the preallocated zeros, so whole records
// can follow a run of zeros. That is taken as torn only when the zeros come before the first
// whole record, everything after the last good record fits in one write (maxSyncBytes), and no
// record there is one the head file names as durable (headSeq: it is written only after the
// sync, so those were acknowledged and are no torn batch); anywhere else, zeros before records
// are damage. Either way nothing is lost unseen: resume saves the cut bytes and records a gap.
func tornOnly(rest []byte, name string, badLine int, tornErr error, headSeq uint64) error {
	offset, torn := 0, false
	for i, line := range bytes.SplitAfter(rest, []byte{'\n'}) {
		start := offset
		offset += len(line)
		if !bytes.HasSuffix(line, []byte{'\n'}) {
			continue
		}
		p, err := parseLine(line[:len(line)-1])
		if err != nil {
			continue
		}
		if !torn && tornBatch(rest, start) {
			torn = true
		}
		if !torn || p.Seq <= headSeq {
			return fmt.Errorf("%w: %s line %d: %v; line %d from there is a whole valid record, so this is not a torn write: "+
				"see docs/ledger.md (recovery) before writing to this chain again", ErrCorrupt, name, badLine, tornErr, badLine+i)
		}
	}
	return nil
}

// tornBatch reports whether rest, whose first whole valid record starts at firstValid, is the
// remains of one torn in-place batch: zeros before that record, and no more than one write.
func tornBatch(rest []byte, firstValid int) bool {
	return len(rest) <= maxSyncBytes+tornSlack && bytes.IndexByte(rest[:firstValid], 0) >= 0
}

// tornSlack is room past maxSyncBytes for a batch's segment header and lines longer than
// lineOverhead.
const tornSlack = 64 << 10

func truncateSync(path string, size int64) error {
	f, err := openNoFollow(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	err = f.Truncate(size)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// removeTemp deletes temporary files a crash left behind (atomic writes and compressions that
// never reached their rename).
func removeTemp(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("ledger: removing %s: %w", e.Name(), err)
			}
		}
	}
	return nil
}

// finishCompression removes the original of a segment whose .gz was already renamed into place.
func finishCompression(dir string, segs []segment) error {
	removed := false
	for _, s := range segs {
		if s.plainLeftover {
			if err := checkLeftover(dir, s); err != nil {
				return fmt.Errorf("ledger: %w", err)
			}
			if err := os.Remove(filepath.Join(dir, s.name)); err != nil {
				return fmt.Errorf("ledger: removing %s after compression: %w", s.name, err)
			}
			removed = true
		}
	}
	if removed {
		return syncDir(dir)
	}
	return nil
}
