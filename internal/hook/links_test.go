package hook

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
)

func TestWithLinkTargets(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".env", "README.md"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".env", filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(dir, "etc")); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(t.TempDir(), "ws") // the project reached through a link
	if err := os.Symlink(dir, ws); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cwd   string
		paths []string
		added []string
	}{
		{dir, []string{"README.md", filepath.Join(dir, "README.md")}, nil},
		{dir, []string{"notes.txt"}, []string{filepath.Join(dir, ".env")}},
		{dir, []string{filepath.Join(dir, "etc", "shadow-to-be")}, []string{"/etc/shadow-to-be"}},
		{dir, []string{filepath.Join(dir, "missing", "deeper")}, nil},
		{ws, []string{"README.md", filepath.Join(ws, "README.md")}, nil}, // not judged twice outside the project
		{ws, []string{"notes.txt"}, []string{filepath.Join(ws, ".env")}},
		{"", []string{"notes.txt"}, nil}, // nothing to follow it from
	} {
		call := &safetyv1alpha1.AgentToolCall{}
		call.Spec.Arguments.Paths = slices.Clone(tc.paths)
		if err := withLinkTargets(call, tc.cwd, ""); err != nil {
			t.Fatal(err)
		}
		if got := call.Spec.Arguments.Paths[len(tc.paths):]; !slices.Equal(got, tc.added) && len(got)+len(tc.added) > 0 {
			t.Errorf("cwd %s, paths %v: added %v, want %v", tc.cwd, tc.paths, got, tc.added)
		}
	}
}

func TestWithTreeLinkTargets(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(dir, "conf")); err != nil {
		t.Fatal(err)
	}
	keys := []string{"path"}
	for in, want := range map[string]string{
		`{"pattern":"x","path":"conf"}`:                 `{"pattern":"x","path":["conf","/etc"]}`,
		`{"pattern":"x","path":"` + dir + `/conf/ssl"}`: `{"pattern":"x","path":["` + dir + `/conf/ssl","/etc/ssl"]}`,
		`{"pattern":"x","path":"src"}`:                  `{"pattern":"x","path":"src"}`,
		`{"pattern":"x"}`:                               `{"pattern":"x"}`,
		// a repeated key keeps its bytes, and both members, for toolcall.Build to refuse
		`{"path":"src","path":"conf"}`: `{"path":"src","path":["conf","/etc"]}`,
	} {
		got, err := withTreeLinkTargets([]byte(in), keys, dir, "")
		if err != nil || string(got) != want {
			t.Errorf("withTreeLinkTargets(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
}

// The links followed are those of the path Claude Code's file tools open (its expandPath): white
// space trimmed, "~/" the home directory, ".." taken lexically, names in NFC. Followed as written,
// each of these led nowhere, the engine judged the name alone, and the tool read .env.
func TestLinkTargetOfThePathTheToolOpens(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	for _, f := range []string{".env", "README.md"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := filepath.Join(dir, ".env")
	for link, target := range map[string]string{
		filepath.Join(dir, "notes.txt"):     ".env",
		filepath.Join(dir, "caf\u00e9.txt"): ".env", // NFC
		filepath.Join(dir, "conf"):          "/etc",
		filepath.Join(home, "n.txt"):        env,
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	for p, want := range map[string]string{
		" " + dir + "/notes.txt":      env,
		dir + "/notes.txt \u00a0":     env,
		"\ufeff" + dir + "/notes.txt": env,
		"\u2003notes.txt":             env,
		"~/n.txt":                     env,
		dir + "/nothere/../notes.txt": env,
		dir + "/conf/../notes.txt":    env, // not /etc/../notes.txt, as the kernel would take it
		"conf/../notes.txt":           env,
		dir + "/cafe\u0301.txt":       env, // NFD
		" " + dir + "/conf":           "/etc",
		// near misses: nothing further to judge
		" " + dir + "/README.md":             "",
		"~/README.md":                        "",
		"~" + filepath.Base(home) + "/n.txt": "", // "~user" is a directory below cwd to the tool
		dir + "/notes.txt\u0085":             "", // not JavaScript's white space: another file
	} {
		got, ok := linkTarget(p, dir, "")
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("linkTarget(%q) = %q, want %q", p, got, want)
		}
	}
}
