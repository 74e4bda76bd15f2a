package main

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// What the plugin says about the kubectl connection flags — the root's help, the Global flags
// line of every command's help, 'options', docs/plugin.md's "Connection flags" — names every
// command that refuses them. They said every command took them while 'ledger tail', whose -n is
// its number of records, refuses each as an unknown flag (exit 2).
func TestConnectionFlagsTextNamesTheCommandsThatRefuseThem(t *testing.T) {
	var refusing []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" {
				continue
			}
			if sub.Runnable() && !sub.HasSubCommands() {
				path := strings.TrimPrefix(sub.CommandPath(), "kubectl toolgate ")
				args := append(strings.Fields(path), "--context", "x", "--help")
				if code, _, _ := runCLI(t, args...); code != exitOK {
					refusing = append(refusing, path)
				}
			}
			walk(sub)
		}
	}
	walk(newRootCommand(&cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}))
	if len(refusing) == 0 {
		t.Fatal("no command refuses the connection flags: this test shows nothing (ledger tail did)")
	}

	doc := pluginDoc(t)
	_, section, _ := strings.Cut(doc, "\n## Connection flags\n")
	section, _, _ = strings.Cut(section, "\n## ")
	_, rootHelp, _ := runCLI(t, "--help")
	_, ledgerHelp, _ := runCLI(t, "ledger", "--help")
	_, options, _ := runCLI(t, "options")
	texts := map[string]string{
		"--help":                           rootHelp,
		"ledger --help (Global flags)":     ledgerHelp[strings.Index(ledgerHelp, "Global flags"):],
		"options":                          options,
		"docs/plugin.md, Connection flags": section,
	}
	for name, text := range texts {
		text = strings.Join(strings.Fields(text), " ")
		for _, c := range refusing {
			if !strings.Contains(text, "'"+c+"'") && !strings.Contains(text, "`"+c+"`") && !strings.Contains(text, " "+c+" ") {
				t.Errorf("%s does not name %q, which refuses the connection flags: %.400s", name, c, text)
			}
		}
		for _, claim := range []string{"every command takes", "passed to any command:", "Every command takes"} {
			if strings.Contains(text, claim) {
				t.Errorf("%s says %q: %.400s", name, claim, text)
			}
		}
	}
}
