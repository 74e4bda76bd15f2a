package safety

import (
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A workload stopped by scaling it to zero (cluster-workload-stop, the stops-workload check).
// helmfile's --set is helm's. (A computed --replicas could be any option: print-credentials-kubectl
// asks first.)
// kubectl scale --replicas=0 and a patch written on the line are read from the command's text. A
// patch or a chart's values the text does not show are read where the engine can: a here-document
// or here-string on standard input (--patch-file /dev/stdin, apply -f -, helm -f -), echo or
// printf piped in, helm's --set, --set-string and --set-json pairs (replicaCount=0, a subchart's
// api.replicas=0). A patch or values file the line itself wrote, a computed patch (-p "$(cat
// p.json)", -p "$P" set elsewhere, --patch-file "$F") and a computed --set key or replica count are
// what the engine cannot see: they ask. A file the line did not write is not read, as kubectl
// apply -f is not (Known limits).

// zeroNumber is a number kubectl's and YAML's integer parsers read as 0 (00, -0, +0, 0x0, 0o0,
// 0b0, 0_0); zeroCount is one in quotes too.
const (
	zeroNumber = `[-+]?0[xXoObB]?[0_]*`
	zeroCount  = `["']?` + zeroNumber
)

var (
	// workloadStopText reads kubectl's and oc's text: --replicas of 0, apply --prune, and a patch
	// that sets replicas to 0 (a merge or strategic patch in JSON or YAML, a JSON patch's value 0
	// with a /replicas path in either order) or holds a \uXXXX escape, which could spell the key.
	workloadStopText = regexp.MustCompile(`( |^)--replicas[ =]` + zeroNumber + `( |$)|( |^)--prune( |=|$)|(^| )patch .*(` +
		zeroReplicasPattern + `)`)
	// zeroReplicasText reads a patch, a manifest or a chart's values fed to the command.
	zeroReplicasText = regexp.MustCompile(zeroReplicasPattern)
	// zeroCountValue is a --set value read as 0.
	zeroCountValue = regexp.MustCompile(`^` + zeroCount + `$`)
)

// zeroReplicasPattern matches replicas (or a chart's replicaCount) set to 0 in JSON or YAML, a JSON
// patch's value 0 for a /replicas path, or any \uXXXX escape.
const zeroReplicasPattern = `replica(s|Count)["']?\s*:\s*(!!int\s*)?` + zeroCount + `([^0-9.]|$)|/replica(s|Count)\b.*value["']?\s*:\s*(!!int\s*)?` +
	zeroCount + `([^0-9.]|$)|value["']?\s*:\s*(!!int\s*)?` + zeroCount + `([^0-9.]|$).*/replica(s|Count)\b|\\u[0-9a-fA-F]{4}`

// stopsWorkload is the stops-workload check.
func stopsWorkload(s *segment) bool {
	if s.stopsWorkload {
		return true
	}
	if s.name != cmdKubectl && s.name != cmdOC || len(s.operands) == 0 {
		return false
	}
	switch strings.ToLower(s.operands[0].s) {
	case "scale", subApply, subPatch:
		return workloadStopText.MatchString(s.text) || s.alt != "" && workloadStopText.MatchString(s.alt)
	case subEdit:
		// An editor the line names edits the objects unseen: KUBE_EDITOR="sed -i s/…/replicas: 0/".
		return slices.ContainsFunc(s.env, func(e string) bool {
			name, _, _ := strings.Cut(e, "=")
			return editorVars[name]
		})
	}
	return false
}

// editorVars name the editor kubectl edit (and git, crontab -e, …) runs.
var editorVars = map[string]bool{"KUBE_EDITOR": true, "EDITOR": true, "VISUAL": true}

// helmfile, and its verbs that install or upgrade releases.
const cmdHelmfile = "helmfile"

var helmfileApplies = strings.Fields("apply sync deploy")

// kubectl's and helm's subcommands read here.
const (
	subPatch   = "patch"
	subUpgrade = "upgrade"
	subReplace = "replace"
)

// workloadInput marks a kubectl, oc or helm segment that scales a workload to zero by what it is
// fed or given in a file or value the command's text does not show.
func (a *analyzer) workloadInput(idx int, redirs []*syntax.Redirect) {
	s := &a.out.segments[idx]
	if len(s.operands) == 0 || s.name != cmdKubectl && s.name != cmdOC && s.name != cmdHelm && s.name != cmdHelmfile {
		return // before lower-casing the verb: no allocation for every other command
	}
	verb := strings.ToLower(s.operands[0].s)
	var stops bool
	switch {
	case (s.name == cmdKubectl || s.name == cmdOC) && verb == subPatch:
		stops = a.patchStops(s, redirs)
	case (s.name == cmdKubectl || s.name == cmdOC) && (verb == subApply || verb == subReplace || verb == subCreate):
		stops = a.filesStop(s, optionValues(s, "-f", "--filename"), redirs, false)
	case s.name == cmdHelm && (verb == subUpgrade || verb == subInstall):
		stops = helmSetsZero(s) || a.filesStop(s, optionValues(s, "-f", "--values"), redirs, true)
	case s.name == cmdHelmfile:
		// helmfile's --set, a global option, is given to every release it applies or syncs.
		stops = slices.ContainsFunc(s.operands, func(w word) bool { return slices.Contains(helmfileApplies, w.s) }) && helmSetsZero(s)
	}
	a.out.segments[idx].stopsWorkload = stops
}

// patchStops reads kubectl patch's patch: a computed -p/--patch, or a --patch-file.
func (a *analyzer) patchStops(s *segment, redirs []*syntax.Redirect) bool {
	for v := range optionValues(s, "-p", "--patch") {
		if v.dynamic {
			return true
		}
	}
	return a.filesStop(s, optionValues(s, "--patch-file", "--patch-file"), redirs, true)
}

// filesStop reads the files a command takes its objects, patch or values from: standard input's
// text, the text the line wrote into one (cat > f <<EOF, echo … > f), and whether the line wrote
// one otherwise or computed it (asked only when unseen counts, not for apply -f, whose files hold
// whole objects the engine does not read unless the line shows them).
func (a *analyzer) filesStop(s *segment, files func(func(word) bool), redirs []*syntax.Redirect, unseen bool) bool {
	for v := range files {
		// helm's --values takes a comma-separated list.
		for f := range strings.SplitSeq(v.s, ",") {
			if namesStdin(f) {
				if a.stdinStops(s, redirs, unseen) {
					return true
				}
			} else if a.fileStops(word{s: f, dynamic: v.dynamic}, unseen) {
				return true
			}
		}
	}
	return false
}

// fileStops reads one file a command takes its objects, patch or values from: the text the line
// wrote into it, or whether the line wrote it otherwise or computed its name.
func (a *analyzer) fileStops(f word, unseen bool) bool {
	if f.dynamic {
		return unseen
	}
	if t, ok := a.textOf(f.s); ok {
		return zeroReplicasText.MatchString(t)
	}
	return (unseen || a.texts.dropped) && a.lineWrote(f.s)
}

// maxKeptTexts bounds the files keptTexts remembers (the latest are the ones a patch follows).
const maxKeptTexts = 4

// keptTexts are the files the line wrote text it shows into: the segment, its redirection's
// target word and the here-document it reads (nil: echo's or printf's words), and the number of
// paths recorded then. Resolved only when a command reads one of them, so a line that writes
// files and reads none pays nothing.
type keptTexts struct {
	n       int
	dropped bool // more were kept than fit: a file written with text may be read as written otherwise, which asks
	kept    [maxKeptTexts]struct {
		seg, at   int
		out, body *syntax.Word
	}
}

// keepText keeps a cat of a here-document, or an echo or printf, whose standard output a
// redirection writes into a file (not appends: the file's earlier text is not known), and a cat
// of a here-document piped on.
func (a *analyzer) keepText(idx int, redirs []*syntax.Redirect) {
	s := &a.out.segments[idx]
	var body *syntax.Word
	switch {
	case s.name == cmdCat && len(s.operands) == 0:
		for _, r := range redirs {
			if b := stdinBody(r); b != nil {
				body = b
			}
		}
		if body == nil {
			return
		}
	case (s.name == cmdEcho || s.name == cmdPf) && s.yields != nil:
	default:
		return
	}
	var out *syntax.Word
	for _, r := range redirs {
		if r.Op == syntax.RdrOut || r.Op == syntax.RdrClob {
			if r.N == nil || r.N.Value == "1" {
				out = r.Word
			}
		}
	}
	if out == nil && body == nil {
		return // echo's words piped on are read from the segment (fedText)
	}
	t := &a.texts
	if t.n == maxKeptTexts {
		copy(t.kept[:], t.kept[1:])
		t.n, t.dropped = t.n-1, true
	}
	k := &t.kept[t.n]
	k.seg, k.at, k.out, k.body = idx, len(a.out.paths), out, body
	t.n++
}

// textOf returns the text the line last wrote into f, when a kept write is the last write the
// line made to it (nothing written to it, or to a computed path, since).
func (a *analyzer) textOf(f string) (string, bool) {
	key := a.fetchKey(f)
	t := &a.texts
	for i := t.n - 1; i >= 0; i-- {
		k := &t.kept[i]
		if k.out == nil {
			continue // a cat piped on (fedText)
		}
		if w := a.render(k.out); w.dynamic || a.fetchKey(w.s) != key {
			continue
		}
		for j := k.at; j < len(a.out.paths); j++ {
			if r := &a.out.paths[j]; r.op == opWrite && (r.dynamic || a.pathKey(r) == key) {
				return "", false
			}
		}
		if k.body == nil {
			return strings.Join(a.out.segments[k.seg].yields, " "), true
		}
		b := a.render(k.body)
		return b.s, !b.dynamic
	}
	return "", false
}

// stdinStops reads what a command is fed: the text of a here-document or here-string, a file
// redirected in (as fileStops reads it), or what earlier stages of its pipeline print: echo's or
// printf's words, cat's here-document. Text computed at run time, and another program's output,
// could be anything (asked only when unseen counts).
func (a *analyzer) stdinStops(s *segment, redirs []*syntax.Redirect, unseen bool) bool {
	for _, r := range slices.Backward(redirs) {
		if body := stdinBody(r); body != nil {
			t := a.render(body)
			return t.dynamic && unseen || zeroReplicasText.MatchString(t.s)
		}
		if r.Op == syntax.RdrIn && r.Word != nil {
			return a.fileStops(a.render(r.Word), unseen)
		}
	}
	for _, i := range s.pipeFrom {
		if f := &a.out.segments[i]; f.name == cmdCat && len(f.operands) == 1 {
			// cat FILE | kubectl patch --patch-file /dev/stdin reads FILE, as --patch-file FILE does.
			if a.fileStops(f.operands[0], unseen) {
				return true
			}
			continue
		}
		t, ok := a.fedText(i)
		if ok && zeroReplicasText.MatchString(t) || !ok && unseen {
			return true
		}
	}
	return false
}

// fedText returns what an earlier stage of a pipeline prints, when the line shows it: echo's or
// printf's words, or the here-document a cat without operands passes on (keepText).
func (a *analyzer) fedText(i int) (string, bool) {
	f := &a.out.segments[i]
	if (f.name == cmdEcho || f.name == cmdPf) && f.yields != nil {
		return strings.Join(f.yields, " "), true
	}
	t := &a.texts
	for j := t.n - 1; j >= 0; j-- {
		if k := &t.kept[j]; k.seg == i && k.out == nil && k.body != nil {
			b := a.render(k.body)
			return b.s, !b.dynamic
		}
	}
	return "", false
}

// lineWrote says whether an earlier command of the line wrote text into the file f.
func (a *analyzer) lineWrote(f string) bool { return a.lineWroteAt(f, false) }

// lineWroteBelow says whether an earlier command of the line wrote text into a file below the
// directory dir, or copied or unpacked a tree that may hold one.
func (a *analyzer) lineWroteBelow(dir string) bool { return a.lineWroteAt(dir, true) }

// lineWroteAt is lineWrote, and with below lineWroteBelow.
func (a *analyzer) lineWroteAt(f string, below bool) bool {
	key := a.fetchKey(f)
	for i := range a.out.paths {
		r := &a.out.paths[i]
		if r.op != opWrite || r.members && !below || !a.contentWrite(r.seg) {
			continue
		}
		k := a.pathKey(r)
		if r.dynamic || k == key || below && (under(k, key) || r.members && under(key, k)) {
			return true
		}
	}
	return false
}

// helmSetsZero reads helm's --set, --set-string and --set-json pairs (comma-separated, a backslash
// escaping a comma), and --set-file's: a chart's replicaCount, or a subchart's replicas, set to 0
// or to a value computed at run time, or a key computed at run time.
func helmSetsZero(s *segment) bool {
	for _, opt := range []string{"--set", "--set-string", "--set-json", "--set-literal", "--set-file"} {
		for v := range optionValues(s, opt, opt) {
			for _, pair := range splitUnescaped(v.s, ',') {
				key, val, _ := strings.Cut(pair, "=")
				if v.dynamic && strings.ContainsAny(key, "$`") {
					return true
				}
				last := strings.ToLower(key[strings.LastIndexByte(key, '.')+1:])
				if last != "replicacount" && last != "replicas" {
					continue
				}
				if opt == "--set-file" || v.dynamic && strings.ContainsAny(val, "$`") || zeroCountValue.MatchString(val) {
					return true
				}
			}
		}
	}
	return false
}

// splitUnescaped splits s at each sep not preceded by a backslash.
func splitUnescaped(s string, sep byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
