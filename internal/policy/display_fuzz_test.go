package policy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Whatever the agent writes, what a person is shown of it shows itself: the shell word, the text
// for reading, and a JSON line that still decodes to the same value.
func FuzzDisplayShowsItself(f *testing.F) {
	for _, s := range append([]string{"", "ls -la", "it's", `a\b`, "\xff\xfe", "\u202e\u200b\u2028"}, hiddenText...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if q := ShellQuote(s); !showsItself(q) {
			t.Fatalf("ShellQuote(%q) = %q, which does not show itself", s, q)
		} else if strings.HasPrefix(q, "$'") != !plainlyVisible(s) && q != "''" {
			t.Fatalf("ShellQuote(%q) = %q: $'...' exactly when a character does not show itself", s, q)
		}
		if v := Visible(s); !showsItself(v) {
			t.Fatalf("Visible(%q) = %q, which does not show itself", s, v)
		}
		line, err := json.Marshal(map[string]string{"command": s})
		if err != nil {
			t.Fatal(err)
		}
		shown := VisibleJSON(line)
		if !showsItself(string(shown)) {
			t.Fatalf("VisibleJSON(%s) = %s, which does not show itself", line, shown)
		}
		var before, after map[string]string
		if err := json.Unmarshal(line, &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(shown, &after); err != nil {
			t.Fatalf("VisibleJSON(%s) = %s, which does not decode: %v", line, shown, err)
		}
		if before["command"] != after["command"] {
			t.Fatalf("VisibleJSON changed the value: %q, then %q", before["command"], after["command"])
		}
		if plainlyVisible(string(line)) && !bytes.Equal(shown, line) {
			t.Fatalf("VisibleJSON(%s) = %s: a line that shows itself is left as it is", line, shown)
		}
	})
}
