package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// run is the committer: it takes everything queued since its last write and makes it durable
// with one write and one fsync. Appends that arrive during an fsync form the next batch, so the
// batch size adapts to the load and to the disk's latency.
func (j *Journal) run() {
	defer close(j.exited)
	for {
		select {
		case <-j.kick:
			j.flush()
		case <-j.quit:
			j.flush()
			return
		}
	}
}

func (j *Journal) flush() {
	for {
		j.mu.Lock()
		batch := j.queue
		j.queue, j.spare = j.spare, nil
		j.mu.Unlock()
		if len(batch) == 0 {
			j.spare = batch
			return
		}
		if j.cfg.syncEach {
			for i := range batch {
				j.commit(batch[i : i+1])
			}
		} else {
			for rest := batch; len(rest) > 0; {
				rest = rest[j.commit(rest):]
			}
		}
		clear(batch) // the pendings are their appenders' again
		j.spare = batch[:0]
	}
}

// maxSyncBytes bounds what one write and sync put in place. Preallocated space is overwritten in
// place, and a crash before the sync completes may keep any of the batch's pages and lose the
// others; recovery (tornOnly) takes zeros followed by whole records as such a torn batch only
// within this span, and as damage anywhere else.
const maxSyncBytes = 1 << 20

// lineOverhead is about what a record's line adds to its fields (seq, time, writer, kind and
// hashes), to size the batch buffer.
const lineOverhead = 256

// commit makes the first records of batch durable in one write, as many as write takes, and
// hands each its receipt or error; it returns how many that was.
func (j *Journal) commit(batch []*pending) int {
	j.wmu.Lock()
	start := time.Now()
	n, err := j.write(batch)
	took, observe := time.Since(start), j.cfg.ObserveCommit
	j.wmu.Unlock()
	if err == nil && observe != nil {
		observe(n, took)
	}
	batch = batch[:n]
	for _, p := range batch {
		p.fields.release() // written or failed: nothing reads them again
	}
	if err != nil {
		j.lost.Add(uint64(len(batch)))
		for _, p := range batch {
			p.rec, p.err = Receipt{}, err
		}
	}
	for _, p := range batch {
		p.done <- struct{}{} // never blocks: one value per use, and the buffer holds one
	}
	return n
}

// write appends the first records of batch to the live segment in one write of at most
// maxSyncBytes (one record more only when that record alone is larger), and returns how many it
// took; a failure fails those (all of batch when the segment cannot be made writable). Sequence
// numbers and hashes are assigned here, in commit order, so a failed batch never leaves later
// records chained to records that are not on disk.
func (j *Journal) write(batch []*pending) (int, error) {
	now := j.cfg.Clock.Now()
	if err := j.prepare(now); err != nil {
		return len(batch), err
	}
	size := 0
	for _, p := range batch {
		if size += len(p.fields.b) + lineOverhead; size >= maxSyncBytes {
			size = maxSyncBytes // one write takes no more (beyond a single larger record)
			break
		}
	}
	buf := j.wbuf[:0]
	if cap(buf) < size+512 {
		buf = make([]byte, 0, size+512)
	}
	pos := j.pos
	lines := 0
	if j.live.size == 0 {
		buf, pos = appendLine(buf, pos, now, j.cfg.Writer, KindSegment, j.headerFields())
		lines++
	}
	taken := 0
	for _, p := range batch {
		before, prev := len(buf), pos
		buf, pos = appendLine(buf, pos, p.at, j.cfg.Writer, p.kind, p.fields.b)
		if len(buf) > maxSyncBytes && taken > 0 {
			// The next write takes it: what one write puts in place stays within what recovery
			// takes for a torn batch (tornOnly).
			buf, pos = buf[:before], prev
			break
		}
		p.rec = Receipt{Seq: pos.seq, Hash: pos.hash, Bytes: len(buf) - before}
		taken++
		lines++
	}
	err := j.writeLive(buf)
	if cap(buf) <= maxBatchBuffer {
		j.wbuf = buf // writeLive is done with it: the next batch reuses it
	}
	if err != nil {
		return taken, err
	}
	j.committed(pos, lines)
	return taken, nil
}

// maxBatchBuffer bounds the batch buffer the committer keeps between batches.
const maxBatchBuffer = 4 << 20

// prepare makes the live segment writable: it cuts off what a failed write left behind, seals
// a segment that is full or from an earlier day, and creates the next segment.
func (j *Journal) prepare(now time.Time) error {
	if err := j.repair(); err != nil {
		return err
	}
	if l := j.live; l != nil && l.size == 0 && j.cfg.Daily && l.day != dayOf(now) {
		// An empty segment (created, never written) would carry yesterday's date: replace it by
		// one named for today. If it cannot be removed, writing into it is still correct.
		if os.Remove(filepath.Join(j.dir, l.name)) == nil {
			_ = l.f.Close()
			j.live, j.nextIndex = nil, l.index
		}
	}
	if j.due(now) {
		if err := j.seal(now); err != nil {
			return err
		}
	}
	if j.live == nil {
		return j.createSegment(now)
	}
	return nil
}

