package ledger

import (
	"context"
	"errors"
	"fmt"
	"hash"
	"math"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// ErrClosed is returned by a Journal after Close.
var ErrClosed = errors.New("ledger journal is closed")

// Journal appends records to one writer's chain. It is safe for concurrent use; concurrent
// Appends share one write and one fsync.
type Journal struct {
	cfg  Config
	red  atomic.Pointer[redactor] // swapped by Reconfigure; Append reads it without a lock
	dir  string                   // Dir/Writer
	lock *os.File
	head *headWriter

	mu     sync.Mutex // guards queue and closed
	queue  []*pending
	spare  []*pending // the committer's last batch, emptied: the next queue; only flush uses it
	closed bool
	kick   chan struct{}
	quit   chan struct{}
	exited chan struct{}

	// The chain's state. Owned by whoever holds wmu: the committer while it writes, Maintain
	// while it seals.
	wmu       sync.Mutex
	pos       position
	live      *liveSegment // nil until the next write creates one
	nextIndex uint64
	prevName  string // the newest sealed segment, which the next segment's header names
	dirty     error  // a failed write may have left bytes past live.size; cut before writing again

	smu   sync.Mutex // guards stats and retained, so Stats never waits behind an fsync
	stats statsState
	// retained names the segments this process's retention deleted: the only missing segments
	// Holds excuses (a file missing for any other reason proves nothing was retention).
	retained map[string]bool

	lost atomic.Uint64

	wbuf []byte // the committer's batch buffer, reused; guarded by wmu

	maintMu sync.Mutex // serialises Maintain
	// idle: this journal was opened by MaintainIdle for a writer that no longer runs, and
	// Maintain seals its live segment whenever it holds records.
	idle bool

	signMu     sync.Mutex // serialises SignHead
	signed     atomic.Pointer[SignedHead]
	signExited chan struct{} // closed when signLoop returns; nil without a signing key
}

// liveSegment is the segment being appended to.
type liveSegment struct {
	f       file
	name    string
	index   uint64
	day     string
	size    int64     // durable bytes: the logical end, where the next batch goes
	alloc   int64     // bytes in the file: size plus the preallocated zero space after it
	records int       // durable records
	digest  hash.Hash // sha256 of the durable bytes, for the seal
}

type statsState struct {
	pos          position
	firstSeq     uint64
	sealedCount  int
	sealedBytes  int64
	liveBytes    int64
	live         bool
	lastRotation time.Time
	segment      string // the segment holding pos
}

// Stats describes a writer's chain.
type Stats struct {
	Writer string
	// Records is the number of records on disk in this chain (every kind, headers and seals too).
	Records uint64
	// Segments counts live and sealed segment files; Bytes is the size of their data (a live
	// segment's preallocated zero space is not counted).
	Segments int
	Bytes    int64
	// HeadSeq and HeadHash identify the newest durable record.
	HeadSeq  uint64
	HeadHash string
	// LastRotation is when a segment was last sealed (zero if none was).
	LastRotation time.Time
	// LostRecords counts appends that failed to become durable since Open.
	LostRecords uint64
}

// pending is one queued append.
type pending struct {
	kind   string
	at     time.Time
	fields encoded // released by the committer once copied into its batch
	// done receives one value when the record is durable or failed: the committer's last use of
	// the pending (a buffered channel, not closed, so the pending can be used again).
	done chan struct{}
	rec  Receipt
	err  error
}

// internalRedactor encodes the journal's own records: they carry no secrets and must never be
// altered by a configured redaction key (a key "seg" would otherwise hide the segment links).
var internalRedactor = redactor{max: math.MaxInt}

// Open opens (creating if needed) the writer's chain under cfg.Dir and recovers it: a torn tail
// left by a crash is cut off, kept in a side file, and recorded in a "gap" record before Open
// returns. Open fails with ErrCorrupt if valid records follow damaged ones (that is not a torn
// write, and the journal will not write over evidence), and with ErrWriterInUse if another
// journal holds the writer.
func Open(cfg Config) (*Journal, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(cfg.Dir, cfg.Writer)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("ledger: creating %s: %w", dir, err)
	}
	if err := refuseSymlink(dir); err != nil {
		return nil, err
	}
	lock, err := lockWriter(dir, cfg.Writer)
	if err != nil {
		return nil, err
	}
	j := &Journal{
		cfg:    cfg,
		dir:    dir,
		lock:   lock,
		kick:   make(chan struct{}, 1),
		quit:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	red := newRedactor(cfg.RedactKeys, cfg.MaxStringLength)
	j.red.Store(&red)
	gaps, err := j.recover()
	if err == nil {
		j.head, err = openHead(dir)
	}
	if err != nil {
		if j.live != nil {
			_ = j.live.f.Close()
		}
		j.release()
		return nil, err
	}
	go j.run()
	if cfg.SigningKey != nil {
		j.signExited = make(chan struct{})
		go j.signLoop()
	}
	now := cfg.Clock.Now()
	for _, g := range gaps {
		if err := j.appendInternal(context.Background(), KindGap, now, g); err != nil {
			_ = j.Close()
			return nil, fmt.Errorf("ledger: recording what recovery found: %w", err)
		}
	}
	return j, nil
}

// Append writes r and returns once it is durable: written and fsynced, together with whatever
// other appends were waiting. An error means the record may not be relied on; it may or may not
// be on disk (if ctx ends first, it usually is). Kinds "segment", "seal" and "retention" are
// reserved for the journal.
func (j *Journal) Append(ctx context.Context, r Record) (Receipt, error) {
	if reservedKind(r.Kind) {
		return Receipt{}, fmt.Errorf("ledger: kind %q is written by the journal itself", r.Kind)
	}
	if r.Kind == "" || len(r.Kind) > 64 || !utf8.ValidString(r.Kind) {
		return Receipt{}, fmt.Errorf("ledger: invalid record kind %q: want 1-64 bytes of UTF-8", r.Kind)
	}
	fields, err := j.red.Load().encodePooled(r)
	if err != nil {
		return Receipt{}, err
	}
	if len(fields.b) > maxFieldsBytes {
		n := len(fields.b)
		fields.release()
		return Receipt{}, fmt.Errorf("ledger: record of kind %q is %d bytes encoded, more than the %d a ledger line holds (MaxLineBytes); it was not written",
			r.Kind, n, maxFieldsBytes)
	}
	at := r.Time
	if at.IsZero() {
		at = j.cfg.Clock.Now()
	}
	return j.enqueueEncoded(ctx, r.Kind, at, fields)
}

func (j *Journal) appendInternal(ctx context.Context, kind string, at time.Time, fields map[string]any) error {
	enc, err := internalRedactor.encode(fields)
	if err != nil {
		return err
	}
	_, err = j.enqueue(ctx, kind, at, enc)
	return err
}

func (j *Journal) enqueue(ctx context.Context, kind string, at time.Time, fields []byte) (Receipt, error) {
	return j.enqueueEncoded(ctx, kind, at, encoded{b: fields})
}

// enqueueEncoded hands fields to the committer, which releases them once written; if they are
// not queued, it releases them itself.
func (j *Journal) enqueueEncoded(ctx context.Context, kind string, at time.Time, fields encoded) (Receipt, error) {
	if err := ctx.Err(); err != nil {
		fields.release()
		return Receipt{}, fmt.Errorf("ledger: %w", err)
	}
	p := pendings.Get().(*pending)
	p.kind, p.at, p.fields = kind, at, fields
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		fields.release()
		return Receipt{}, ErrClosed
	}
	j.queue = append(j.queue, p)
	j.mu.Unlock()
	select {
	case j.kick <- struct{}{}:
	default: // the committer is already due to look at the queue
	}
	select {
	case <-p.done:
		rec, err := p.rec, p.err
		*p = pending{done: p.done} // the committer signalled last: p is ours again
		pendings.Put(p)
		return rec, err
	case <-ctx.Done():
		// The committer still holds p and will signal it: p is left to the garbage collector.
		return Receipt{}, fmt.Errorf("ledger: waiting for the record to become durable: %w", ctx.Err())
	}
}

