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
// the rest blind. A name computed, brace-expanded or escaped (alias $n=…, alias {q,r}=…, eval
// $'alias \x71=…') is not known: it reads the rest blind too. BASH_ALIASES defines aliases
// without the alias command: an assignment to it (BASH_ALIASES[q]=…, ${BASH_ALIASES[q]=…}, eval
// 'BASH_ALIASES[q]=…'), or a word shaped as one (quotes removed, brace expansion possible) of a
// command that assigns to the variables it names (declare, printf -v, read …), or a computed
// name of declare, or any declare -n (local -n, typeset -n, eval 'declare -n r': a reference a
// later assignment may point at it, r=BASH_ALIASES; r[q]=…), reads the rest blind; prose
// naming it (printf's format, read -p's prompt, declare -p) does not.

// The commands whose words setting reads.
const (
	settingAlias      byte = 1 + iota
	settingShopt           // shopt
	settingDeclare         // declare, typeset, local: -n makes a name a reference (settingNameref)
	settingNameref         // declare -n: a computed word may name BASH_ALIASES
	settingAssigns         // printf, read, mapfile, readarray, export, readonly: assign the names they get
	settingPrintf          // printf: -v names a variable (settingPrintfName)
	settingPrintfName      // printf -v: the next word is a name, a computed one may be BASH_ALIASES[q]
	settingRead            // read: its words are names, but an option's value
	settingReadValue       // read -p, -d, -t …: the next word is a value
	settingReadName        // read -a: the next word is a name
	settingComputed        // a computed command ($a q=…): alias's words, and it may be declare -n
	settingEval            // eval: alias's words, and any $ or backquote in them is expanded again
	settingTrap            // trap: its action is code bash runs later, unseen
	settingMapfile         // mapfile, readarray: names, and -C's callback is code bash runs
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
func (l *shellLexer) commandSettings(f *shellFrame, w, name string) {
	switch name {
	case "alias":
		f.settings = settingAlias
	case "eval":
		f.settings = settingEval
	case "trap":
		f.settings = settingTrap
	case "mapfile", "readarray":
		f.settings = settingMapfile
	case "shopt":
		f.settings = settingShopt
	case wordBuiltin, wordCommand:
		f.cmdPos, f.options = true, true // builtin alias q=…: alias is the command
	case "declare", "typeset", "local":
		f.settings = settingDeclare
	case "printf":
		f.settings = settingPrintf
	case "read":
		f.settings = settingRead
	case "export", "readonly":
		f.settings = settingAssigns
	default:
		if strings.ContainsAny(w, "$`") {
			f.settings = settingComputed // a=alias; $a q=…
			// declare${IFS}-n r: the command is declare -n
			l.blind = l.blind || declaresReference(name)
		}
	}
}

// setting reads word w of a command whose words define an alias or set a parser option.
func (l *shellLexer) setting(f *shellFrame, w string) {
	switch f.settings {
	case settingAlias, settingComputed, settingEval:
		plain := plainName(w)
		if mayDeclareReference(f.settings, w, plain) {
			l.blind = true
			return
		}
		if declaresReference(plain) {
			l.blind = true // eval 'declare -n r': a reference, as declare -n is (below)
			return
		}
		name, _, ok := strings.Cut(plain, "=")
		if !ok {
			return
		}
		if raw, _, _ := strings.Cut(w, "="); strings.ContainsAny(raw, "$`{*?[") || strings.Contains(plain, "BASH_ALIASES") {
			// a computed, escaped or brace-expanded name (alias $n=…, alias {q,r}=…, eval
			// $'alias \x71=…'), or eval of an assignment to BASH_ALIASES: unknowable
			l.blind = true
			return
		}
		if k := strings.LastIndexAny(name, " \t\n"); k >= 0 {
			name = name[k+1:] // eval 'alias q=…'
		}
		if l.aliases == nil {
			l.aliases = map[string]bool{}
		}
		l.aliases[name] = true
	case settingTrap, settingMapfile:
		l.callbackSetting(f, w)
	case settingShopt:
		if strings.Contains(w, "extglob") || strings.Contains(w, "interactive_comments") {
			l.blind = true
		}
	default:
		if namesAliases(f.settings, w) {
			l.blind = true
		}
		if next, computed := nameSetting(f.settings, w); next != 0 {
			f.settings, l.blind = next, l.blind || computed
			return
		}
		f.settings = declareOption(f.settings, w)
		// a reference may be pointed at BASH_ALIASES by any later assignment (declare -n r;
		// r=BASH_ALIASES; r[q]=…), which no word of this command shows: unknowable
		l.blind = l.blind || f.settings == settingNameref
	}
}

// mayDeclareReference reports whether word w (plain: without quotes) of a computed command or
// eval may make it declare -n: e=declare; $e -n r, $e $o r or $e {-n,} r; eval "$d -n r".
func mayDeclareReference(settings byte, w, plain string) bool {
	switch settings {
	case settingComputed:
		return strings.ContainsAny(w, "$`") || unquotedBrace(w) || len(plain) > 1 && plain[0] == '-' && strings.IndexByte(plain, 'n') > 0
	case settingEval:
		return evalExpands(w)
	}
	return false
}

// evalExpands reports whether word w of eval (as written) holds a $ or backquote that eval
// expands again, quoted or not (eval "$d -n r", eval '$e -n r', eval $'\x64eclare -n r'): any
// of them may be declare -n or an alias. A $( is left as it was (eval "$(ssh-agent -s)").
func evalExpands(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] == '`' || w[i] == '$' && (i+1 == len(w) || w[i+1] != '(') {
			return true
		}
	}
	return false
}