// due reports whether the live segment should be sealed: it is full, or Daily and from an
// earlier UTC day. An empty segment is never sealed.
func (j *Journal) due(now time.Time) bool {
	l := j.live
	if l == nil || l.size == 0 {
		return false
	}
	return l.size >= j.cfg.MaxSegmentBytes || j.cfg.Daily && l.day != dayOf(now)
}

func (j *Journal) createSegment(now time.Time) error {
	day := dayOf(now)
	name := segmentName(day, j.nextIndex)
	path := filepath.Join(j.dir, name)
	// O_TRUNC rather than O_EXCL: an index at or past nextIndex never holds records (Open
	// listed them all), but a create whose directory sync failed may have left an empty file.
	// No O_APPEND: batches are written in place into preallocated space (see writeLive).
	f, err := j.cfg.openFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return fmt.Errorf("ledger: creating segment %s: %w", name, err)
	}
	if err := syncDir(j.dir); err != nil {
		_ = f.Close()
		return fmt.Errorf("ledger: creating segment %s: %w", name, err)
	}
	j.live = &liveSegment{f: f, name: name, index: j.nextIndex, day: day, digest: sha256.New()}
	j.nextIndex++
	j.smu.Lock()
	j.stats.live, j.stats.liveBytes = true, 0
	j.smu.Unlock()
	return nil
}

func (j *Journal) headerFields() []byte {
	b, _ := internalRedactor.encode(map[string]any{
		fieldSegment:     j.live.name,
		"index":          j.live.index,
		fieldPrevSegment: j.prevName,
	})
	return b
}

// writeLive makes bytes durable at the logical end of the live segment: written in place into
// preallocated zero space (extending it first when they do not fit) and fdatasynced. On failure
// it cuts the segment back to its durable size, so a partial write never stays in the chain.
func (j *Journal) writeLive(buf []byte) error {
	l := j.live
	if err := j.reserve(int64(len(buf))); err != nil {
		j.dirty = j.cutBack()
		return fmt.Errorf("ledger: preallocating segment %s: %w", l.name, err)
	}
	if _, err := l.f.WriteAt(buf, l.size); err != nil {
		j.dirty = j.cutBack()
		return fmt.Errorf("ledger: writing segment %s: %w", l.name, err)
	}
	// fdatasync suffices: the bytes land inside the file's size, in blocks that were written
	// and fsynced as zeros, so no size or allocation change is left for the filesystem to
	// journal. That is what makes it cheaper than the fsync of an append.
	if err := l.f.Datasync(); err != nil {
		// After a failed sync the page cache may hold bytes that never reach the disk; cut
		// them off so what follows is written again rather than trusted.
		j.dirty = j.cutBack()
		return fmt.Errorf("ledger: syncing segment %s: %w", l.name, err)
	}
	l.size += int64(len(buf))
	l.digest.Write(buf)
	return nil
}

// cutBack truncates the live segment to its durable size and syncs the truncation. The
// preallocation goes with it; the next batch extends the segment again.
func (j *Journal) cutBack() error {
	l := j.live
	if err := l.f.Truncate(l.size); err != nil {
		return err
	}
	if err := l.f.Sync(); err != nil {
		return err
	}
	l.alloc = l.size
	return nil
}

// repair retries the cut after an earlier failure; until it succeeds nothing is written, since
// the segment's end is unknown.
func (j *Journal) repair() error {
	if j.dirty == nil {
		return nil
	}
	if err := j.cutBack(); err != nil {
		return fmt.Errorf("ledger: segment %s has unknown bytes after a failed write and cannot be cut back: %w", j.live.name, err)
	}
	j.dirty = nil
	return nil
}

// seal appends the seal record (the digest of everything before it) and closes the segment.
func (j *Journal) seal(now time.Time) error {
	l := j.live
	fields, err := internalRedactor.encode(map[string]any{
		fieldSegment: l.name,
		fieldRecords: l.records,
		fieldBytes:   l.size,
		fieldDigest:  hex.EncodeToString(l.digest.Sum(nil)),
	})
	if err != nil {
		return err
	}
	buf, pos := appendLine(nil, j.pos, now, j.cfg.Writer, KindSeal, fields)
	if err := j.signSeal(l.name, pos, now); err != nil {
		return err
	}
	if err := j.writeLive(buf); err != nil {
		return err
	}
	j.committed(pos, 1)
	trimSealed(l)
	_ = l.f.Close() // already synced; a close error cannot lose anything
	j.prevName, j.live = l.name, nil
	j.smu.Lock()
	j.stats.sealedCount++
	j.stats.sealedBytes += l.size
	j.stats.live, j.stats.liveBytes = false, 0
	j.stats.lastRotation = now
	j.smu.Unlock()
	return nil
}

// committed advances the chain after a durable write and records the new head.
func (j *Journal) committed(pos position, records int) {
	first := j.pos.seq + 1
	j.pos = pos
	l := j.live
	l.records += records
	// The head file is a witness, not part of the chain: failing to update it loses nothing,
	// so it does not fail the append.
	_ = j.head.write(pos, l.name)
	j.smu.Lock()
	j.stats.pos = pos
	j.stats.segment = l.name
	j.stats.liveBytes = l.size
	if j.stats.firstSeq == 0 {
		j.stats.firstSeq = first
	}
	j.smu.Unlock()
}