// pendings recycles pending appends with their done channels: an append allocated both, a
// quarter of a signed rich record's allocations.
var pendings = sync.Pool{New: func() any { return &pending{done: make(chan struct{}, 1)} }}

// Stats returns the chain's current counters. It never waits for a write in progress.
func (j *Journal) Stats() Stats {
	j.smu.Lock()
	s := j.stats
	j.smu.Unlock()
	st := Stats{
		Writer:       j.cfg.Writer,
		Segments:     s.sealedCount,
		Bytes:        s.sealedBytes + s.liveBytes,
		HeadSeq:      s.pos.seq,
		LastRotation: s.lastRotation,
		LostRecords:  j.lost.Load(),
	}
	if s.live {
		st.Segments++
	}
	if s.pos.seq > 0 {
		st.HeadHash = s.pos.hash
	}
	if s.firstSeq > 0 && s.pos.seq >= s.firstSeq {
		st.Records = s.pos.seq - s.firstSeq + 1
	}
	return st
}

// Close waits for queued appends, then closes the files and releases the writer. The live
// segment stays unsealed; the next Open continues it.
func (j *Journal) Close() error {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return nil
	}
	j.closed = true
	j.mu.Unlock()
	close(j.quit)
	<-j.exited
	if j.signExited != nil {
		<-j.signExited // no signature is written once Close returns
	}
	// The final head is signed, so a clean shutdown leaves nothing unsigned.
	_, _, _ = j.SignHead()
	j.maintMu.Lock()
	defer j.maintMu.Unlock()
	j.wmu.Lock()
	defer j.wmu.Unlock()
	var err error
	if j.live != nil {
		err = j.live.f.Close()
		j.live = nil
	}
	if j.head != nil {
		if cerr := j.head.close(); err == nil {
			err = cerr
		}
	}
	j.release()
	return err
}

func (j *Journal) release() {
	if j.lock != nil {
		_ = j.lock.Close() // closing the descriptor drops the flock
		j.lock = nil
	}
}

func (j *Journal) isClosed() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.closed
}
