package safety

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A pid computed from the agent's or the shell's own is still theirs: kill $((PPID)), kill
// $(echo $$), P=${PPID:-1}; kill $P, read P <<< "$PPID"; kill $P and (( P = PPID )); kill $P
// signal the agent as kill $PPID does. callerDerived finds such values, so kill's check
// (killTargetsAll) sees the parameter they come from.

// callerDerived returns the caller's pid parameter ("$$", "$BASHPID", "$PPID") a word's value is
// computed from, or "": the parameter (or a copy, pidOf) under any operator but its length
// (${PPID:-1}, ${PPID%% *}), arithmetic that reads it ($((PPID)), $[$$ + 0]), or a command
// substitution one of whose commands is given it as a whole word or as the /proc directory of
// it (echo $PPID, ps -o ppid= -p $$, cut -d' ' -f4 /proc/$$/stat). A word that only embeds it
// in a name (/tmp/pid.$$) is not one: the value read from such a file is some other pid.
func (vs *varScope) callerDerived(w *syntax.Word) string {
	if w == nil || len(w.Parts) != 1 {
		return ""
	}
	part := w.Parts[0]
	if q, ok := part.(*syntax.DblQuoted); ok && len(q.Parts) == 1 {
		part = q.Parts[0]
	}
	switch p := part.(type) {
	case *syntax.ParamExp:
		if p.Param == nil || p.Length || p.Width || p.Excl {
			return ""
		}
		if src := vs.pidOf(p.Param.Value); src != "" {
			return src
		}
		return vs.defaultPid(p)
	case *syntax.ArithmExp:
		return vs.arithCaller(p.X)
	case *syntax.CmdSubst:
		return vs.substCaller(p.Stmts)
	}
	return ""
}

// defaultPid returns the number a parameter the line never assigns defaults to when it is init,
// every process or the caller's group: kill -9 ${P:--1} is kill -9 -1 wherever P is unset, as it
// is in the agent's environment unless the agent set it.
func (vs *varScope) defaultPid(p *syntax.ParamExp) string {
	if p.Exp == nil || p.Exp.Word == nil || p.Slice != nil || p.Repl != nil || p.Index != nil || vs != nil && vs.assigned[p.Param.Value] > 0 {
		return ""
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
	default:
		return ""
	}
	lit, ok := literalText(p.Exp.Word)
	if !ok {
		return ""
	}
	if v, err := strconv.ParseInt(strings.TrimSpace(lit), 10, 64); err == nil && everyPid(v) {
		return strconv.FormatInt(v, 10)
	}
	return ""
}

// arithCaller returns the caller's pid parameter an arithmetic expression reads, by name (PPID)
// or expanded ($PPID, $$), or "".
func (vs *varScope) arithCaller(x syntax.ArithmExpr) string {
	src := ""
	syntax.Walk(x, func(n syntax.Node) bool {
		if src != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false // $(( $(cat /tmp/pid.$$) )) is the file's pid, not the shell's
		case *syntax.Word:
			if name := n.Lit(); name != "" {
				src = vs.pidOf(name)
			}
		case *syntax.ParamExp:
			if n.Param != nil && !n.Length {
				src = vs.pidOf(n.Param.Value)
			}
		}
		return true
	})
	return src
}

// substCaller returns the caller's pid parameter a command substitution's commands are given,
// whole or as its /proc directory, or "".
func (vs *varScope) substCaller(stmts []*syntax.Stmt) string {
	src, children := "", false
	for _, st := range stmts {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				// Not walked again here: an argument that is one is read by callerDerived, once,
				// so nested substitutions cost their size and not its square.
				return false
			}
			c, ok := n.(*syntax.CallExpr)
			if !ok || src != "" {
				return src == ""
			}
			for i, a := range c.Args[min(1, len(c.Args)):] {
				if src = vs.callerDerived(a); src == "" {
					src = vs.procOfCaller(a)
				}
				if src != "" && listsShellsChildren(c, i+1, src) {
					src, children = "", true
				}
				if src != "" {
					break
				}
			}
			return src == ""
		})
	}
	if src == "" && children {
		return bgPid // the line's own jobs, as $! is: not asked by kill-computed
	}
	return src
}

