package ledger

import "strings"

// Aliases and parser options, as shellMask reads them. bash expands an alias only in a command's
// first word, and only one the script defined (a non-interactive shell starts with none), so the
// rest of a text is read blind from the first use of a name an alias command in it defined:
// alias q="echo '" makes q; mysql -p'X;rm -rf /data' run rm. A word alias, shopt or enable
// elsewhere (prose, a workflow's shopt -s globstar) changes nothing. shopt changes how bash reads
// what follows with two options only: extglob (@(…|…) is one word: a # or | in it is no comment
// or pipe) and interactive_comments (unset, a # begins no comment); naming either reads the rest
// blind. BASH_ALIASES[q]=… defines an alias without the alias command: it reads the rest blind.

// The commands whose words setting reads.
const (
	settingAlias byte = 1 + iota
	settingShopt
)

// setting reads word w of an alias or shopt command.
func (l *shellLexer) setting(kind byte, w string) {
	switch kind {
	case settingAlias:
		name, _, ok := strings.Cut(w, "=")
		if !ok {
			return
		}
		if l.aliases == nil {
			l.aliases = map[string]bool{}
		}
		l.aliases[strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(name)] = true
	case settingShopt:
		if strings.Contains(w, "extglob") || strings.Contains(w, "interactive_comments") {
			l.blind = true
		}
	}
}

// definesAlias reports whether word w assigns to BASH_ALIASES, which defines aliases.
func definesAlias(w string) bool { return strings.Contains(w, "BASH_ALIASES") }
