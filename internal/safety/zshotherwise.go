package safety

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// More of what zsh reads otherwise than bash (zshReadsOtherwise), each making the script opaque:
// a history modifier on a parameter ($x:t, $x:s/a/b/, ${x:t}) changes the path it names;
// a redirection with no command runs $NULLCMD or $READNULLCMD (READNULLCMD=sh; < x.sh runs x.sh);
// options set inside the script (set -o globdots, set -4, setopt or unsetopt of an expansion
// option however spelt) change what a later glob matches; zsh expands aliases in a script, global
// ones (alias -g) anywhere in a line; the zsh/parameter arrays define functions, aliases and
// command paths (functions[f]=..., commands[ls]=...), path is tied to PATH, hash NAME=PATH sets
// where a command is found; and cd OLD NEW changes to $PWD with OLD replaced by NEW.

// zshSpecialArrays are the parameters whose assignment changes what a later word or command
// means in zsh: zsh/parameter's tables, and the arrays tied to the search paths.
var zshSpecialArrays = wordSet("options functions dis_functions functions_source aliases dis_aliases " +
	"galiases dis_galiases saliases dis_saliases commands builtins dis_builtins reswords dis_reswords " +
	"nameddirs userdirs parameters modules path fpath cdpath module_path manpath NULLCMD READNULLCMD")

// zshOptionBuiltins set options (setopt globdots, set -o globdots).
var zshOptionBuiltins = wordSet("set setopt unsetopt")

// zshNodeOtherwise says what of a node of a zsh script zsh reads otherwise than bash.
func zshNodeOtherwise(n syntax.Node) string {
	switch x := n.(type) {
	case *syntax.ParamExp:
		if len(x.Modifiers) > 0 {
			return "a history modifier on a parameter (${x:t})"
		}
	case *syntax.Stmt:
		if call, ok := x.Cmd.(*syntax.CallExpr); len(x.Redirs) > 0 && (x.Cmd == nil || ok && len(call.Args) == 0 && len(call.Assigns) == 0) {
			return "a redirection with no command, which runs $NULLCMD or $READNULLCMD (READNULLCMD=sh; < x.sh)"
		}
	case *syntax.Assign:
		if x.Name != nil && zshSpecialArrays[x.Name.Value] {
			return "an assignment to zsh's " + x.Name.Value + ", which changes what later words or commands mean"
		}
	case *syntax.CallExpr:
		return zshCallOtherwise(x.Args)
	}
	return ""
}

// zshCallOtherwise says what a simple command of a zsh script does that bash's would not.
func zshCallOtherwise(args []*syntax.Word) string {
	name := zshCommandName(args)
	words := make([]word, 0, len(args))
	for _, a := range args {
		lit := a.Lit()
		words = append(words, word{s: lit, dynamic: lit == ""})
	}
	switch {
	case name == "alias":
		return "an alias, which zsh expands in a script"
	case name == "hash" && slices.ContainsFunc(words, func(w word) bool { return w.dynamic || strings.Contains(w.s, "=") }):
		return "hash NAME=PATH, which sets where a command is found"
	case name == subSet && (shellStartedExpanding(cmdZsh, words) || zshAttachedOption(words)):
		return "set of an expansion option"
	case zshOptionBuiltins[name] && name != subSet && slices.ContainsFunc(words[1:], func(w word) bool { return w.dynamic || isExpansionOption(w.s) }):
		return name + " of an expansion option"
	case name == "cd" || name == ansibleChdir || name == cmdPushd:
		if len(zshOperands(words[1:])) > 1 {
			return "cd OLD NEW, which substitutes NEW for OLD in the working directory"
		}
	}
	return ""
}

// zshOperands are the words that are no option: cd's OLD and NEW (a computed word counts).
func zshOperands(words []word) []word {
	var out []word
	for _, w := range words {
		if w.dynamic || !strings.HasPrefix(w.s, "-") {
			out = append(out, w)
		}
	}
	return out
}

// zshModifierAfter says whether the literal text after an unbraced parameter ($x:t, $x:s/a/b/,
// $x:&) is a history modifier zsh applies to it.
func zshModifierAfter(prev syntax.WordPart, v string) bool {
	pe, ok := prev.(*syntax.ParamExp)
	if !ok || !pe.Short || len(v) < 2 || v[0] != ':' {
		return false
	}
	c := v[1]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '&'
}
