package ledger

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// errAfterGzip is a compressed segment with bytes after its one gzip member.
var errAfterGzip = errors.New("bytes after the end of its compressed data: Maintain writes one gzip member and nothing after it, " +
	"and gunzip or zcat would read what follows as more of the segment (an appended member, or tampering)")

// oneMember reads a compressed segment's single gzip member and fails at its end if the file
// holds anything after it. The gzip reader stops at the first member (Multistream(false)) so a
// planted second member is not read as records; but stopping silently let the file carry records
// that verify never saw and that standard tools show as the segment's.
type oneMember struct {
	zr   io.Reader     // the gzip reader, single-member
	rest *bufio.Reader // the file under it
}

func (m oneMember) Read(p []byte) (int, error) {
	n, err := m.zr.Read(p)
	if !errors.Is(err, io.EOF) {
		return n, err
	}
	switch _, perr := m.rest.Peek(1); {
	case perr == nil:
		return n, errAfterGzip
	case !errors.Is(perr, io.EOF):
		return n, fmt.Errorf("after the compressed data: %w", perr)
	}
	return n, io.EOF
}
