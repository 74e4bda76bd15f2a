package ledger

import (
	"strings"
	"testing"
)

// Any white space between an Authorization header's name, its scheme and its token separates
// them (headerSpace): a bare CR, \v, \f, U+0085 and U+00A0 as much as a space, and a newline
// before a blank (a folded header; a newline before anything else ends it: secrets_rv31_test.go). Before, a CR after
// the scheme word hid the token once and the scheme word the second time (redaction was not
// idempotent: FuzzRedactSecrets), and \v, U+0085 and U+00A0 recorded the token.
func TestAuthorizationWhiteSpaceSeparates(t *testing.T) {
	for _, sp := range []string{" ", "\t", "\r", "\n ", "\r\n\t", "\v", "\f", "\u0085", "\u00a0", "\u2028", "\u3000", "\r\v"} {
		for _, tc := range []struct {
			in, want string
			across   bool // sp lies between the name and the token
		}{
			{"Authorization:A0000000" + sp + "00000000", "Authorization:A0000000" + sp + "[REDACTED:authorization]", true},
			{"Authorization: Bearer" + sp + "abcdefgh1234 x", "Authorization: Bearer" + sp + "[REDACTED:authorization] x", true},
			{"Authorization:" + sp + "Bearer abcdefgh1234", "Authorization:" + sp + "Bearer [REDACTED:authorization]", false},
			{"Authorization" + sp + ": abcdefgh1234", "Authorization" + sp + ": [REDACTED:authorization]", true},
			{"bearer" + sp + "abcdefgh1234", "bearer" + sp + "[REDACTED:authorization]", true},
		} {
			if tc.across && strings.Contains(sp, "\n") {
				// A folded header is no shell's: bash runs the next line as a command, and the
				// record keeps it (shellMask; docs/ledger.md, "What stays recorded, by choice").
				tc.want = tc.in
			}
			out := RedactSecrets(tc.in)
			if out != tc.want {
				t.Errorf("%q: got %q, want %q", tc.in, out, tc.want)
			}
			if again := RedactSecrets(out); again != out {
				t.Errorf("%q: not idempotent: %q -> %q", tc.in, out, again)
			}
		}
	}
	// Near-misses: no separator, a short token, a word that only ends in bearer.
	for _, s := range []string{"bearerabcdefgh1234", "Authorization:\vBearer\vshort", "xbearer\vabcdefgh1234", "Authorization\u00a0is required for abcdefgh1234"} {
		if out := RedactSecrets(s); out != s {
			t.Errorf("%q: got %q, want it unchanged", s, out)
		}
	}
	if s := "Authorization: Basic\r" + strings.Repeat("A", 12); RedactSecrets(RedactSecrets(s)) != RedactSecrets(s) {
		t.Errorf("%q: not idempotent", s)
	}
}
