package main

import (
	"os"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/testenv"
)

// The command list docs/plugin.md shows under "$ kubectl toolgate --help" is the one --help
// prints: a command added (replay was) appears in the docs too.
func TestDocsListTheCommands(t *testing.T) {
	doc := pluginDoc(t)
	_, block, ok := strings.Cut(doc, "$ kubectl toolgate --help\n")
	if !ok {
		t.Fatal("docs/plugin.md shows no '$ kubectl toolgate --help'")
	}
	block, _, _ = strings.Cut(block, "```")
	code, out, _ := runCLI(t, "--help")
	if code != exitOK {
		t.Fatalf("--help: exit %d", code)
	}
	commands := func(s string) string {
		_, list, _ := strings.Cut(s, "Available Commands:\n")
		list, _, _ = strings.Cut(list, "\n\n")
		return strings.TrimSpace(list)
	}
	if got, want := commands(block), commands(out); got != want {
		t.Errorf("docs/plugin.md lists the commands\n%s\n--help lists them\n%s", got, want)
	}
}

// pluginDoc is docs/plugin.md.
func pluginDoc(t *testing.T) string {
	t.Helper()
	path, err := testenv.Path("docs", "plugin.md")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(doc)
}
