package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// The head file records the newest durable record of a chain. It is rewritten in place (one
// pwrite, no fsync) after every commit, only after the commit's fsync, so it never claims more
// than is on disk. It is a witness: a segment cut at a line boundary still hash-chains, and only
// the head file shows that durable records are gone. It is not covered by the chain, so it
// catches careless truncation, not a forger who edits it too (anchor the head hash elsewhere, as
// the AuditLedger status does, for that).
const headSize = 256

type headState struct {
	Seq     uint64 `json:"seq"`
	Hash    string `json:"hash"`
	Segment string `json:"segment"`
}

type headWriter struct {
	f   *os.File
	buf []byte
}

func openHead(dir string) (*headWriter, error) {
	f, err := openNoFollow(filepath.Join(dir, headFile), os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, err
	}
	return &headWriter{f: f, buf: make([]byte, headSize)}, nil
}

// write stores the head padded to a fixed size, so a shorter head never leaves stale bytes.
func (h *headWriter) write(p position, segment string) error {
	b := h.buf[:0]
	b = append(b, `{"seq":`...)
	b = strconv.AppendUint(b, p.seq, 10)
	b = append(b, `,"hash":`...)
	b = appendString(b, p.hash)
	b = append(b, `,"segment":`...)
	b = appendString(b, segment)
	b = append(b, '}')
	n := len(b)
	if n >= headSize {
		return errors.New("head record too long")
	}
	b = b[:headSize]
	for i := n; i < headSize-1; i++ {
		b[i] = ' '
	}
	b[headSize-1] = '\n'
	_, err := h.f.WriteAt(b, 0)
	return err
}

func (h *headWriter) close() error { return h.f.Close() }

// readHead returns the head file's content; ok is false when there is none.
func readHead(dir string) (h headState, ok bool, err error) {
	b, err := readSmallFile(filepath.Join(dir, headFile))
	if os.IsNotExist(err) || err == nil && len(bytes.TrimSpace(b)) == 0 {
		return headState{}, false, nil
	}
	if err != nil {
		return headState{}, false, err
	}
	if err := json.Unmarshal(b, &h); err != nil || !isHex(h.Hash) {
		return headState{}, false, fmt.Errorf("head file unreadable: %q", bytes.TrimSpace(b))
	}
	return h, true, nil
}
