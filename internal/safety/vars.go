package safety

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// varScope is what the engine knows statically about the shell variables of one script: the
// values of variables assigned exactly once, unconditionally, to a literal, before their use.
// Everything else a variable could hold is unknown, and a path built from it is unresolved
// (docs/engine.md, "Command normalisation and parsing", step 5 "Variables").
type varScope struct {
	vals     map[string]string         // name -> value, for variables resolved so far
	assigned map[string]int            // assignments of each name anywhere in the script (pre-pass)
	off      bool                      // the script can assign by a computed name: nothing resolves
	globs    map[string]bool           // resolved variables that hold a file name a glob expanded to
	secrets  map[string]bool           // variables assigned a credential variable's value (T=$GITHUB_TOKEN), or one of these's
	cut      map[string]bool           // those of secrets assigned part of the value (T=${GITHUB_TOKEN##a*}), or a copy of one
	hidden   map[*syntax.CallExpr]bool // calls that expand a credential inside an operator (hiddenSecrets)
	pids     map[string]string         // variables assigned the shell's or its parent's pid: name -> "$PPID" (callerCopy)
	visit    func(syntax.Node) bool    // namesSecret's walk, and what it found
	found    bool
}

// computedAssigners are commands that assign variables in the current shell by a name or from
// code the pre-pass cannot see: after any of them, no variable of the script is resolved.
//
//nolint:goconst // option spellings and program names in this table read best literally, next to their neighbours
var computedAssigners = map[string]bool{
	"eval": true, "source": true, ".": true, "trap": true, "builtin": true, "command": true,
	"read": true, "mapfile": true, "readarray": true, "getopts": true, "printf": true,
	"unset": true, "let": true, "export": true, "declare": true, "typeset": true, "local": true,
	"readonly": true, "nameref": true, "enable": true,
}

// newVarScope counts every assignment in a parsed script. A name assigned more than once or in a
// loop header is never resolved; arithmetic, ${x:=...}, indirect references and declarations with
// options turn resolution off for the whole script. A command that could assign by a name the
// engine does not see (eval, source, read, ...) poisons the scope when the walk reaches it.
func newVarScope(f *syntax.File) *varScope {
	vs := &varScope{assigned: map[string]int{}, secrets: map[string]bool{}}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			vs.assignSecret(n)
			vs.callerCopy(n)
			if n.Name != nil {
				vs.assigned[n.Name.Value]++
				if n.Append || n.Index != nil || n.Array != nil {
					vs.assigned[n.Name.Value] += 2
				}
			}
		case *syntax.WordIter:
			if n.Name != nil {
				vs.assigned[n.Name.Value] += 2
				vs.loopSecret(n)
			}
		case *syntax.CStyleLoop, *syntax.ArithmCmd, *syntax.LetClause:
			// Arithmetic can assign any name ((i++), x=1): resolve nothing.
			vs.off = true
		case *syntax.ArithmExp:
			// Only numbers ($((-1))) assign nothing.
			if _, ok := constArith(n.X); !ok {
				vs.off = true
			}
		case *syntax.BinaryArithm, *syntax.UnaryArithm:
			vs.callerAssigns(n)
		case *syntax.ParamExp:
			vs.param(n)
		case *syntax.DeclClause:
			vs.declaration(n)
			vs.nameref(n)
		case *syntax.Stmt:
			vs.readsSecret(n)
			vs.callerAssigns(n)
		case *syntax.CallExpr:
			vs.positionalSecret(n)
			vs.hiddenSecrets(n)
		}
		return true
	})
	return vs
}

// param turns resolution off for ${x:=...} and indirect references, and marks the variable an
// indirect reference reads its name from.
func (vs *varScope) param(n *syntax.ParamExp) {
	if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
		vs.off = true
	}
	if n.Excl || n.Names != 0 {
		vs.off = true // ${!ref}: an indirect reference
	}
	// ${!ref} expands the variable that ref names, which could be a credential; it is
	// rendered as $ref, so ref is marked. ${!prefix*} and ${!array[@]} list names and keys.
	if n.Excl && n.Names == 0 && n.Index == nil && n.Param != nil {
		vs.secrets[n.Param.Value] = true
	}
}

