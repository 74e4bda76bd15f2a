package ledger

import (
	"bytes"
	"io"
)

// A live segment is preallocated: the space ahead of its last record is zero bytes, written and
// fsynced before any record goes there (see extend). Records are JSON lines, and JSON never holds
// a raw NUL byte, so the rule is unambiguous:
//
//   - a run of NUL bytes that reaches the end of the file is unwritten space: the data ends
//     where the run starts;
//   - NUL bytes followed by anything else are data, and never a valid record, so whoever
//     parses them reports them (Verify names the offset, see nulOffset).
//
// dataEnd and dataReader are that rule; every reader of segment files goes through one of them.

// dataEnd is how much of b is data when b runs to the end of the file: b without its trailing
// run of NUL bytes.
func dataEnd(b []byte) int {
	return len(bytes.TrimRight(b, "\x00"))
}

// dataReader returns r without the run of NUL bytes that reaches its end. It streams: NULs are
// counted, not buffered, and handed on only once data is seen after them.
func dataReader(r io.Reader) io.Reader { return &unwrittenTrimmer{r: r} }

type unwrittenTrimmer struct {
	r     io.Reader
	held  int64  // NULs read that may be the unwritten tail
	owed  int64  // held NULs now known to be data, still to be returned
	carry []byte // data read after owed NULs, returned after them
	err   error  // the underlying reader's error, returned once the rest is out
}

func (u *unwrittenTrimmer) Read(p []byte) (int, error) {
	for {
		if u.owed > 0 {
			n := int(min(u.owed, int64(len(p))))
			clear(p[:n])
			u.owed -= int64(n)
			return n, nil
		}
		if len(u.carry) > 0 {
			n := copy(p, u.carry)
			u.carry = u.carry[n:]
			return n, nil
		}
		if u.err != nil {
			return 0, u.err // at io.EOF the held NULs are the unwritten tail: dropped
		}
		if len(p) == 0 {
			return 0, nil
		}
		n, err := u.r.Read(p)
		u.err = err
		if n == 0 {
			continue
		}
		end := dataEnd(p[:n])
		switch {
		case end == 0:
			u.held += int64(n)
		case u.held > 0:
			// Data after held NULs: they are data too, and go out first.
			u.owed, u.held = u.held, int64(n-end)
			u.carry = append(u.carry[:0], p[:end]...)
		default:
			u.held = int64(n - end)
			return end, nil
		}
	}
}

// nulOffset returns the offset in the segment of the first NUL byte in a line that starts at
// lineStart, if it has one: unwritten space with data after it, which no writer leaves except
// mid-write (a crash, or a read racing the write) and which is otherwise corruption or tampering.
func nulOffset(line []byte, lineStart int64) (int64, bool) {
	i := bytes.IndexByte(line, 0)
	if i < 0 {
		return 0, false
	}
	return lineStart + int64(i), true
}
