package ledger

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
)

// checkLeftover compares the uncompressed copy an interrupted compression left beside a gzip
// segment with the gzip's data. Compression renames the gzip into place only after reading it
// back and comparing, so a genuine leftover holds exactly the same data (its zero tail aside);
// one that differs was written by someone else. Verify reports it and Open refuses to delete it:
// an auditor reading the plain file would read records verify never checked, and removing it
// would destroy whichever of the two is the evidence.
func checkLeftover(dir string, s segment) error {
	gz, err := dataDigest(dir, s)
	if err != nil {
		return err
	}
	plain := s
	plain.gz = false
	pd, err := dataDigest(dir, plain)
	if err != nil {
		return err
	}
	if !bytes.Equal(gz, pd) {
		return fmt.Errorf("%w: %s, the uncompressed copy an interrupted compression left, differs from %s: "+
			"one of them was altered; keep both", ErrCorrupt, s.name, s.file())
	}
	return nil
}

// dataDigest is the sha256 of a segment file's data (decompressed, without its zero tail).
func dataDigest(dir string, s segment) ([]byte, error) {
	rc, err := openSegment(dir, s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.file(), err)
	}
	defer func() { _ = rc.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, rc); err != nil {
		return nil, fmt.Errorf("%s: %w", s.file(), err)
	}
	return h.Sum(nil), nil
}
