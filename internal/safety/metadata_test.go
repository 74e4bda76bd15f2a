package safety

import (
	"fmt"
	"testing"
)

// The metadata service's address in every spelling a URL parser or inet_aton reads, and the
// addresses and words around it that are not it.
func TestNamesMetadata(t *testing.T) {
	for _, w := range []string{
		"http://169.254.169.254/latest/meta-data/iam/security-credentials/",
		"169.254.169.254", "http://169.254.169.254:80/", "user@169.254.169.254",
		"http://2852039166/", "http://0xa9fea9fe/", "http://0XA9FEA9FE/", "http://0251.0376.0251.0376/",
		"http://0251.00376.0251.0376/", "http://169.254.43518/", "http://169.16689662/", "http://0xa9.0xfe.0xa9.0xfe/",
		"http://[::ffff:169.254.169.254]/", "http://[::ffff:a9fe:a9fe]/", "http://[fd00:ec2::254]/latest/api/token",
		"http://[fd00:ec2::254%25eth0]/", "http://169.254.170.2/v2/credentials", "http://100.100.100.200/latest/meta-data/",
		"http://METADATA.google.internal/computeMetadata/v1/", "http://metadata.goog/", "--resolve=x:80:169.254.169.254",
		"http://169.254.169.254.nip.io/", "url=http://169.254.169.254",
	} {
		if !namesMetadata(w, false) {
			t.Errorf("%q: the metadata service not seen", w)
		}
	}
	for _, w := range []string{
		"http://169.254.1.1/", "http://169.254.169.253/", "10.0.0.1", "1.2.3", "v1.2.3", "src/a.go", "deadbeef",
		"0xa9fea9ff", "http://[fd00:ec2::255]/", "2852039167", "https://example.com/metadata/google",
		"169.254.169.254.1", "0o251.0376.0251.0376", "1_69.254.169.254", "", ".", ":::",
	} {
		if namesMetadata(w, false) {
			t.Errorf("%q: taken for the metadata service", w)
		}
	}
}

func FuzzInetAton(f *testing.F) {
	for _, s := range []string{"169.254.169.254", "0xa9fea9fe", "0251.0376.0251.0376", "1.2", "4294967295", "256.1.1.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := inetAton(s)
		if !ok {
			return
		}
		// What inetAton reads as an address in four plain decimal parts reads back the same.
		if plain := dotted(v); plain != s {
			if w, ok := inetAton(plain); !ok || w != v {
				t.Fatalf("%q read as %s, which reads back as %d, %v", s, plain, w, ok)
			}
		}
	})
}

func dotted(v uint32) string {
	return fmt.Sprintf("%d.%d.%d.%d", v>>24, v>>16&0xFF, v>>8&0xFF, v&0xFF)
}
