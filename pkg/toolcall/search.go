package toolcall

import (
	"strings"

	"github.com/toolgate/toolgate/internal/policy"
)

// Search is what a tool that searches directory trees reads: every file below each root.
type Search struct {
	// Pattern is what is searched for; "" matches every line.
	Pattern string
	// Include narrows the files searched by a glob of their names; "" searches every file.
	Include string
	// Roots are the trees searched; none, or an empty one, is the working directory.
	Roots []string
}

// SearchCommand is the one shell command every front door gives the engine for a search of
// trees: `grep -r [--include=GLOB] -e PATTERN -- ROOT...`, each word quoted. As a path alone a
// root is one file to the engine, whose path policy then never sees the protected files inside
// it (/etc/shadow under /etc, .env in the project); as `grep -r` the engine knows the whole tree
// is read, and judges it as it judges the same search through a shell. The pattern follows -e
// and the roots follow --, so that neither can be read as an option or as each other.
func SearchCommand(s Search) string {
	words := []string{"grep", "-r"}
	if s.Include != "" {
		words = append(words, "--include="+policy.ShellQuote(s.Include))
	}
	words = append(words, "-e", policy.ShellQuote(s.Pattern), "--")
	if len(s.Roots) == 0 {
		return strings.Join(append(words, "."), " ")
	}
	for _, root := range s.Roots {
		if root == "" {
			root = "." // what a tool searches for an empty root
		}
		words = append(words, policy.ShellQuote(root))
	}
	return strings.Join(words, " ")
}