// callbackSetting reads word w of trap or mapfile, whose action or -C callback is code bash
// runs later, unseen (trap 'declare -gn r' DEBUG, mapfile -C 'declare -gn r <<<'): such a
// word reads the rest blind. trap - INT resets, trap ” INT ignores, trap -p prints.
func (l *shellLexer) callbackSetting(f *shellFrame, w string) {
	plain := plainName(w)
	option := len(plain) > 1 && plain[0] == '-'
	switch {
	case f.settings == settingMapfile:
		l.blind = l.blind || namesAliases(settingAssigns, w) || option && strings.IndexByte(plain, 'C') > 0
	case plain == "--":
	case plain == "-" || plain == "" || option || plainCommandName(w):
		// trap cleanup EXIT runs a command the text names, as a command word there would: read
		// already (a function's body, an alias's definition), nothing is re-read unseen
		f.settings = 0
	default:
		l.blind = true
	}
}

// plainCommandName reports whether word w, as written, is a command's name and nothing else: no
// quote, expansion, blank or separator that would make it code of its own.
func plainCommandName(w string) bool {
	for i := range len(w) {
		if !keyByte(w[i]) && w[i] != '/' {
			return false
		}
	}
	return w != ""
}

// declaresReference reports whether word w of eval (or alias), quotes removed, may declare a
// reference: it names declare, typeset or local (eval 'declare -n r', eval declare -n r).
func declaresReference(w string) bool {
	return strings.Contains(w, "declare") || strings.Contains(w, "typeset") || strings.Contains(w, "local")
}

// declareOption is the setting after word w of declare: -p prints and assigns nothing, -n makes
// the names references.
func declareOption(settings byte, w string) byte {
	w = plainName(w) // declare "-n" r
	switch {
	case settings != settingDeclare || len(w) < 2 || w[0] != '-':
	case strings.IndexByte(w, 'p') > 0:
		return 0 // declare -p BASH_ALIASES prints, and assigns nothing
	case strings.IndexByte(w, 'n') > 0:
		return settingNameref
	}
	return settings
}

// nameSetting reads word w of printf or read, whose names a word may compute (n='BASH_ALIASES[q]';
// printf -v "$n" …, read "$n"): it returns the setting for the next word (0: not printf's or
// read's) and whether w is a computed name. A computed value (read -p "$prompt", printf's
// format and arguments) is no name.
func nameSetting(settings byte, w string) (next byte, computed bool) {
	option := len(w) > 1 && w[0] == '-'
	switch settings {
	case settingPrintf:
		if w == "-v" {
			return settingPrintfName, false
		}
		if name, ok := strings.CutPrefix(w, "-v"); ok {
			// printf -vBASH_ALIASES[q] …, printf -v"$n" …: bash takes the name attached too
			return settingAssigns, strings.ContainsAny(name, "$`") || strings.HasPrefix(plainName(name), "BASH_ALIASES")
		}
		return settingPrintf, false
	case settingPrintfName:
		return settingAssigns, strings.ContainsAny(w, "$`")
	case settingReadValue:
		return settingRead, false
	case settingReadName:
		return settingRead, strings.ContainsAny(w, "$`")
	case settingRead:
		switch {
		case option && strings.IndexByte("dinNptu", w[len(w)-1]) >= 0:
			return settingReadValue, false
		case option && w[len(w)-1] == 'a':
			return settingReadName, false
		}
		return settingRead, !option && strings.ContainsAny(w, "$`")
	}
	return 0, false
}

// namesAliases reports whether word w (as written) of a command whose words setting reads
// may assign to BASH_ALIASES: one shaped as an assignment to it, quotes removed (BASH_ALIASES,
// BASH_ALIASES[q]=…, BASH_ALIASES+=…; prose naming it, printf 'BASH_ALIASES holds …', does
// not), one brace expansion may make so (BASH_{ALIASES,X}[q]=…), a computed name of declare
// (declare "$n[q]=…"), or any word naming it or computed of declare -n (a reference to it).
func namesAliases(settings byte, w string) bool {
	plain := plainName(w)
	if rest, ok := strings.CutPrefix(plain, "BASH_ALIASES"); ok && (rest == "" || strings.IndexByte("[=+", rest[0]) >= 0) {
		return true
	}
	if k := strings.IndexByte(w, '{'); k >= 0 && strings.HasPrefix("BASH_ALIASES", w[:k]) {
		return true
	}
	name, _, _ := strings.Cut(w, "=")
	switch settings {
	case settingDeclare:
		return strings.ContainsAny(name, "$`")
	case settingNameref:
		return strings.Contains(plain, "BASH_ALIASES") || strings.ContainsAny(w, "$`")
	}
	return false
}

// assignsAlias reports whether word w, an assignment in command position, assigns to
// BASH_ALIASES (BASH_ALIASES[q]=…, BASH_ALIASES+=(…)).
func assignsAlias(w string) bool { return strings.HasPrefix(w, "BASH_ALIASES") }
