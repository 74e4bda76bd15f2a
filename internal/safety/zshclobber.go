package safety

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// zshAsBash respells, in a script zsh runs, zsh's operators that bash reads otherwise into
// bash's own for the same thing, so that what they write is judged as bash's write of it: >! and
// >>! (noclobber overridden) are >| and >>, &>! and >&! are &>, &>>! and >>&! are &>>, and the
// disowning &| and &! are & (bash reads >! as a write to a file named "!", the target an argument
// of the command, and &| as a syntax error). Each is respelt in place, padded with spaces, so
// every other offset stays where it was; a script zsh does not parse is left as it is
// (zshReadsOtherwise asks for it).
func zshAsBash(src string) string {
	if !strings.ContainsAny(src, "!|") {
		return src
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangZsh)).Parse(strings.NewReader(src), "")
	if err != nil {
		return src
	}
	b := []byte(src)
	respell := func(off uint, bash string) {
		end := int(off)
		for end < len(b) && strings.IndexByte("<>&|!", b[end]) >= 0 && end-int(off) < 4 {
			end++
			if b[end-1] == '!' || b[end-1] == '|' {
				break
			}
		}
		if end-int(off) >= len(bash) {
			copy(b[off:end], bash+strings.Repeat(" ", end-int(off)-len(bash)))
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Redirect:
			if bash, ok := zshClobberOps[x.Op]; ok {
				respell(x.OpPos.Offset(), bash)
			}
		case *syntax.Stmt:
			if x.Disown && x.Semicolon.IsValid() {
				respell(x.Semicolon.Offset(), "&")
			}
		}
		return true
	})
	return string(b)
}

// zshClobberOps are bash's spellings of zsh's redirections that override noclobber.
var zshClobberOps = map[syntax.RedirOperator]string{
	syntax.RdrClob: ">|", syntax.AppClob: ">>", syntax.RdrAllClob: "&>", syntax.AppAllClob: "&>>",
}
