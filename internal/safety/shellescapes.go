package safety

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// dc and ed run a shell command from their own command language: dc's "!" command, ed's "!cmd"
// (and "r !cmd", "w !cmd", "e !cmd"). Only a script the engine read and found no "!" in keeps
// them what they look like, a calculator and an editor. Before, dc -e '[!id]x', echo '!cat .env'
// | dc and ed -s x.txt <<< '!cat .env' were admitted at Yolo; now a "!", a script file or a
// script the engine cannot read (standard input from a file or a program's output, a computed
// expression) makes the command opaque, at every level. GNU dc's comparisons (!<, !>, !=) are
// read as escapes too: asking for them is the cost of not parsing dc.
//
// m4 (syscmd, esyscmd, and macro names it can compute) and gnuplot (system, "!", backquotes) are
// interpreters (wrappers.go) for the same reason.

// shellEscape is the character that starts a shell command in dc's and ed's languages.
const shellEscape = "!"

// shellEscapeInput judges the scripts dc and ed are given.
func (a *analyzer) shellEscapeInput(idx int, redirs []*syntax.Redirect) {
	seg := &a.out.segments[idx]
	if seg.name != "dc" && seg.name != "ed" {
		return
	}
	if seg.name == "dc" {
		if why := dcScripts(seg); why != "" {
			a.opaque(idx, why)
			return
		}
	}
	for _, r := range redirs {
		body := stdinBody(r)
		if body == nil {
			if stdinUnread(r) {
				a.opaque(idx, seg.name+" reads its commands from a file on standard input")
			}
			continue
		}
		if t := a.render(body); t.dynamic || strings.Contains(t.s, shellEscape) {
			a.opaque(idx, seg.name+"'s commands on standard input are computed at run time or run a shell command (!)")
		}
	}
	for _, from := range seg.pipeFrom {
		stage := &a.out.segments[from]
		if !printsKnownText(stage) || strings.Contains(stage.text, shellEscape) {
			a.opaque(idx, seg.name+" is fed commands the engine cannot read, or that run a shell command (!)")
		}
	}
}

// dcScripts returns why dc's command line runs code the engine cannot see, or "": an expression
// (-e, --expression) that is computed or holds "!", a script file (-f, --file, or an operand).
func dcScripts(s *segment) string {
	w := s.words
	for i := 1; i < len(w); i++ {
		v := w[i].s
		var expr word
		switch {
		case w[i].dynamic:
			return "dc is given a word computed at run time, which may be a script"
		case v == "--":
			if i+1 < len(w) {
				return "dc runs the script file " + w[i+1].s
			}
			return ""
		case v == "-e" || v == sedExpression:
			if i+1 == len(w) {
				return ""
			}
			i++
			expr = w[i]
		case strings.HasPrefix(v, "--expression="):
			expr = w[i].with(strings.TrimPrefix(v, "--expression="))
		case strings.HasPrefix(v, "-e") && !strings.HasPrefix(v, "--"):
			expr = w[i].with(v[2:])
		case v == "-f" || v == optFile || strings.HasPrefix(v, optFile+"=") || strings.HasPrefix(v, "-f") && !strings.HasPrefix(v, "--"):
			return "dc runs a script file (-f)"
		case strings.HasPrefix(v, "-") && v != "-":
			continue // --version, --help
		default:
			return "dc runs the script file " + v
		}
		if expr.dynamic || strings.Contains(expr.s, shellEscape) {
			return "dc's expression runs a shell command (!) or is computed at run time"
		}
	}
	return ""
}

// File-transfer clients run the commands they are given on this host as well as the server's:
// ftp's and lftp's "!cmd", ftp's "get x |cmd", lftp's source -e, smbclient's "!", and their put
// and get read and write local files the engine does not follow (echo 'put .env' | ftp host
// sends .env). Given commands at all, on standard input or by an option (smbclient -c, lftp
// -c/-e/-f), they are opaque; sftp's batch is read command by command (sendout.go).
var commandClients = map[string][]string{"ftp": nil, "tnftp": nil, "lftp": {"-c", "-e", "-f"}, "smbclient": {"-c", "--" + longOptCommand}}

// commandClientInput marks a file-transfer client given commands as opaque.
func (a *analyzer) commandClientInput(idx int, redirs []*syntax.Redirect) {
	seg := &a.out.segments[idx]
	opts, ok := commandClients[seg.name]
	if !ok {
		return
	}
	for _, o := range opts {
		if seg.hasFlag(o) {
			a.opaque(idx, seg.name+" "+o+" runs commands that read and write local files and run local commands")
			return
		}
	}
	fed := len(seg.pipeFrom) > 0
	for _, r := range redirs {
		fed = fed || stdinBody(r) != nil || stdinUnread(r)
	}
	if fed {
		a.opaque(idx, seg.name+" reads commands on standard input, which read and write local files and run local commands")
	}
}
