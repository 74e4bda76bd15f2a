package ledger

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// MaintainResult lists the segment files one Maintain call sealed, compressed and deleted.
type MaintainResult struct {
	Sealed     []string
	Compressed []string
	Deleted    []string
}

// Maintain seals the live segment if it is full or (Daily) from an earlier UTC day than now,
// gzips sealed segments (Compress), and deletes the oldest sealed segments beyond MaxSegments or
// sealed longer than MaxAge before now. Before deleting, it appends a "retention" record naming
// what it deletes and the hash the chain continues from, so Verify can tell retention from
// tampering. Appends continue while it runs; a controller calls it on a schedule.
func (j *Journal) Maintain(now time.Time) (MaintainResult, error) {
	j.maintMu.Lock()
	defer j.maintMu.Unlock()
	var res MaintainResult
	if j.isClosed() {
		return res, ErrClosed
	}

	j.wmu.Lock()
	var err error
	// An idle writer's chain (MaintainIdle) is sealed whatever its age or size: no writer will.
	if err = j.repair(); err == nil && (j.due(now) || j.idle && j.live != nil && j.live.size > 0) {
		name := j.live.name
		if err = j.seal(now); err == nil {
			res.Sealed = append(res.Sealed, name)
		}
	}
	// Everything below sealedBelow is sealed and no longer written; the committer only ever
	// creates higher indexes.
	sealedBelow := j.nextIndex
	if j.live != nil {
		sealedBelow = j.live.index
	}
	// With no records in a live segment, the newest seal is the only place the chain's head
	// is on disk, so retention must keep it.
	keepNewest := j.live == nil || j.live.size == 0
	j.wmu.Unlock()
	if err != nil {
		return res, err
	}

	segs, err := listSegments(j.dir)
	if err != nil {
		return res, fmt.Errorf("ledger: listing %s: %w", j.dir, err)
	}
	var sealed []segment
	for _, s := range segs {
		if s.index < sealedBelow {
			sealed = append(sealed, s)
		}
	}
	if j.cfg.Compress {
		for i, s := range sealed {
			if s.gz {
				continue
			}
			if err := compress(j.dir, s); err != nil {
				return res, err
			}
			res.Compressed = append(res.Compressed, s.name+gzipExt)
			sealed[i].gz = true
		}
	}
	res.Deleted, err = j.retain(now, sealed, keepNewest)
	if rerr := j.refreshStats(); err == nil {
		err = rerr
	}
	return res, err
}

// retain deletes the oldest sealed segments that retention no longer keeps. It only ever
// deletes a prefix of the chain, so what remains still links up.
func (j *Journal) retain(now time.Time, sealed []segment, keepNewest bool) ([]string, error) {
	candidates := sealed
	if keepNewest && len(candidates) > 0 {
		candidates = candidates[:len(candidates)-1]
	}
	var del []segment
	var byCount, byAge bool
	for i, s := range candidates {
		tooMany := j.cfg.MaxSegments > 0 && len(sealed)-i > j.cfg.MaxSegments
		tooOld, err := j.tooOld(now, s)
		if err != nil {
			return nil, err
		}
		if !tooMany && !tooOld {
			break
		}
		byCount, byAge = byCount || tooMany, byAge || tooOld
		del = append(del, s)
	}
	if len(del) == 0 {
		return nil, nil
	}
	last := del[len(del)-1]
	seal, err := sealOf(j.dir, last)
	if err != nil {
		return nil, err
	}
	var why []string
	if byAge {
		why = append(why, "maxAge")
	}
	if byCount {
		why = append(why, "maxSegments")
	}
	names := make([]any, len(del))
	for i, s := range del {
		names[i] = s.name
	}
	// The record is durable before anything is deleted: a crash in between leaves segments
	// that retention already excused, never a deletion nobody recorded.
	err = j.appendInternal(context.Background(), KindRetention, now, map[string]any{
		fieldReason: strings.Join(why, ","),
		"deleted":   names,
		"through":   map[string]any{fieldSegment: last.name, "seq": seal.Seq, "hash": seal.hash},
	})
	if err != nil {
		return nil, fmt.Errorf("ledger: recording retention: %w", err)
	}
	// And signed before anything is deleted: verify with the key accepts a chain that starts
	// after deleted segments only on a retention record a signature covers (head.sig here, until
	// a seal covers it), since anyone who can write the volume can append an unsigned one. A
	// head.sig that cannot be written does not stop the deletion: a full volume is when
	// retention is most needed (the record went into the segment's preallocated space, a new file
	// may not fit), and the head is signed all the same, published with the heads, and covered by
	// the segment's seal later.
	_, _, _ = j.SignHead()
	deleted := make([]string, 0, len(del))
	for _, s := range del {
		if err := os.Remove(filepath.Join(j.dir, s.file())); err != nil {
			return deleted, fmt.Errorf("ledger: deleting %s: %w", s.file(), err)
		}
		if s.plainLeftover {
			_ = os.Remove(filepath.Join(j.dir, s.name))
		}
		// The signature goes with its segment; the retention record excuses both.
		_ = os.Remove(filepath.Join(j.dir, s.name+sigExt))
		deleted = append(deleted, s.file())
		j.noteRetained(s.name)
	}
	return deleted, syncDir(j.dir)
}