// assignSecret marks a variable or array assigned a credential variable's value or a copy's
// (T=$GITHUB_TOKEN, A=("$GITHUB_TOKEN")).
func (vs *varScope) assignSecret(n *syntax.Assign) {
	if n.Name == nil {
		return
	}
	if n.Value != nil && vs.namesSecret(n.Value) {
		vs.secrets[n.Name.Value] = true
		// Whether the copy is empty tells more than whether the credential is set when an
		// operator cut it (secrettests.go).
		if p := wholeParam(n.Value); p == nil || vs.cut[p.Param.Value] {
			if vs.cut == nil {
				vs.cut = map[string]bool{}
			}
			vs.cut[n.Name.Value] = true
		}
	}
	if n.Array != nil {
		for _, e := range n.Array.Elems {
			if e.Value != nil && vs.namesSecret(e.Value) {
				vs.secrets[n.Name.Value] = true
			}
		}
	}
}

// callerCopy marks a variable assigned the shell's pid, a subshell's or its parent's, the
// agent's ($$, $BASHPID, $PPID, quoted or braced), a copy of such a variable, or a value computed
// from one (callerDerived): P=$PPID; kill $P kills the agent as kill $PPID does. The variable
// renders as the parameter it copies (pidOf).
func (vs *varScope) callerCopy(n *syntax.Assign) {
	if n.Name == nil {
		return
	}
	if src := vs.callerDerived(n.Value); src != "" {
		vs.markPid(n.Name.Value, src)
	}
}

// pidOf returns the parameter a variable holds the value of when it holds a caller's pid (the
// parameter itself, or a variable callerCopy marked), or "".
func (vs *varScope) pidOf(name string) string {
	switch name {
	case "$":
		return "$$"
	case "BASHPID":
		return "$BASHPID"
	case "PPID":
		return ppid
	case "!":
		return bgPid // not a caller's: a copy of it renders as $! for kill-computed (pid=$!; kill $pid)
	}
	if vs == nil || vs.assigned[name] > 1 {
		return "" // assigned again (SELF=$$; ...; SELF=$!): which value a use sees is not known
	}
	return vs.pids[name]
}

// positionalParams are the names the positional parameters expand by: $1 to $9, $@ and $*.
var positionalParams = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*"}

// positionalSecret marks the positional parameters when a command is given a credential
// variable or a copy: set -- "$GITHUB_TOKEN" makes it $1, and so does calling a function with
// it. Marking them after any such command only asks more where $1 is expanded.
func (vs *varScope) positionalSecret(c *syntax.CallExpr) {
	if slices.ContainsFunc(c.Args[min(1, len(c.Args)):], vs.namesSecret) {
		for _, p := range positionalParams {
			vs.secrets[p] = true
		}
	}
}

// loopSecret marks a for loop's variable when it iterates over a credential variable or a copy.
func (vs *varScope) loopSecret(n *syntax.WordIter) {
	if len(n.Items) == 0 && vs.secrets["@"] {
		vs.secrets[n.Name.Value] = true // "for a; do" iterates over "$@"
	}
	for _, it := range n.Items {
		if vs.namesSecret(it) {
			vs.secrets[n.Name.Value] = true
		}
	}
}

// namesSecret says whether a word expands a credential variable ($GITHUB_TOKEN) or a copy of one.
// Literal parts and plain expansions ($x, the common case) are read without a walk.
func (vs *varScope) namesSecret(w *syntax.Word) bool {
	return slices.ContainsFunc(w.Parts, vs.partNamesSecret)
}

