package ledger

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Segment files are named YYYY-MM-DD.NNNNNNNN.jsonl (.gz once compressed): the UTC day the
// segment was opened and its index in the writer's chain. The index orders segments; the date
// is for people and for daily sealing.
const (
	segmentExt = ".jsonl"
	gzipExt    = ".gz"
	headFile   = "head"
	lockFile   = "lock"
	dateLayout = "2006-01-02"
)

func segmentName(day string, index uint64) string {
	return fmt.Sprintf("%s.%08d%s", day, index, segmentExt)
}

func dayOf(t time.Time) string { return t.UTC().Format(dateLayout) }

// segment is one segment file of a chain.
type segment struct {
	name  string // without .gz: the name the header and seal records carry
	index uint64
	day   string
	gz    bool
	// plainLeftover: both name and name.gz exist, because compression stopped between the
	// rename and the removal of the original. The .gz is complete (it was synced before the
	// rename), so it is the segment.
	plainLeftover bool
	size          int64 // bytes on disk of the file that is the segment
}

func (s segment) file() string {
	if s.gz {
		return s.name + gzipExt
	}
	return s.name
}

// parseSegmentName returns the index and day of a segment file name (with or without .gz).
func parseSegmentName(n string) (index uint64, day string, gz, ok bool) {
	n, gz = strings.CutSuffix(n, gzipExt)
	base, found := strings.CutSuffix(n, segmentExt)
	if !found {
		return 0, "", false, false
	}
	day, num, found := strings.Cut(base, ".")
	if !found || len(num) < 8 {
		return 0, "", false, false
	}
	if _, err := time.Parse(dateLayout, day); err != nil {
		return 0, "", false, false
	}
	index, err := strconv.ParseUint(num, 10, 64)
	if err != nil || index == 0 || segmentName(day, index) != n {
		return 0, "", false, false
	}
	return index, day, gz, true
}

// listSegments returns a chain's segments ordered by index. Other files (head, lock, temporary
// and torn-tail files) are ignored; a symbolic link of any name is ErrSymlink, as nothing a
// journal writes is one and skipping it would let a spliced file pass as a missing one.
func listSegments(dir string) ([]segment, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	byIndex := map[uint64]*segment{}
	for _, e := range ents {
		if e.Type()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("%w: %s", ErrSymlink, filepath.Join(dir, e.Name()))
		}
		if !e.Type().IsRegular() {
			continue
		}
		index, day, gz, ok := parseSegmentName(e.Name())
		if !ok {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		name := segmentName(day, index)
		s, seen := byIndex[index]
		switch {
		case !seen:
			byIndex[index] = &segment{name: name, index: index, day: day, gz: gz, size: info.Size()}
		case s.name != name:
			return nil, fmt.Errorf("%w: two segments with index %d: %s and %s", ErrCorrupt, index, s.name, name)
		default:
			s.plainLeftover = true
			if gz {
				s.gz, s.size = true, info.Size()
			}
		}
	}
	out := make([]segment, 0, len(byIndex))
	for _, s := range byIndex {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b segment) int { return cmp.Compare(a.index, b.index) })
	return out, nil
}

// openSegment returns a reader over a segment's data: its decompressed bytes up to the
// unwritten (zero) space at its end, if it has any (see dataReader).
func openSegment(dir string, s segment) (io.ReadCloser, error) {
	f, err := openNoFollow(filepath.Join(dir, s.file()), os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	if !s.gz {
		return dataCloser{Reader: dataReader(f), Closer: f}, nil
	}
	br := bufio.NewReader(f)
	zr, err := gzip.NewReader(br)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%s: %w", s.file(), err)
	}
	zr.Multistream(false)
	return dataCloser{Reader: dataReader(oneMember{zr: zr, rest: br}), Closer: &gzipFile{Reader: zr, f: f}}, nil
}

type dataCloser struct {
	io.Reader
	io.Closer
}

type gzipFile struct {
	*gzip.Reader
	f *os.File
}

