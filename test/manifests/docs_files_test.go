package manifests

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/testenv"
)

// The "Files" tables of docs/ledger.md and docs/engine.md name every non-test Go file of the
// package they describe (its subpackages' too): a reader looking for where a rule or a bound
// lives starts there, and files added without a row (credentials.go, nofollow.go, limits.go in
// the ledger; fifty-odd in the engine) were found only by grep.
func TestDocsFilesTablesNameEveryFile(t *testing.T) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	for doc, pkg := range map[string]string{"ledger.md": "internal/ledger", "engine.md": "internal/safety"} {
		data, err := os.ReadFile(filepath.Join(root, "docs", doc))
		if err != nil {
			t.Fatal(err)
		}
		_, table, ok := strings.Cut(string(data), "\n## Files\n")
		if !ok {
			t.Fatalf("docs/%s has no ## Files section", doc)
		}
		table, _, _ = strings.Cut(table, "\n## ")
		n := 0
		err = filepath.WalkDir(filepath.Join(root, pkg), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			n++
			rel, _ := filepath.Rel(filepath.Join(root, pkg), p)
			if !strings.Contains(table, "`"+filepath.ToSlash(rel)+"`") {
				t.Errorf("docs/%s's Files table does not name %s/%s", doc, pkg, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n < 10 {
			t.Fatalf("%s: only %d files found", pkg, n)
		}
	}
}