// sealTime is when a sealed segment was sealed: the gzip header's time (set from the seal when
// compressing, so age checks need not decompress), else the seal record's time.
func sealTime(dir string, s segment) (time.Time, error) {
	if s.gz {
		f, err := openNoFollow(filepath.Join(dir, s.file()), os.O_RDONLY, 0)
		if err != nil {
			return time.Time{}, err
		}
		zr, err := gzip.NewReader(bufio.NewReader(f))
		_ = f.Close()
		if err == nil && !zr.ModTime.IsZero() {
			return zr.ModTime, nil
		}
	}
	seal, err := sealOf(dir, s)
	if err != nil {
		return time.Time{}, err
	}
	return seal.time(), nil
}

// tooOld reports whether s was sealed longer than MaxAge before now.
func (j *Journal) tooOld(now time.Time, s segment) (bool, error) {
	if j.cfg.MaxAge <= 0 {
		return false, nil
	}
	at, err := sealTime(j.dir, s)
	if err != nil || now.Sub(at) <= j.cfg.MaxAge {
		return false, err
	}
	if s.gz {
		// The header is outside the chain: before deleting on its word, read the seal.
		if err := headerMatchesSeal(j.dir, s, at); err != nil {
			return false, err
		}
	}
	return true, nil
}

// headerMatchesSeal checks a gzip segment's header time, at, against its seal record's time, which
// the chain's hashes cover (the header holds it to the second). Nothing else covers the header:
// whoever can write the volume could backdate recent segments and have retention delete them
// with a genuine retention record, so a header that disagrees is ErrCorrupt, and nothing is
// deleted on its word. Retention reads the seal only of segments it is about to delete.
func headerMatchesSeal(dir string, s segment, at time.Time) error {
	seal, err := sealOf(dir, s)
	if err != nil {
		return err
	}
	if sealed := seal.time(); sealed.Unix() != at.Unix() {
		return fmt.Errorf("%w: the gzip header of %s says it was sealed at %s, its seal record at %s: "+
			"the header was altered, and retention deletes nothing on its word", ErrCorrupt, s.file(),
			at.UTC().Format(time.RFC3339), sealed.UTC().Format(time.RFC3339))
	}
	return nil
}

// compress replaces a sealed segment by its gzip: written to a temporary file, synced, read back
// and compared, renamed into place, and only then the original removed. A crash at any point
// leaves a complete segment (Open finishes the job).
func compress(dir string, s segment) (err error) {
	src := filepath.Join(dir, s.name)
	seal, err := lastRecordPlain(src)
	if err != nil {
		return fmt.Errorf("ledger: compressing %s: %w", s.name, err)
	}
	if seal.Kind != KindSeal {
		return fmt.Errorf("%w: compressing %s: it does not end in a seal", ErrCorrupt, s.name)
	}
	dst := src + gzipExt
	tmp := dst + ".tmp"
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
			err = fmt.Errorf("ledger: compressing %s: %w", s.name, err)
		}
	}()
	// The segment's data only: a zero tail that trimSealed could not cut is not compressed.
	in, err := openSegment(dir, s)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }()
	out, err := openNoFollow(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(out)
	zw.Name = s.name
	zw.ModTime = seal.time()
	zw.Comment = fmt.Sprintf("toolgate ledger segment, sealed at seq %d", seal.Seq)
	want := sha256.New()
	_, err = io.Copy(zw, io.TeeReader(in, want))
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	got, err := gunzipDigest(tmp)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want.Sum(nil)) {
		return fmt.Errorf("the compressed copy does not read back identical")
	}
	if err := os.Rename(tmp, dst); err != nil {
		return err
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	if err := os.Remove(src); err != nil {
		return err
	}
	return syncDir(dir)
}

func gunzipDigest(path string) ([]byte, error) {
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	if _, err := io.Copy(h, zr); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// refreshStats recounts sealed segments after compression or deletion changed them.
func (j *Journal) refreshStats() error {
	j.wmu.Lock()
	defer j.wmu.Unlock()
	segs, err := listSegments(j.dir)
	if err != nil {
		return fmt.Errorf("ledger: listing %s: %w", j.dir, err)
	}
	count, size := 0, int64(0)
	var first uint64
	for i, s := range segs {
		if i == 0 && (j.live == nil || s.index != j.live.index || j.live.size > 0) {
			p, err := firstRecord(j.dir, s)
			if err != nil {
				return fmt.Errorf("ledger: %w", err)
			}
			first = p.Seq
		}
		if j.live != nil && s.index == j.live.index {
			continue
		}
		count++
		size += s.size
	}
	j.smu.Lock()
	j.stats.sealedCount, j.stats.sealedBytes = count, size
	if first > 0 {
		j.stats.firstSeq = first
	}
	j.smu.Unlock()
	return nil
}
