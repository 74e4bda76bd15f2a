package safety

import (
	"os/exec"
	"path"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// bracketRows are bracket expressions in every form bash reads; exact says the engine's reading
// must equal bash's on ASCII, not only hold it (a reversed range, an unknown class and a
// collating element of a name are read as more than bash matches, erring toward a match).
var bracketRows = []struct {
	pattern string
	exact   bool
}{
	{"[]]", true}, {"[!]]", true}, {"[^]]", true}, {"[].]", true}, {"[]e]", true}, {"[!]e]", true},
	{"[a-]", true}, {"[-a]", true}, {"[]-a]", true}, {"[!a-c]", true}, {"[!-]", true}, {"[!!]", true},
	{"[^a]", true}, {"[.]", true}, {"[A-Z]", true}, {"[Z-a]", true}, {"[a-c-e]", false}, {"[z-a]", false},
	{"[[:alpha:]]", true}, {"[[:space:]x]", true}, {"[[:punct:]]", true}, {"[[:digit:]x]", true},
	{"[![:alpha:]]", true}, {"[[:upper:]]", false}, {"[[:lower:]]", false}, {"[[:xdigit:]]", true},
	{"[[:foo:]e]", false}, {"[[=e=]]", true}, {"[[.e.]]", true}, {"[[.-.]a]", true}, {"[[.hyphen.]]", false},
	{`[\]]`, true}, {`[\!a]`, true}, {`[a\-c]`, true}, {"[[]", true}, {"[[:]", false}, {"[[.]", true}, {"[[.a]", true}, {"[[:a]]", false}, {"[[=]", true},
	{"[]-f]", true}, {"[!]-f]", true}, {"[*?]", true}, {"[\\\\]", true},
}

// TestBracketsAgreeWithBash checks, against bash itself, that every matcher the engine runs an
// agent's glob through (doublestar, path.Match, globsMeet) matches each ASCII character a bracket
// expression matches in bash, folded or not, and no other where the reading is exact.
func TestBracketsAgreeWithBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	var chars []string
	for c := byte(0x20); c < 0x7f; c++ {
		if c != '/' {
			chars = append(chars, string(c))
		}
	}
	// Names of two characters tell a bracket from a literal "[" and a bracket after it ("[[.]").
	chars = append(chars, "[.", "[a", "[:", ":]", "a]", "[=", "ax", "x]")
	var script strings.Builder
	for _, r := range bracketRows {
		script.WriteString("p='" + strings.ReplaceAll(r.pattern, "'", `'\''`) + "'\n")
		for _, c := range chars {
			script.WriteString("c='" + strings.ReplaceAll(c, "'", `'\''`) + "'; [[ $c == $p ]] && printf 1 || printf 0\n")
		}
		script.WriteString("echo\n")
	}
	cmd := exec.Command(bash)
	cmd.Stdin = strings.NewReader(script.String())
	cmd.Env = []string{"LC_ALL=C"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, r := range bracketRows {
		canon, _ := canonicalGlob(r.pattern)
		for j, c := range chars {
			want := lines[i][j] == '1'
			ds := doublestar.MatchUnvalidated(canon, c)
			pm, _ := path.Match(canon, c)
			folded := doublestar.MatchUnvalidated(foldName(canon), foldName(c))
			meet := globsMeet(r.pattern, `\`+c)
			if want && (!ds || !pm || !folded || !meet) {
				t.Errorf("%s (canonical %q) matches %q in bash; doublestar %v, path.Match %v, folded %v, globsMeet %v", r.pattern, canon, c, ds, pm, folded, meet)
			}
			// A bracket that may match beyond ASCII may match the Kelvin sign, which folds to k,
			// and a Unicode space, which foldPath folds to " ".
			kelvin := (c == "k" || c == " ") && strings.Contains(canon, nonASCIIRange)
			if r.exact && !want && !kelvin && (ds || pm) {
				t.Errorf("%s (canonical %q) does not match %q in bash; doublestar %v, path.Match %v", r.pattern, canon, c, ds, pm)
			}
		}
	}
}

// TestCanonicalGlobShapes holds what is not one character: an unclosed or slash-spanning "[" is
// itself, plain brackets stay as written, canonical is canonical again, and a long glob of
// brackets stays within its bound.
func TestCanonicalGlobShapes(t *testing.T) {
	for in, want := range map[string]string{
		"[":          `\[`,
		".[env":      `.\[env`,
		".[/]env":    `.\[/]env`,
		"[id].tsx":   "[id].tsx",
		"src/[a-z]*": "src/[a-z]*",
		"[0-9][0-9]": "[0-9][0-9]",
		"[[:alpha:]": `\[[\:ahlp]`,
		"x.go":       "x.go",
		`a\[b]`:      `a\[b]`,
		"[!]]nv":     "[\\ -\\.0-\\@A-Z\\[\\\\\\^-\\~\u00a1-\U0010ffff]nv",
	} {
		got, ok := canonicalGlob(in)
		if !ok || got != want {
			t.Errorf("canonicalGlob(%q) = %q, %v, want %q", in, got, ok, want)
		}
		if again, _ := canonicalGlob(got); again != got {
			t.Errorf("canonicalGlob is not idempotent on %q: %q then %q", in, got, again)
		}
	}
	long := strings.Repeat("[!a]", 4096)
	if got, ok := canonicalGlob(long); !ok || len(got) > len(long)+maxCanonicalGrowth+64 {
		t.Errorf("a glob of %d bytes became %d (%v)", len(long), len(got), ok)
	}
	// A class name too long to look for the end of, and a glob of "[" nothing closes, are not
	// read: the path they name is unknown.
	for _, g := range []string{".[[:" + strings.Repeat("a", 100) + ":]]nv", "*" + strings.Repeat("[", 4000), "*" + strings.Repeat("[[:", 1500)} {
		if _, ok := canonicalGlob(g); ok {
			t.Errorf("canonicalGlob read %q", g[:16])
		}
	}
}
