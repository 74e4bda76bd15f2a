package manifests

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/toolgate/toolgate/internal/testenv"
)

// markdownLink is an inline link's target: [text](target), a target without spaces.
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinksResolve fails for every relative link in the README and docs/*.md whose file does
// not exist, or whose #anchor names no heading of the Markdown file it points to (GitHub's
// anchors): sections are renamed and files moved, and a reader following a dead link is lost.
func TestDocsLinksResolve(t *testing.T) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{}
	checked := 0
	for _, file := range append([]string{filepath.Join(root, "README.md")}, docs...) {
		for _, l := range markdownLinks(t, file) {
			target, anchor, _ := strings.Cut(l.target, "#")
			if strings.Contains(target, ":") { // https:, mailto:: not ours to check
				continue
			}
			checked++
			dest := file
			if target != "" {
				dest = filepath.Join(filepath.Dir(file), target)
			}
			if _, err := os.Stat(dest); err != nil {
				t.Errorf("%s:%d: link %q: %v", rel(root, file), l.line, l.target, err)
				continue
			}
			if anchor == "" || !strings.HasSuffix(dest, ".md") {
				continue
			}
			if anchors[dest] == nil {
				anchors[dest] = headingAnchors(t, dest)
			}
			if !anchors[dest][anchor] {
				t.Errorf("%s:%d: link %q: %s has no heading with the anchor #%s",
					rel(root, file), l.line, l.target, rel(root, dest), anchor)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found: the pattern no longer matches the docs")
	}
}

// link is one link target and the line it is on.
type link struct {
	target string
	line   int
}

// markdownLinks is every inline link of file outside fenced code blocks.
func markdownLinks(t *testing.T, file string) []link {
	t.Helper()
	var links []link
	for i, line := range markdownLines(t, file) {
		for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
			links = append(links, link{target: m[1], line: i + 1})
		}
	}
	return links
}

// markdownLines is file's lines with those of fenced code blocks (and the fences) blanked, so
// numbering stays that of the file.
func markdownLines(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	fenced := false
	for i, line := range lines {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			lines[i] = ""
		} else if fenced {
			lines[i] = ""
		}
	}
	return lines
}

// headingAnchors is the anchors GitHub gives file's headings: the text without code marks and
// link targets, lower case, every character but letters, digits, spaces, '-' and '_' dropped,
// spaces as '-', and a repeated anchor numbered from -1.
func headingAnchors(t *testing.T, file string) map[string]bool {
	t.Helper()
	linkText := regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	seen := map[string]int{}
	anchors := map[string]bool{}
	for _, line := range markdownLines(t, file) {
		text, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !strings.HasPrefix(line, "#") || !ok {
			continue
		}
		text = linkText.ReplaceAllString(strings.ReplaceAll(text, "`", ""), "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(text)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		anchor := b.String()
		if n := seen[anchor]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", anchor, n)] = true
		} else {
			anchors[anchor] = true
		}
		seen[anchor]++
	}
	return anchors
}

// rel is path relative to the repository's root, for messages.
func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil {
		return r
	}
	return path
}
