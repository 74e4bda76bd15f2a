package safety

import (
	"strings"
)

// sqlite3's shell (and duckdb's, which is built from it) runs dot-commands besides SQL: some run a
// program (.shell, .system, .excel, .www) or read or write a file the engine does not follow
// (.output, .once, .save, .backup, .clone, .open, .read, .import, .log, .trace, .archive), and
// SQLite's file functions read and write files (readfile, writefile, fsdir, zipfile) or load code
// (load_extension, edit). Each is opaque wherever the shell reads it: an argument, a -cmd, and a
// line of its standard input (a here-document or here-string, what echo, printf or cat prints into
// it). The shell takes any prefix of a dot-command's name for it (.o is .output, .sa is .save).

// sqliteShellCommands are the dot-commands that run a program or read or write a file.
var sqliteShellCommands = strings.Fields("shell system excel www read output once import load save backup restore " +
	"open log cd clone archive trace iotrace testcase")

// sqliteCodeFunctions are SQLite's functions and table-valued functions that read or write a file
// or run code; sqliteEdit is edit(), which runs an editor, a word too common to look for alone.
// duckdb's getenv() returns the shell's environment (secrets among it), and its shellfs extension
// runs the command a file name gives (read_csv('env |')).
var sqliteCodeFunctions = strings.Fields("readfile writefile load_extension fsdir lsdir zipfile sqlar_uncompress getenv shellfs")

const sqliteEdit = "edit"

// sqliteDotCommand returns the dot-command a line runs when it is one of sqliteShellCommands (the
// line's first word, or a prefix of its name), or "".
func sqliteDotCommand(line string) string {
	line = strings.TrimSpace(line)
	if len(line) < 2 || line[0] != '.' {
		return ""
	}
	name := strings.ToLower(line[1:])
	if i := strings.IndexAny(name, " \t"); i >= 0 {
		name = name[:i]
	}
	for _, c := range sqliteShellCommands {
		if name != "" && (strings.HasPrefix(c, name) || strings.HasPrefix(name, c)) {
			return "." + c
		}
	}
	return ""
}

// sqliteCodeIn returns why text sqlite3 or duckdb reads runs a program or touches a file the
// engine does not follow: a line that is such a dot-command, or a file or code function named
// anywhere (a comment or a space before its bracket hides no call), or "".
func sqliteCodeIn(text string) string {
	for line := range strings.SplitSeq(text, "\n") {
		if c := sqliteDotCommand(line); c != "" {
			return "the dot-command " + c
		}
	}
	low := strings.ToLower(text)
	for _, f := range sqliteCodeFunctions {
		if strings.Contains(low, f) {
			return "the SQL function " + f + "()"
		}
	}
	if !strings.Contains(low, sqliteEdit) {
		return ""
	}
	toks := sqlTokens(text)
	for i, t := range toks {
		if (t.kind == sqlWord || t.kind == sqlQuoted) && strings.EqualFold(t.s, sqliteEdit) &&
			i+1 < len(toks) && toks[i+1].kind == sqlPunct && toks[i+1].s == "(" {
			return "the SQL function edit(), which runs an editor"
		}
	}
	return ""
}

// sqliteCode returns why a sqlite3 or duckdb command's arguments run a program or touch a file
// the engine does not follow: a dot-command or code function in an operand, or sqlite3's archive
// mode (-A), which extracts or adds the files an archive names, or duckdb's -unsigned.
func sqliteCode(s *segment) string {
	if s.name == cmdDuckdb && s.hasExactFlag("-unsigned") {
		return "duckdb -unsigned, which loads extensions no signature vouches for"
	}
	if s.name == cmdSqlite3 && (s.hasExactFlag("-A") || s.hasExactFlag("--A") || s.hasExactFlag("-archive") || s.hasExactFlag("--archive")) {
		return "sqlite3's archive mode, which reads and writes the files an archive names"
	}
	for _, w := range s.operands {
		if why := sqliteCodeIn(w.s); why != "" {
			return why
		}
	}
	return ""
}

// sqliteInputCode returns why the text sqlite3 or duckdb reads on standard input (a here-document
// or here-string) runs a program or touches a file, or "" (for any other client too).
func sqliteInputCode(prog, text string) string {
	if prog != cmdSqlite3 && prog != cmdDuckdb {
		return ""
	}
	if why := sqliteCodeIn(text); why != "" {
		return prog + " is fed " + why
	}
	return ""
}

// sqlitePrintedCode returns why what an echo or printf stage prints into sqlite3 or duckdb runs a
// program or touches a file: each printed word's lines (a \n escape starts one) are read as the
// shell reads its input. An escape that can spell any character (\x2e, \056, \u002e) or a
// dot-command whose name a printf format completes (printf '.%s' once) hides what is printed.
func sqlitePrintedCode(prog string, stage *segment) string {
	if prog != cmdSqlite3 && prog != cmdDuckdb || stage.name != cmdEcho && stage.name != cmdPf {
		return ""
	}
	for _, w := range stage.words[1:] {
		if hidesCharacter(w.s) {
			return "a line " + stage.name + " prints into the SQL shell is spelt with an escape"
		}
		text := strings.ReplaceAll(w.s, `\n`, "\n")
		if why := sqliteCodeIn(text); why != "" {
			return prog + " is fed " + why
		}
		for line := range strings.SplitSeq(text, "\n") {
			if line = strings.TrimSpace(line); line == "." || strings.HasPrefix(line, ".") && strings.Contains(line, "%") {
				return "a dot-command " + stage.name + " completes from its arguments"
			}
		}
	}
	return ""
}

// hidesCharacter reports whether text holds an echo -e or printf escape that can stand for any
// character: octal, hexadecimal or Unicode.
func hidesCharacter(t string) bool {
	for i := strings.IndexByte(t, '\\'); i >= 0 && i+1 < len(t); {
		if strings.IndexByte("01234567xuU", t[i+1]) >= 0 {
			return true
		}
		j := strings.IndexByte(t[i+2:], '\\')
		if j < 0 {
			return false
		}
		i += 2 + j
	}
	return false
}
