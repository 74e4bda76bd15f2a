package ledger

import "strings"

// A POSIX shell's -c script given as one quoted word (sh -c "PGPASSWORD='p;q' psql", bash -lc
// 'export TOKEN="a;b"') is read a second time, as that shell reads it, instead of blind: bash
// removes the outer quotes and nothing else, so the word's inside is the script byte for byte,
// and its own quotes are the inner shell's. Read blind, every separator in it is a boundary, and
// a quoted password with a ; had its tail recorded. The second reading applies only where the
// script is certain:
//   - the shell is the command's program (after env, time, builtin or command, which the lexer
//     reads through), or the program kubectl or oc run after -- (kubectl exec p -- sh -c …):
//     each hands the word to the shell's argv as it is. A shell named in an argument of another
//     command (echo sh -c "…" > x.sh, ssh h sh -c "…", eval sh -c "…") is the data of a text
//     someone reads again with different quotes: read blind, as before;
//   - the shell is one that quotes as bash does (sh, bash, dash, ash, ksh, mksh, yash, posh, zsh):
//     fish, csh and pwsh quote otherwise;
//   - the word is the first operand after options that include -c (in a cluster: -lc, -ec), and
//     none of -o and -O, which change how the script is read (-O extglob); no option or word
//     before it is computed ($, `);
//   - the word is one pair of quotes and nothing else: '…', or "…" holding no \, $ or ` (which
//     bash would change);
//   - the lexer reads it in no backquotes and no here-document body (whose backslashes bash
//     removes first), and no deeper than maxScriptDepth scripts inside scripts;
//   - what the script prints is read again by no shell: the text holds no |, $(, backquote, <(
//     or >( outside the scripts (outputReread). sh -c 'echo PASSWORD=a\;rm -rf /data' | sh
//     runs rm, whose \; the script's own reading takes for data.
// Anything else stays blind: the safe side, a separator taken for a boundary records more.

// maxScriptDepth bounds the readings of a script inside a script (bash -c 'sh -c "…"'): each
// reads its text once more, so the mask stays linear.
const maxScriptDepth = 3

// posixShellNames are the shells whose quoting is bash's.
const posixShellNames = "sh bash rbash zsh dash ksh mksh ash yash posh"

var posixShells = setOf(strings.Fields(posixShellNames)...)

// posixShell reports whether a command's name (without quotes) names one of posixShells, after
// a directory (/bin/sh) and a version (bash5.2).
func posixShell(name string) bool {
	if k := strings.LastIndexByte(name, '/'); k >= 0 {
		name = name[k+1:]
	}
	name = strings.TrimRight(name, ".0123456789")
	return posixShells[name]
}

// scriptArg is a code frame's reading of the words after a POSIX shell's name, looking for its
// -c script; argvAfterDashes says the command is kubectl or oc, whose -- is followed by the
// program (programNext).
type scriptArg struct {
	on, sawC, skip, operands bool
	argvAfterDashes          bool
	programNext              bool
}

// command starts a frame's reading of its command's words: name is the program.
func (a *scriptArg) command(name string) {
	*a = scriptArg{on: posixShell(name), argvAfterDashes: name == "kubectl" || name == "oc"}
}

// word reads word w (as written) after the command's name; it returns true when w
// is the shell's -c script, one quoted word.
func (a *scriptArg) word(w string) bool {
	if a.programNext {
		a.programNext = false
		a.on = posixShell(plainName(w))
		return false
	}
	if !a.on {
		if a.argvAfterDashes && w == "--" {
			a.argvAfterDashes, a.programNext = false, true
		}
		return false
	}
	if strings.ContainsAny(w, "$`") {
		a.on = false
		return false
	}
	p := plainName(w)
	switch {
	case a.skip:
		a.skip = false
		return false
	case !a.operands && p == "--":
		a.operands = true
		return false
	case !a.operands && len(p) > 1 && (p[0] == '-' || p[0] == '+'):
		a.option(p)
		return false
	}
	a.on = false // the first operand: the script, if -c came before
	return a.sawC && oneQuotedWord(w)
}

// option reads option p (without quotes) of the shell.
func (a *scriptArg) option(p string) {
	if p[0] == '-' && p[1] != '-' && strings.IndexByte(p, 'c') > 0 {
		a.sawC = true
	}
	switch {
	case p == "--rcfile" || p == "--init-file":
		a.skip = true
	case p[1] != '-' && strings.ContainsAny(p, "oO"):
		a.on = false // -O extglob, -o posix: the script is read otherwise; blind
	}
}

// scriptWord reads word w, ending at s[i], of a command in code frame f that is no command's
// name: the inside of a shell's -c script is noted to be read again (shell_script_reread.go).
func (l *shellLexer) scriptWord(f *shellFrame, w string, i int) {
	if f.script.word(w) && l.backtickIndex() == 0 && l.bodies == 0 && l.depth < maxScriptDepth {
		l.scripts = append(l.scripts, [2]int{f.wordStart + 1, i - 1})
	}
}

// oneQuotedWord reports whether w is '…', or "…" with no \, $ or ` inside: a word whose inside
// bash passes on unchanged.
func oneQuotedWord(w string) bool {
	if len(w) < 2 || (w[0] != '\'' && w[0] != '"') || w[len(w)-1] != w[0] {
		return false
	}
	inside := w[1 : len(w)-1]
	if w[0] == '\'' {
		return strings.IndexByte(inside, '\'') < 0
	}
	return !strings.ContainsAny(inside, "\"\\$`")
}

// outputReread reports whether s, outside the scripts' insides, holds a pipe, a command or
// process substitution: a way for what a script prints to reach a shell that reads it again
// (| sh, eval "$(…)", source <(…), > >(sh)), in whatever nesting ({ …; } | sh, a loop's done |
// sh), which this check need not follow. Quotes are not read: a | in quotes counts too, the
// safe side.
func outputReread(s string, scripts [][2]int) bool {
	from := 0
	for _, sc := range append(scripts, [2]int{len(s), len(s)}) {
		part := s[from:sc[0]]
		if strings.ContainsAny(part, "|`") || strings.Contains(part, "$(") ||
			strings.Contains(part, "<(") || strings.Contains(part, ">(") {
			return true
		}
		from = sc[1]
	}
	return false
}
