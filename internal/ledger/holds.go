package ledger

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Holds says whether this writer's chain holds the record h names (h.Seq with h.Hash, in
// h.Segment): whether h, a head this writer published earlier, is behind the journal on its own
// chain. A head past the chain's end, or a different record at h.Seq, means the volume was rolled
// back (restored from an older copy) or rewritten under the writer; publishing the journal's
// head over it would erase the evidence. A segment that is not on the volume counts as held only
// if this process's own retention deleted it (retention proves nothing either way); any other
// missing segment, older than those left or not, is not held: whoever rolls a volume back can
// delete its oldest files too. It reads one segment.
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
	return j.retainedHere(h.Segment), nil
}

// noteRetained records that this process's retention deleted segment name.
func (j *Journal) noteRetained(name string) {
	j.smu.Lock()
	defer j.smu.Unlock()
	if j.retained == nil {
		j.retained = map[string]bool{}
	}
	j.retained[name] = true
}

// retainedHere reports whether this process's retention deleted segment name.
func (j *Journal) retainedHere(name string) bool {
	j.smu.Lock()
	defer j.smu.Unlock()
	return j.retained[name]
}

// HasSegment reports whether writer's chain under dir still has the segment named (plain or
// compressed). A name that is no segment's, or a writer that is no chain's, is an error; a
// symbolic link there is ErrSymlink.
func HasSegment(dir, writer, segment string) (bool, error) {
	if err := validateWriter(writer); err != nil {
		return false, err
	}
	if _, _, gz, ok := parseSegmentName(segment); !ok || gz {
		return false, fmt.Errorf("ledger: %q is not a segment name", segment)
	}
	for _, name := range []string{segment, segment + gzipExt} {
		path := filepath.Join(dir, writer, name)
		info, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return false, fmt.Errorf("ledger: %w", err)
		case info.Mode()&os.ModeSymlink != 0:
			return false, fmt.Errorf("ledger: %w: %s", ErrSymlink, path)
		case info.Mode().IsRegular():
			return true, nil
		}
	}
	return false, nil
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