// procOfCaller returns the caller's pid parameter a /proc/PID/... word names, or "".
func (vs *varScope) procOfCaller(w *syntax.Word) string {
	if len(w.Parts) < 2 {
		return ""
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	p, isParam := w.Parts[1].(*syntax.ParamExp)
	if !ok || !isParam || !strings.HasSuffix(l.Value, "/proc/") || p.Param == nil || p.Length {
		return ""
	}
	return vs.pidOf(p.Param.Value)
}

// callerAssigns marks the variables a statement assigns a caller's pid to, besides plain
// assignments (callerCopy): arithmetic (let P=PPID, (( P = $$ ))), read fed it on standard input
// (read P <<< "$PPID") and printf -v (printf -v P %s "$PPID"). Arithmetic assignments are counted
// as assignments, so a name assigned again is no copy (pidOf).
func (vs *varScope) callerAssigns(n syntax.Node) {
	switch n := n.(type) {
	case *syntax.BinaryArithm:
		if name := arithTarget(n.X); name != "" && isAssignOp(n.Op) {
			vs.assigned[name]++
			if src := vs.arithPid(n.Y); src != "" && n.Op == syntax.Assgn {
				vs.markPid(name, src)
			}
		}
	case *syntax.UnaryArithm:
		if name := arithTarget(n.X); name != "" && (n.Op == syntax.Inc || n.Op == syntax.Dec) {
			vs.assigned[name]++
		}
	case *syntax.Stmt:
		vs.builtinCallerAssigns(n)
	}
}

// builtinCallerAssigns marks the names read or printf -v assign a caller's pid: read fed it on
// standard input, printf given it as an argument.
func (vs *varScope) builtinCallerAssigns(st *syntax.Stmt) {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return
	}
	var fed []*syntax.Word
	switch prog := c.Args[0].Lit(); {
	case readers[prog]:
		for _, r := range st.Redirs {
			fed = append(fed, stdinBody(r))
		}
	case prog == cmdPf:
		fed = c.Args[1:]
	}
	for _, w := range fed {
		if src := vs.pidSource(w); src != "" {
			for _, name := range builtinNames(c.Args[0].Lit(), c.Args[1:]) {
				if l := name.Lit(); l != "" {
					vs.markPid(l, src)
				}
			}
			return
		}
	}
}

// arithPid returns the caller's pid parameter an arithmetic assignment's value reads, or the
// number it is when it is init, every process or the caller's group (let P=-1, (( P = 0 ))), or "".
func (vs *varScope) arithPid(x syntax.ArithmExpr) string {
	if src := vs.arithCaller(x); src != "" {
		return src
	}
	if v, ok := constArith(x); ok && everyPid(v) {
		return strconv.FormatInt(v, 10)
	}
	return ""
}

// pidSource returns the caller's pid parameter a word fed to read or printf -v is computed from,
// or the number it is when it is init, every process or the caller's group (read P <<< -1), or
// "". A plain assignment's literal (P=-1) is not one: it resolves as any variable does.
func (vs *varScope) pidSource(w *syntax.Word) string {
	if src := vs.callerDerived(w); src != "" || w == nil || len(w.Parts) == 0 {
		return src
	}
	lit, _ := literalText(w)
	if x, ok := w.Parts[0].(*syntax.ArithmExp); ok && len(w.Parts) == 1 {
		if v, ok := constArith(x.X); ok {
			lit = strconv.FormatInt(v, 10)
		}
	}
	if v, err := strconv.ParseInt(strings.TrimSpace(lit), 10, 64); err == nil && everyPid(v) {
		return strconv.FormatInt(v, 10)
	}
	return ""
}

// arithTarget is the variable an arithmetic assignment assigns, or "".
func arithTarget(x syntax.ArithmExpr) string {
	if w, ok := x.(*syntax.Word); ok {
		return w.Lit()
	}
	return ""
}

func isAssignOp(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn,
		syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

func (vs *varScope) markPid(name, src string) {
	if vs.pids == nil {
		vs.pids = map[string]string{}
	}
	vs.pids[name] = src
}

// listsShellsChildren reports whether the caller's pid src, the argument at i, is the parent whose
// children pgrep -P (--parent) or ps --ppid lists, and that parent is the shell ($$, $BASHPID):
// kill $(pgrep -P $$) and kill $(ps -o pid= --ppid $$) stop the line's own background jobs, as
// pkill -P $$ does, and never the shell or the agent. -P $PPID lists the agent's children, the
// shell among them, and stays the caller's; so does ps -p $$, the shell itself.
func listsShellsChildren(c *syntax.CallExpr, i int, src string) bool {
	if src == ppid || i < 2 {
		return false
	}
	opt := c.Args[i-1].Lit()
	switch c.Args[0].Lit() {
	case cmdPgrep:
		return opt == "-P" || opt == "--parent"
	case "ps":
		return opt == "--ppid"
	}
	return false
}