func (vs *varScope) partNamesSecret(p syntax.WordPart) bool {
	switch p := p.(type) {
	case *syntax.Lit, *syntax.SglQuoted:
		return false
	case *syntax.DblQuoted:
		return slices.ContainsFunc(p.Parts, vs.partNamesSecret)
	case *syntax.ParamExp:
		if p.Param != nil && vs.secretName(p.Param.Value) {
			return true
		}
		if p.Exp == nil && p.Index == nil && p.Slice == nil && p.Repl == nil {
			return false
		}
	}
	if vs.visit == nil {
		// Made once: a closure per call would allocate for every word with a substitution.
		vs.visit = func(n syntax.Node) bool {
			if e, ok := n.(*syntax.ParamExp); ok && e.Param != nil && vs.secretName(e.Param.Value) {
				vs.found = true
			}
			return !vs.found
		}
	}
	vs.found = false
	syntax.Walk(p, vs.visit)
	return vs.found
}

// hiddenSecrets records a call that expands a credential variable inside another expansion's
// operator, where its rendered words show only the outer name: ": ${NOPE:?$GITHUB_TOKEN}" prints
// the token in its error, "${X:-$NPM_TOKEN}" is the token when X is unset. It runs in the
// pre-pass, before brace expansion rewrites the words (syntax.Walk refuses what it leaves).
func (vs *varScope) hiddenSecrets(c *syntax.CallExpr) {
	for _, w := range c.Args {
		if w.Lit() == "" && vs.hidesSecret(w) {
			if vs.hidden == nil {
				vs.hidden = map[*syntax.CallExpr]bool{}
			}
			vs.hidden[c] = true
			return
		}
	}
}

// hidesSecret says whether a word expands a credential variable inside an expansion's operator.
// A substitution's own commands are calls the pre-pass marks themselves.
func (vs *varScope) hidesSecret(w *syntax.Word) bool {
	return slices.ContainsFunc(w.Parts, vs.partHidesSecret)
}

func (vs *varScope) partHidesSecret(p syntax.WordPart) bool {
	switch p := p.(type) {
	case *syntax.DblQuoted:
		return slices.ContainsFunc(p.Parts, vs.partHidesSecret)
	case *syntax.ParamExp:
		return p.Exp != nil && p.Exp.Word != nil && vs.namesSecret(p.Exp.Word)
	}
	return false
}

// secretName says whether a variable is named like a credential or holds a copy of one.
func (vs *varScope) secretName(name string) bool {
	return vs.secrets[name] || credentialName.MatchString(name)
}

// readers are the builtins that assign what they read on standard input to variables.
var readers = map[string]bool{"read": true, "mapfile": true, "readarray": true}

// readsSecret marks the variables a read, mapfile or readarray assigns when the statement feeds
// them a here-document or here-string that expands a credential variable or a copy (read T <<<
// "$GITHUB_TOKEN"): the names it is given, read as arith.go's builtinNames reads them, and REPLY
// and MAPFILE, where they store without one. The reader may be inside the statement (while read
// T; do ...; done <<< "$GITHUB_TOKEN").
func (vs *varScope) readsSecret(st *syntax.Stmt) {
	fed := false
	for _, r := range st.Redirs {
		if body := stdinBody(r); body != nil && vs.namesSecret(body) {
			fed = true
		}
	}
	if !fed || st.Cmd == nil {
		return
	}
	syntax.Walk(st.Cmd, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || !readers[c.Args[0].Lit()] {
			return true
		}
		vs.secrets["REPLY"], vs.secrets["MAPFILE"] = true, true
		for _, w := range builtinNames(c.Args[0].Lit(), c.Args[1:]) {
			if name := w.Lit(); name != "" {
				vs.secrets[name] = true
			}
		}
		return true
	})
}

// nameref marks a name reference (declare -n R=GITHUB_TOKEN) to a credential variable, a copy
// of one, or a name computed at run time: expanding $R expands the variable it names.
func (vs *varScope) nameref(d *syntax.DeclClause) {
	ref := d.Variant != nil && d.Variant.Value == declNameref
	for _, as := range d.Args {
		if as.Name == nil && as.Value != nil {
			o := as.Value.Lit()
			ref = ref || declOption(o, 'n') || o == ""
			continue
		}
		if !ref || as.Name == nil {
			continue
		}
		// Declared without a target, it is given one later, by a name the pre-pass may not see.
		if as.Value == nil {
			vs.secrets[as.Name.Value] = true
		} else if t := as.Value.Lit(); t == "" || vs.secretName(t) {
			vs.secrets[as.Name.Value] = true
		}
	}
}

