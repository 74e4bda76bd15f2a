package safety

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A script zsh runs (zsh -c, a here-document fed to zsh, what its eval and traps run, and what a
// wrapper runs with the user's shell, userShellWrappers) is read by
// the engine as bash's. Where zsh reads a word otherwise, the bash reading is not what runs: a
// glob qualifier changes what a glob matches (cat *(D) matches dotfiles, .env among them) or runs
// code for each match (*(e:'cat .env':), *(+func)); "(#q…)" and "(#i)" are more of them, and "(a|b)"
// is a group; =(…) runs a command; parameter flags evaluate a value (${(e)x}); $~x and ${~x} glob
// it ($=x, ${^x} split and distribute it); ^, ~ and # are extendedglob's operators (.env~x
// names .env); <-> matches numbers. Builtins load modules that read files under other names
// (zmodload zsh/mapfile: $mapfile[.env]) or run code the engine does not follow (emulate -c,
// zpty, sched). Such a script is opaque (asks): zsh's own reading is not the engine's to model.

// userShellWrappers run their script with $SHELL (script -c, flock -c) or a user's login shell
// (su -c, runuser -c): zsh on many machines, and the agent may set SHELL=zsh itself.
var userShellWrappers = wordSet("script flock su runuser")

// zshCodeBuiltins are zsh's builtins that run code given as their words, or load modules that
// change what words mean.
var zshCodeBuiltins = wordSet("emulate zmodload zpty sched autoload zcompile zle")

// zshPrecommands are zsh's precommand modifiers, which run the command after them.
var zshPrecommands = wordSet("builtin command exec noglob nocorrect -")

// zshCommandName is the name of the command a simple command runs, past zsh's precommand
// modifiers.
func zshCommandName(args []*syntax.Word) string {
	for _, w := range args {
		if name := w.Lit(); !zshPrecommands[name] {
			return name
		}
	}
	return ""
}

// zshReadsOtherwise says what in a script zsh runs zsh reads otherwise than bash, or "" when
// nothing does.
func zshReadsOtherwise(src string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangZsh)).Parse(strings.NewReader(src), "")
	if err != nil {
		return "zsh syntax the engine does not read"
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Word:
			why = zshWordOtherwise(x)
		case *syntax.ParamExp:
			if x.Flags != nil || x.GlobSubst != syntax.OptUnset || x.Split != syntax.OptUnset || x.RcExpand != syntax.OptUnset {
				why = "a parameter expansion with zsh's flags (${(e)x}, $~x, ${=x}, ${^x})"
			}
		case *syntax.ProcSubst:
			if x.Op == syntax.CmdInTemp {
				why = "zsh's =(…) substitution"
			}
		case *syntax.ExtGlob:
			why = "a glob with a parenthesised qualifier or group"
		case *syntax.CallExpr:
			if name := zshCommandName(x.Args); zshCodeBuiltins[name] {
				why = "zsh's builtin " + name + ", which runs code or loads modules"
			}
		}
		if why == "" {
			why = zshNodeOtherwise(n)
		}
		return why == ""
	})
	return why
}

// zshWordOtherwise says what of a word's unquoted text zsh reads otherwise than bash: a
// parenthesised glob qualifier or group, a numeric range, or an extendedglob operator (~ other
// than a leading tilde, ^, #).
func zshWordOtherwise(w *syntax.Word) string {
	for i, p := range w.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		v := lit.Value
		if i > 0 && zshModifierAfter(w.Parts[i-1], v) {
			return "a history modifier on a parameter (" + v + ")"
		}
		if i == 0 && strings.HasPrefix(v, "~") {
			v = v[1:] // ~/x, ~+, ~-: a tilde expansion, as bash's
			if name, _, _ := strings.Cut(v, "/"); name != "" && name != "+" && name != "-" {
				// ~NAME is also a named directory: a parameter NAME whose value starts with / (c=$PWD/.claude; ~c/x)
				return "a named directory (" + lit.Value + ")"
			}
		}
		switch {
		case strings.ContainsAny(v, "()"):
			return "a glob with a parenthesised qualifier or group (" + lit.Value + ")"
		case strings.ContainsAny(v, "<>"):
			return "a numeric glob range (" + lit.Value + ")"
		case strings.ContainsAny(v, "^~#"):
			return "an extendedglob operator (" + lit.Value + ")"
		}
	}
	return ""
}

// zshScript asks for a script zsh runs (a.zsh) that holds what zsh reads otherwise.
func (a *analyzer) zshScript(src string) {
	if !a.zsh {
		return
	}
	if why := zshReadsOtherwise(src); why != "" {
		a.find(false, RuleOpaqueCode, "zsh runs %q, and reads %s otherwise than bash; it could read a path the zeroAccess policy protects or run any code, so it needs human approval", truncate(src, 120), why)
	}
}
