package ledger

// Preallocation. An append changes the file's size, and the fsync that makes it durable must
// journal that metadata; on ext4 that is most of its cost. So the live segment is kept ahead of
// its data with zero bytes that were written and fsynced: a batch then overwrites allocated
// blocks inside the file's size, and fdatasync has only the data to flush (writeLive).
//
// The zeros are written, not fallocated: fallocate makes unwritten extents on ext4, and the
// first write into one converts it, a metadata change the fdatasync would have to journal again.

const (
	// preallocChunk is how far the segment grows at a time: one 1 MiB zero write and fsync
	// per ~1,700 batches of 600 bytes, so its cost spreads thin, and at most 1 MiB of a volume
	// per writer is unwritten.
	preallocChunk = 1 << 20
	// sealReserve is the room kept past MaxSegmentBytes for what a full segment still takes:
	// the batch that crosses the limit and the seal. More is allocated when needed.
	sealReserve = 4 << 10
	// allocBlock rounds the preallocation to whole filesystem blocks.
	allocBlock = 4 << 10
)

// zeroChunk is the source of the zero bytes (never written to).
var zeroChunk [preallocChunk]byte

// reserve makes sure n bytes fit at the live segment's logical end, extending the preallocated
// space if they do not: zeros written past the file's end, then a full fsync, since the file's
// size changes. Only then is the batch written, so its own sync is a fdatasync.
func (j *Journal) reserve(n int64) error {
	l := j.live
	need := l.size + n
	if need <= l.alloc {
		return nil
	}
	// A chunk at a time, but not much past where the segment is sealed: tests and small
	// volumes use small segments.
	target := roundUp(max(min(l.alloc+preallocChunk, j.cfg.MaxSegmentBytes+sealReserve), need), allocBlock)
	err := j.zeroFill(target)
	if err != nil && target > roundUp(need, allocBlock) {
		// A nearly full volume may not hold a chunk but still hold the batch: the ledger uses
		// its last bytes rather than fail early. (Zeros a failed fill left past the new end
		// stay zeros; everything past the logical end is.)
		target = roundUp(need, allocBlock)
		err = j.zeroFill(target)
	}
	if err != nil {
		return err
	}
	l.alloc = target
	return nil
}

// zeroFill writes zeros from the preallocated end to target and fsyncs them.
func (j *Journal) zeroFill(target int64) error {
	l := j.live
	for off := l.alloc; off < target; {
		w, err := l.f.WriteAt(zeroChunk[:min(target-off, preallocChunk)], off)
		if err != nil {
			return err
		}
		off += int64(w)
	}
	return l.f.Sync()
}

func roundUp(n, to int64) int64 { return (n + to - 1) / to * to }

// trimSealed cuts a sealed segment's preallocated zero tail once its seal is durable, so a
// sealed segment is exactly its data. It is best effort: the seal is already on disk, and a
// zero tail left by a failure (or by a crash before this) is unwritten space to every reader;
// Open trims it from the newest segment and compression leaves it out.
func trimSealed(l *liveSegment) {
	if l.alloc == l.size {
		return
	}
	if l.f.Truncate(l.size) == nil && l.f.Sync() == nil {
		l.alloc = l.size
	}
}