func (g *gzipFile) Close() error {
	err := g.Reader.Close()
	if cerr := g.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// lineReader reads newline-terminated lines, reporting an unterminated final piece separately.
type lineReader struct {
	r      *bufio.Reader
	line   int   // number of the last line returned, from 1
	offset int64 // bytes before the last line returned
	next   int64
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next line without its newline. At the end it returns io.EOF, or errTorn with
// the unterminated bytes when the data does not end in a newline. A line longer than
// MaxLineBytes (terminated or not) is errLineTooLong, found after reading at most that much: no
// journal writes one, so it is damage or a planted file, and its memory is bounded.
func (lr *lineReader) Next() ([]byte, error) {
	var b []byte
	var err error
	for {
		var frag []byte
		frag, err = lr.r.ReadSlice('\n')
		n := len(b) + len(frag)
		if err == nil {
			n-- // the newline
		}
		if n > MaxLineBytes {
			lr.offset = lr.next
			return nil, fmt.Errorf("line %d: %w", lr.line+1, errLineTooLong)
		}
		if len(b)+len(frag) > cap(b) && b != nil {
			// Grow by doubling, capped at the limit: append's gentler growth for large slices
			// allocated four times a long line's size on the way to refusing it.
			nb := make([]byte, len(b), min(max(2*cap(b), len(b)+len(frag)), MaxLineBytes+1))
			copy(nb, b)
			b = nb
		}
		b = append(b, frag...) // a copy, as ReadBytes returns: callers keep lines
		if !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
	}
	lr.offset = lr.next
	lr.next += int64(len(b))
	if errors.Is(err, io.EOF) {
		if len(b) == 0 {
			return nil, io.EOF
		}
		lr.line++
		return b, errTorn
	}
	if err != nil {
		return b, err
	}
	lr.line++
	return b[:len(b)-1], nil
}

var errTorn = errors.New("unterminated final line")

// errLineTooLong is a line no journal writes; it is ErrCorrupt.
var errLineTooLong = fmt.Errorf("%w: line longer than %d bytes (MaxLineBytes)", ErrCorrupt, MaxLineBytes)

// firstRecord and lastRecord read a segment's first and last records.
func firstRecord(dir string, s segment) (parsed, error) {
	rc, err := openSegment(dir, s)
	if err != nil {
		return parsed{}, err
	}
	defer func() { _ = rc.Close() }()
	line, err := newLineReader(rc).Next()
	if err != nil {
		return parsed{}, fmt.Errorf("%s: first record: %w", s.file(), err)
	}
	p, err := parseLine(line)
	if err != nil {
		return parsed{}, fmt.Errorf("%s line 1: %w", s.file(), err)
	}
	return p, nil
}

func lastRecord(dir string, s segment) (parsed, error) {
	if !s.gz {
		return lastRecordPlain(filepath.Join(dir, s.name))
	}
	rc, err := openSegment(dir, s)
	if err != nil {
		return parsed{}, err
	}
	defer func() { _ = rc.Close() }()
	lr := newLineReader(rc)
	var last []byte
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return parsed{}, fmt.Errorf("%s line %d: %w", s.file(), lr.line, err)
		}
		last = append(last[:0], line...)
	}
	if last == nil {
		return parsed{}, fmt.Errorf("%s: empty segment", s.file())
	}
	p, err := parseLine(last)
	if err != nil {
		return parsed{}, fmt.Errorf("%s line %d: %w", s.file(), lr.line, err)
	}
	return p, nil
}

// lastRecordPlain reads backwards from the end of an uncompressed segment's data, so finding a
// sealed segment's seal does not read the whole file. Its memory is bounded by the last line,
// not by the file: the unwritten space after the data (a live segment's zeros, or a multi-GB
// sparse run someone planted) is skipped one fixed window at a time.
func lastRecordPlain(path string) (parsed, error) {
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return parsed{}, err
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat()
	if err != nil {
		return parsed{}, err
	}
	size, err := dataSize(f, info.Size())
	if err != nil {
		return parsed{}, err
	}
	var tail []byte
	for chunk := int64(4096); ; chunk *= 4 {
		start := max(size-chunk, 0)
		tail = make([]byte, size-start)
		if _, err := f.ReadAt(tail, start); err != nil && err != io.EOF {
			return parsed{}, err
		}
		if len(tail) == 0 || tail[len(tail)-1] != '\n' {
			return parsed{}, fmt.Errorf("%s: %w", filepath.Base(path), errTorn)
		}
		if i := bytes.LastIndexByte(tail[:len(tail)-1], '\n'); i >= 0 || start == 0 {
			tail = tail[i+1 : len(tail)-1]
			break
		}
	}
	p, err := parseLine(tail)
	if err != nil {
		return parsed{}, fmt.Errorf("%s last line: %w", filepath.Base(path), err)
	}
	return p, nil
}

// dataWindow is how much of a segment's unwritten tail dataSize reads at a time.
const dataWindow = 64 << 10

// dataSize is where the data of the size bytes of f ends (dataEnd over the whole file), found by
// reading backwards one window at a time.
func dataSize(f io.ReaderAt, size int64) (int64, error) {
	buf := make([]byte, min(size, dataWindow))
	for end := size; end > 0; {
		start := max(end-dataWindow, 0)
		w := buf[:end-start]
		if _, err := f.ReadAt(w, start); err != nil && err != io.EOF {
			return 0, err
		}
		if n := dataEnd(w); n > 0 {
			return start + int64(n), nil
		}
		end = start
	}
	return 0, nil
}
