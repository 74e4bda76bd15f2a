package ledger

import (
	"fmt"
	"io"
	"os"
)

// MaxLineBytes is the longest record line a ledger holds, newline excluded. Append refuses a
// record whose line could be longer, so every reader can bound its memory by it: a line longer
// than this on disk was never written by a journal, and readers report it as ErrCorrupt instead
// of reading it whole (a planted multi-GB unterminated tail would otherwise exhaust the pod).
const MaxLineBytes = 16 << 20

// maxLineEnvelope bounds what a line adds to its fields: seq (20 digits), time (35 bytes),
// writer (253, validateWriter), kind (64 bytes, escaped at most 6 times over), both hashes and
// the member names. lineOverhead is the typical size, for sizing buffers; this is the bound.
const maxLineEnvelope = 1024

// maxFieldsBytes is the longest encoded fields Append accepts.
const maxFieldsBytes = MaxLineBytes - maxLineEnvelope

// maxSmallFile bounds the metadata files read whole (head, head.sig, published signatures):
// each is a few hundred bytes; anything near this is not one of ours.
const maxSmallFile = 64 << 10

// maxTornTail bounds the bytes after a live segment's last good record that recovery reads: a
// crash tears at most one write, which is maxSyncBytes or one record alone.
const maxTornTail = max(maxSyncBytes, MaxLineBytes+1) + tornSlack

// readSmallFile reads a metadata file of at most maxSmallFile bytes, not following a symlink.
func readSmallFile(path string) ([]byte, error) {
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	b, err := io.ReadAll(io.LimitReader(f, maxSmallFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSmallFile {
		return nil, fmt.Errorf("%s: %w: longer than %d bytes", path, ErrCorrupt, maxSmallFile)
	}
	return b, nil
}