// refsSecret says whether a command's words expand a copy of a credential variable ("$T" after
// T=$GITHUB_TOKEN), as written.
func (vs *varScope) refsSecret(words []word) bool {
	if vs == nil || len(vs.secrets) == 0 {
		return false
	}
	for _, w := range words {
		for i := strings.IndexByte(w.s, '$'); i >= 0 && i+1 < len(w.s); {
			rest := strings.TrimPrefix(w.s[i+1:], "{")
			n := 0
			for n < len(rest) && identByte(rest[n]) {
				n++
			}
			if rest != "" && (rest[0] >= '0' && rest[0] <= '9' || rest[0] == '@' || rest[0] == '*') {
				n = 1 // a positional parameter: $1x is ${1}x
			}
			if vs.secrets[rest[:n]] {
				return true
			}
			j := strings.IndexByte(w.s[i+1:], '$')
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}

// assignsByName reports whether a simple command could assign a variable whose name the
// pre-pass does not see (eval, source, read, printf -v, ...). A computed command name is denied
// anyway.
func assignsByName(words []word) bool {
	name := commandName(words[0].s)
	switch name {
	case "shift":
		return true // the positional parameters move
	case subSet:
		return setsPositional(words[1:])
	}
	if name != cmdPf {
		return computedAssigners[name]
	}
	for _, w := range words[1:] {
		if strings.HasPrefix(w.s, "-v") || strings.HasPrefix(w.s, "$") {
			return true
		}
	}
	return false
}

// callWords renders a simple command's words without resolving variables; plain literals, the
// common case, are taken as they are.
func callWords(c *syntax.CallExpr) []word {
	words := make([]word, 0, len(c.Args))
	for _, w := range c.Args {
		if lit := w.Lit(); lit != "" && !strings.ContainsAny(lit, "\\\x00") {
			words = append(words, word{s: lit})
			continue
		}
		words = append(words, renderWord(w, nil))
	}
	return words
}

// declaration counts a declare/export/local/readonly: one with options other than -x/-r/-g, or a
// computed argument, makes the names it sets unresolvable.
func (vs *varScope) declaration(d *syntax.DeclClause) {
	if d.Variant != nil && d.Variant.Value == declNameref {
		vs.off = true
		return
	}
	for _, as := range d.Args {
		if as.Name == nil {
			v := ""
			if as.Value != nil {
				v = as.Value.Lit()
			}
			if v == "" || strings.Trim(v, "-+xrg") != "" {
				vs.off = true
			}
		}
	}
}

// poison forgets every resolved value and resolves nothing from here on: a command ran that can
// assign variables the engine does not see (eval, source, read, ...).
func (vs *varScope) poison() {
	if vs != nil {
		vs.off, vs.vals = true, nil
	}
}

// hasAssigner reports whether a node contains a command that assigns by a name the engine does not
// see. A loop containing one poisons the scope before its first iteration, since a later
// iteration's assignment reaches the earlier commands of the body.
func (a *analyzer) hasAssigner(n syntax.Node) bool {
	found := false
	a.walk(n, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && assignsByName(callWords(c)) {
			found = true
		}
		return !found
	})
	return found
}

// resolvable reports whether a name assigned here may be recorded.
func (vs *varScope) resolvable(name string) bool {
	return vs != nil && !vs.off && vs.assigned[name] == 1
}

// lookup returns a resolved variable's value.
func (vs *varScope) lookup(name string) (string, bool) {
	if vs == nil || vs.off {
		return "", false
	}
	v, ok := vs.vals[name]
	return v, ok
}

// setItem sets a loop variable to one item; an item that is a glob stands for the names it
// expands to, so the variable is a glob even where it is quoted.
func (vs *varScope) setItem(name string, item word) {
	vs.set(name, item.s)
	if vs.globs == nil {
		vs.globs = map[string]bool{}
	}
	vs.globs[name] = item.glob
}

// forget makes a variable unresolved again.
func (vs *varScope) forget(name string) {
	delete(vs.vals, name)
	delete(vs.globs, name)
}

// isGlob reports whether a resolved variable holds what a glob expanded to.
func (vs *varScope) isGlob(name string) bool { return vs != nil && vs.globs[name] }

func (vs *varScope) set(name, val string) {
	if vs.vals == nil {
		vs.vals = map[string]string{}
	}
	vs.vals[name] = val
}

// setsPositional says whether set's arguments assign the positional parameters: "set -- a b" and
// "set a b" do, "set -euo pipefail" does not (-o takes the next word).
func setsPositional(args []word) bool {
	for i := 0; i < len(args); i++ {
		switch s := args[i].s; {
		case s == "--" || s == "-" || args[i].dynamic:
			return true
		case s != "" && (s[0] == '-' || s[0] == '+'):
			if strings.HasSuffix(s, "o") {
				i++ // -o NAME, -euo NAME
			}
		default:
			return true
		}
	}
	return false
}

// hidePositional removes the positional parameters' values ($0 to $9) for the body of a
// function, which gets its caller's, and returns them for restore.
func (vs *varScope) hidePositional() map[string]string {
	if vs == nil || len(vs.vals) == 0 {
		return nil
	}
	var hidden map[string]string
	for i := range 11 {
		name := string(rune('0' + i))
		if i == 10 {
			name = positionalCount
		}
		if v, ok := vs.vals[name]; ok {
			if hidden == nil {
				hidden = map[string]string{}
			}
			hidden[name] = v
			delete(vs.vals, name)
		}
	}
	return hidden
}

// restore puts back what hidePositional removed.
func (vs *varScope) restore(hidden map[string]string) {
	for name, v := range hidden {
		vs.set(name, v)
	}
}

// positional returns a scope for a nested shell ("sh -c SCRIPT NAME ARG..."): a child process
// sees none of the parent's unexported variables, only its positional parameters.
func positional(f *syntax.File, args []word, outer *varScope) *varScope {
	vs := newVarScope(f)
	// The child sees the credential copies its parent made (V=$GITHUB_TOKEN sh -c 'echo $V'),
	// and its positional parameters hold what it was given (sh -c 'echo $1' _ "$GITHUB_TOKEN").
	if outer != nil {
		for name := range outer.secrets {
			vs.secrets[name] = true
		}
	}
	for i, a := range args {
		if credentialVar.MatchString(a.s) || outer.refsSecret([]word{a}) {
			vs.secrets[string(rune('0'+min(i, 9)))] = true
			vs.secrets["@"], vs.secrets["*"] = true, true
		}
	}
	for i, a := range args {
		if i > 9 || a.dynamic {
			return vs
		}
		// A glob given as an argument (sh -c 'cat "$1"' _ .e*, or find -exec's {} for -name
		// '.e*') is the names it matches, quoted or not where the child expands it.
		vs.setItem(string(rune('0'+i)), a)
	}
	if len(args) > 0 {
		// Every parameter is known: "$@" is "$1" ... (allPositionalWords).
		vs.set(positionalCount, strconv.Itoa(len(args)-1))
	}
	return vs
}

// positionalCount is where a scope keeps how many positional parameters it knows all of: no
// shell name, so no script reads or assigns it.
const positionalCount = "@#"

// record notes a standalone assignment ("x=.env") reached unconditionally, whose value is known.
func (a *analyzer) record(as *syntax.Assign) {
	if as.Name == nil || as.Naked || !a.vars.resolvable(as.Name.Value) || a.cond > 0 {
		return
	}
	val := ""
	if as.Value != nil {
		w := a.render(as.Value)
		if w.dynamic {
			return
		}
		val = w.s
	}
	a.vars.set(as.Name.Value, val)
}

// simpleParam reports whether a parameter expansion is a plain $name or ${name}, or ${name:-x}
// and ${name-x} (which equal $name when it is set and not empty).
func simpleParam(p *syntax.ParamExp) bool {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return false
	}
	return p.Exp == nil || p.Exp.Op == syntax.DefaultUnset || p.Exp.Op == syntax.DefaultUnsetOrNull
}
