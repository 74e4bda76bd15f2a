package ledger

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"
)

// dataReader must hand on every byte before the final run of NULs, NULs inside the data
// included, however the underlying reader splits its reads.
func TestDataReaderDropsOnlyTheFinalZeros(t *testing.T) {
	z := func(n int) []byte { return make([]byte, n) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	tests := []struct{ in, want []byte }{
		{nil, nil},
		{z(5000), nil},
		{[]byte("a\n"), []byte("a\n")},
		{cat([]byte("a\n"), z(70000)), []byte("a\n")},
		{cat([]byte("a\n"), z(3), []byte("b\n"), z(9)), cat([]byte("a\n"), z(3), []byte("b\n"))},
		{cat(z(70000), []byte("x")), cat(z(70000), []byte("x"))},
		{cat([]byte("a"), z(1), []byte("b"), z(1), []byte("c"), z(2)), cat([]byte("a"), z(1), []byte("b"), z(1), []byte("c"))},
	}
	wrap := map[string]func(io.Reader) io.Reader{
		"whole":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
		"halves":   iotest.HalfReader,
		"data+EOF": iotest.DataErrReader,
	}
	for i, tt := range tests {
		for name, w := range wrap {
			got, err := io.ReadAll(dataReader(w(bytes.NewReader(tt.in))))
			if err != nil || !bytes.Equal(got, tt.want) {
				t.Errorf("case %d, %s reads: got %d bytes (%v), want %d", i, name, len(got), err, len(tt.want))
			}
		}
	}
	if err := iotest.TestReader(dataReader(bytes.NewReader(cat([]byte("ab"), z(3), []byte("cd"), z(4)))), cat([]byte("ab"), z(3), []byte("cd"))); err != nil {
		t.Fatal(err)
	}
}
