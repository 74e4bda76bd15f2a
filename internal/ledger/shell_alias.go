package ledger

import "strings"

// Aliases and parser options, as shellMask reads them. bash expands an alias only in a command's
// first word, and only one the script defined (a non-interactive shell starts with none), so the
// rest of a text is read blind from the first use of a name an alias command in it defined:
// alias q="echo '" makes q; mysql -p'X;rm -rf /data' run rm. The command is read as bash runs it,
// after quote removal and behind builtin or command ('alias', \alias, builtin alias); eval and a
// computed command name ($a q=…) may be alias too, so their words NAME=… define NAME. A use is
// looked up without its quotes and line continuations (q\<newline>;). A word alias, shopt or
// enable elsewhere (prose, a workflow's shopt -s globstar) changes nothing. shopt changes how bash
// reads what follows with two options only: extglob (@(…|…) is one word: a # or | in it is no
// comment or pipe) and interactive_comments (unset, a # begins no comment); naming either reads
// the rest blind. BASH_ALIASES defines aliases without the alias command: an assignment to it
// (BASH_ALIASES[q]=…), or a word naming it (quotes removed) of a command that assigns to the
// variables it names (declare, printf -v, read …), or a computed word of declare -n, reads the
// rest blind; prose naming it does not.

// The commands whose words setting reads.
const (
	settingAlias   byte = 1 + iota
	settingShopt        // shopt
	settingDeclare      // declare, typeset, local: -n makes a name a reference (settingNameref)
	settingNameref      // declare -n: a computed word may name BASH_ALIASES
	settingAssigns      // printf, read, mapfile, readarray, export, readonly: assign the names they get
)

// plainName is word w as bash runs it: without quotes, backslashes and line continuations.
func plainName(w string) string {
	if !strings.ContainsAny(w, "\"'\\") {
		return w
	}
	return plainNameReplacer.Replace(w)
}

var plainNameReplacer = strings.NewReplacer("\\\n", "", `"`, "", `'`, "", `\`, "")

// commandSettings notes, for command name (plainName of its first word w), which of its words
// setting reads, or that the next word is still the command's (builtin, command).
func commandSettings(f *shellFrame, w, name string) {
	switch name {
	case "alias", "eval":
		f.settings = settingAlias
	case "shopt":
		f.settings = settingShopt
	case wordBuiltin, wordCommand:
		f.cmdPos, f.options = true, true // builtin alias q=…: alias is the command
	case "declare", "typeset", "local":
		f.settings = settingDeclare
	case "printf", "read", "mapfile", "readarray", "export", "readonly":
		f.settings = settingAssigns
	default:
		if strings.ContainsAny(w, "$`") {
			f.settings = settingAlias // a=alias; $a q=…
		}
	}
}

// setting reads word w of a command whose words define an alias or set a parser option.
func (l *shellLexer) setting(f *shellFrame, w string) {
	switch f.settings {
	case settingAlias:
		name, _, ok := strings.Cut(plainName(w), "=")
		if !ok {
			return
		}
		if k := strings.LastIndexAny(name, " \t\n"); k >= 0 {
			name = name[k+1:] // eval 'alias q=…'
		}
		if l.aliases == nil {
			l.aliases = map[string]bool{}
		}
		l.aliases[name] = true
	case settingShopt:
		if strings.Contains(w, "extglob") || strings.Contains(w, "interactive_comments") {
			l.blind = true
		}
	default:
		if strings.Contains(plainName(w), "BASH_ALIASES") || f.settings == settingNameref && strings.ContainsAny(w, "$`") {
			l.blind = true
		}
		if f.settings == settingDeclare && len(w) > 1 && w[0] == '-' && strings.IndexByte(w, 'n') > 0 {
			f.settings = settingNameref
		}
	}
}

// assignsAlias reports whether word w, an assignment in command position, assigns to
// BASH_ALIASES (BASH_ALIASES[q]=…, BASH_ALIASES+=(…)).
func assignsAlias(w string) bool { return strings.HasPrefix(w, "BASH_ALIASES") }
