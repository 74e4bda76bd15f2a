package ledger

import (
	"errors"
	"fmt"
	"io"
)

// Holds says whether this writer's chain holds the record h names (h.Seq with h.Hash, in
// h.Segment): whether h, a head this writer published earlier, is behind the journal on its own
// chain. A head past the chain's end, or a different record at h.Seq, means the volume was rolled
// back (restored from an older copy) or rewritten under the writer; publishing the journal's
// head over it would erase the evidence. A segment retention has deleted (older than every
// segment left) proves nothing either way and counts as held. It reads one segment.
func (j *Journal) Holds(h SignedHead) (bool, error) {
	j.smu.Lock()
	head := j.stats.pos
	j.smu.Unlock()
	switch {
	case h.Seq > head.seq:
		return false, nil
	case h.Seq == head.seq:
		return h.Hash == head.hash, nil
	}
	segs, err := listSegments(j.dir)
	if err != nil {
		return false, fmt.Errorf("ledger: listing %s: %w", j.dir, err)
	}
	for _, s := range segs {
		if s.name == h.Segment {
			return segmentHolds(j.dir, s, h)
		}
	}
	// Not on the volume: retention deleted it only if it is older than every segment left.
	// Segment names carry their index, so a chain rebuilt since (a rolled-back writer that wrote
	// on, under new names) does not pass for one retention thinned.
	index, _, _, ok := parseSegmentName(h.Segment)
	return ok && len(segs) > 0 && index < segs[0].index, nil
}

// segmentHolds reads segment s for the record at h.Seq and compares its hash.
func segmentHolds(dir string, s segment, h SignedHead) (bool, error) {
	rc, err := openSegment(dir, s)
	if err != nil {
		return false, err
	}
	defer func() { _ = rc.Close() }()
	lr := newLineReader(rc)
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) || errors.Is(err, errTorn) {
			return false, nil // the segment ends before h.Seq: cut
		}
		if err != nil {
			return false, err
		}
		p, err := parseLine(line)
		if err != nil || p.Seq < h.Seq {
			continue
		}
		return p.Seq == h.Seq && p.hash == h.Hash, nil
	}
}
