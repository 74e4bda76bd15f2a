package safety

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Limits on a call's path list.
const (
	maxCallPaths  = 1024
	maxPathLength = 4096
)

// target is one path a call touches, resolved against its working directory.
type target struct {
	raw       string
	path      string
	op        pathOp
	dynamic   bool
	glob      bool
	recursive bool
	members   bool     // an extraction's destination: what it holds may be written (extractInto)
	listing   bool     // a recursive listing of names (listedFailure)
	entered   bool     // the call's working directory, which its command starts in
	seg       int16    // pathRef.seg
	only      []string // pathRef.only
}

// ruleMatch is the outcome of matching the rule pack against every segment.
type ruleMatch struct {
	block, ask       *compiledRule
	blockSeg, askSeg int
	class            ActionClass
}

// checkArguments is step 10: the safety net over the call's command and paths (damage-control
// rules, path policy, write roots), then the autonomy mapping. It returns the escalated class.
func (p *Policy) checkArguments(c *Call, class ActionClass) (*failure, ActionClass) {
	approved := c.Context.HumanApproved
	cwd := p.callCwd(c.Args.Cwd)
	an, f := analyzeCallCommand(c.Args.Command, cwd)
	if f != nil {
		return f, class
	}
	targets, f := p.targets(c, cwd, an)
	if f != nil {
		return f, class
	}
	var m ruleMatch
	if f := p.matchRules(an, &m); f != nil {
		return f, class
	}
	class = escalate(class, m.class)
	class = escalate(class, p.pathClass(targets, cwd))

	if f := p.readOnlyFailure(c, an, targets, class); f != nil {
		return f, class
	}
	if f := p.writeRootFailure(c, targets); f != nil {
		return f, class
	}
	if f := blockFailure(c, an, &m, class); f != nil {
		return f, class
	}
	if f := p.pathPolicyFailure(targets, an); f != nil {
		return f, class
	}
	if f := p.containmentFailure(targets, cwd, p.projectRoots(cwd, c.Args.ProjectDir), approved); f != nil {
		return f, class
	}
	if !approved {
		p.gitRepositoryFindings(an)
		p.buildsElsewhereFindings(an, c.Args.ProjectDir)
		p.outsideProgramFindings(an)
		if f := p.askFailure(an, &m, targets); f != nil {
			return f, class
		}
	}

	opts := AutonomyOptions{
		ExecuteRecognized:    p.recognizedCommand(an),
		ReadOutsideWorkspace: p.readsOutsideWorkspace(class, targets),
	}
	return p.autonomyFailure(c, class, opts, approved), class
}

// analyzeCallCommand analyses the call's command, if it has one; a command that cannot be
// analysed fails.
func analyzeCallCommand(command, cwd string) (*analysis, *failure) {
	if command == "" {
		return nil, nil
	}
	an, aerr := analyzeCommand(command, cwd)
	if aerr != nil {
		return nil, &failure{kind: kindSafetyViolation, rule: aerr.rule,
			msg: "command is denied because it cannot be checked: " + aerr.msg}
	}
	return an, nil
}

// modifies reports whether the target is written or deleted.
func (t *target) modifies() bool { return t.op == opWrite || t.op == opDelete }

// readOnlyFailure denies writes and system-modifying or git-destructive calls in a read-only plan
// or under a read-only profile.
func (p *Policy) readOnlyFailure(c *Call, an *analysis, targets []target, class ActionClass) *failure {
	if !c.Context.ReadOnlyPlan && (p.profile == nil || !p.profile.ReadOnly) {
		return nil
	}
	rule, what := RuleReadOnlyPlan, "the plan is read-only"
	if !c.Context.ReadOnlyPlan {
		rule, what = RuleReadOnlyProfile, "the safety profile is read-only"
	}
	for _, t := range targets {
		if t.modifies() {
			return &failure{kind: kindAccessDenied, rule: rule,
				msg: fmt.Sprintf("the call would %s %q and %s", t.op, t.raw, what)}
		}
	}
	if class == ClassSystemModify || class == ClassGitDestructive {
		return &failure{kind: kindAccessDenied, rule: rule,
			msg: fmt.Sprintf("the call is classified %s and %s", class, what)}
	}
	if an != nil {
		for i := range an.segments {
			if s := &an.segments[i]; s.opaque {
				return &failure{kind: kindAccessDenied, rule: rule,
					msg: fmt.Sprintf("command %q runs code the engine cannot see, which could write, and %s", truncate(s.text, 120), what)}
			}
		}
	}
	return nil
}

// writeRootFailure confines writes to the write roots, when there are any, and denies calls that
// run commands under that confinement.
func (p *Policy) writeRootFailure(c *Call, targets []target) *failure {
	if len(p.writeRoots) == 0 {
		return nil
	}
	if base := baseClass(c); c.Args.Command != "" || base == ClassExecute || base == ClassDispatch {
		return &failure{kind: kindAccessDenied, rule: RuleWriteRootExecute,
			msg: fmt.Sprintf("tool %q runs commands, which could write outside the write roots [%s]; execute and dispatch calls are denied under write-root confinement", c.Tool.Name, strings.Join(p.writeRoots, ", "))}
	}
	for _, t := range targets {
		if t.modifies() && !isDeviceSink(t.path) && !inAny(t.path, p.writeRoots) {
			return &failure{kind: kindAccessDenied, rule: RuleWriteRoot,
				msg: fmt.Sprintf("the call would %s %q (%s), outside the write roots [%s]", t.op, t.raw, t.path, strings.Join(p.writeRoots, ", "))}
		}
	}
	return nil
}

// blockFailure denies blocking findings of the command analysis, the earliest blocking
// damage-control rule and git-destructive calls.
func blockFailure(c *Call, an *analysis, m *ruleMatch, class ActionClass) *failure {
	if an != nil {
		for _, fd := range an.findings {
			if fd.block {
				return &failure{kind: kindSafetyViolation, rule: fd.rule, msg: fd.msg}
			}
		}
	}
	if m.block != nil {
		return &failure{kind: kindSafetyViolation, rule: RulePrefixDamageControl + m.block.ID,
			msg: fmt.Sprintf("command %q is blocked by damage-control rule %q: %s", an.segments[m.blockSeg].text, m.block.ID, m.block.Reason)}
	}
	if class == ClassGitDestructive {
		return &failure{kind: kindSafetyViolation, rule: RuleGitDestructive,
			msg: fmt.Sprintf("tool %q is git-destructive and is denied at every autonomy level", c.Tool.Name)}
	}
	return nil
}

// pathPolicyFailure denies the first target the path policy blocks.
func (p *Policy) pathPolicyFailure(targets []target, an *analysis) *failure {
	for _, t := range targets {
		if v, ok := p.paths.check(t.path, t.op, t.glob); ok {
			return &failure{kind: kindAccessDenied, rule: RulePrefixPathPolicy + v.kind.String(),
				msg: fmt.Sprintf("%s of %q is denied by the %s path policy (pattern %q)", t.op, t.raw, v.kind, v.pattern)}
		}
		if t.op != opWrite || t.dynamic || t.glob || madeDirectory(an, t) || addsName(an, t) {
			continue
		}
		// A write of a directory above a protected file replaces what it holds: mv x .vscode, ln -s
		// x .vscode put x/mcp.json at .vscode/mcp.json, as a protected directory (.zed) is judged.
		if v, inside, ok := p.paths.nestedVerdict(t.path, t.op, false); ok {
			return &failure{kind: kindAccessDenied, rule: RulePrefixPathPolicy + v.kind.String(),
				msg: fmt.Sprintf("%s of %q replaces %q, which the %s path policy protects (pattern %q)", t.op, t.raw, inside, v.kind, v.pattern)}
		}
	}
	return nil
}

// addsName says whether write target t is a directory its command only adds names to: cp of
// files (no -r, -R, -a) or ln, into a directory named with a trailing slash or by -t. cp
// settings.json .vscode/ writes .vscode/settings.json, judged as a target of its own, and cannot
// make .vscode where none was (cp -r x .vscode/ and mv x .vscode/ can: they are judged as
// replacing it).
func addsName(an *analysis, t target) bool {
	if an == nil || t.seg <= 0 || int(t.seg) > len(an.segments) {
		return false
	}
	seg := &an.segments[t.seg-1]
	has := func(flags ...string) bool { return slices.ContainsFunc(flags, seg.hasFlag) }
	if seg.unknownFlags || has("-T", "--no-target-directory") ||
		seg.name != "ln" && (seg.name != "cp" || has("-r", "-R", "-a", "--recursive", "--archive")) {
		return false
	}
	return strings.HasSuffix(t.raw, "/") || has("-t", "--target-directory")
}

// madeDirectory says whether a target is mkdir's: an empty directory, made only where none was,
// holds no protected file (mkdir -p .vscode), unlike one moved or linked there.
func madeDirectory(an *analysis, t target) bool {
	return an != nil && t.seg > 0 && int(t.seg) <= len(an.segments) && an.segments[t.seg-1].name == cmdMkdir
}

// askFailure asks for a person on asking findings, the earliest asking damage-control rule, writes
// to paths computed at run time and project commands that require confirmation. It only applies
// when no person approved the call.
func (p *Policy) askFailure(an *analysis, m *ruleMatch, targets []target) *failure {
	if an != nil {
		for _, fd := range an.findings {
			if !fd.block {
				return &failure{kind: kindHumanApprovalRequired, ask: true, rule: fd.rule, msg: fd.msg}
			}
		}
	}
	if m.ask != nil {
		return &failure{kind: kindHumanApprovalRequired, ask: true, rule: RulePrefixDamageControl + m.ask.ID,
			msg: fmt.Sprintf("command %q needs human approval (damage-control rule %q): %s", an.segments[m.askSeg].text, m.ask.ID, m.ask.Reason)}
	}
	if an != nil && p.projectPatterns {
		// A call without a command, or a project without pattern rules, has nothing to try.
		if f := p.computedRuleFailure(an); f != nil {
			return f
		}
	}
	if f := p.dynamicTargetFailure(targets); f != nil {
		return f
	}
	if f := gitConfigFileFailure(targets); f != nil {
		return f
	}
	if f := packageConfigFileFailure(targets); f != nil {
		return f
	}
	if f := p.unknownWriterFailure(an, targets); f != nil {
		return f
	}
	if pc := p.confirmCommand(an); pc != nil {
		return &failure{kind: kindHumanApprovalRequired, ask: true, rule: "project-command:" + pc.id,
			msg: fmt.Sprintf("project command %q requires confirmation", strings.Join(pc.words, " "))}
	}
	return nil
}

// dynamicTargetFailure asks for a person when the call touches a path computed at run time: the
// engine cannot rule out that it is protected, so it never admits it unasked. The message names
// the path policies that could match.
func (p *Policy) dynamicTargetFailure(targets []target) *failure {
	for _, t := range targets {
		if !t.dynamic {
			// Not even below a device sink: /dev/fd/$n is /dev/fd/../root/etc/shadow when n is
			// "../root/etc/shadow".
			continue
		}
		rule := RuleDynamicPath
		if t.op == opWrite {
			rule = RuleDynamicWriteTarget
		}
		return &failure{kind: kindHumanApprovalRequired, ask: true, rule: rule,
			msg: fmt.Sprintf("the call would %s %q, a path computed at run time; the engine cannot rule out that the %s path policy protects it, so it needs human approval", t.op, t.raw, p.paths.couldBlock(t.op))}
	}
	return nil
}

// readsOutsideWorkspace reports whether a read call touches an absolute or home path outside the
// workspace (device sinks aside).
func (p *Policy) readsOutsideWorkspace(class ActionClass, targets []target) bool {
	if class != ClassRead || p.workspace == "" {
		return false
	}
	for _, t := range targets {
		// Starting in a directory is judged by the path policy only: what a command reads
		// there it names (ls, cat x), and a build run from /tmp/build is no read outside.
		if isAbsOrHome(t.path) && !under(t.path, p.workspace) && !isDeviceSink(t.path) && !t.entered {
			return true
		}
	}
	return false
}

// callCwd resolves the call's working directory against the workspace.
func (p *Policy) callCwd(cwd string) string {
	if cwd == "" {
		return p.workspace
	}
	return resolvePath(p.workspace, cwd)
}

// targets collects the call's own paths (written when the tool writes) and the command's paths.
func (p *Policy) targets(c *Call, cwd string, an *analysis) ([]target, *failure) {
	args := &c.Args
	if len(args.Paths) > maxCallPaths {
		return nil, &failure{kind: kindSafetyViolation, rule: RulePathInvalid,
			msg: fmt.Sprintf("the call names %d paths, more than the %d the engine checks", len(args.Paths), maxCallPaths)}
	}
	n := len(args.Paths)
	// A command starts in the call's working directory, which the agent names: as "cd DIR && ls"
	// reads DIR, so does "ls" run there (a Cwd of ~/.ssh lists the keys' names).
	enters := an != nil && args.Cwd != "" && cwd != p.workspace
	if an != nil {
		n += len(an.paths)
	}
	if enters {
		n++
	}
	if n == 0 {
		return nil, nil // nothing to check, and no call into makeslice for an empty list
	}
	if f := pathsWorkFailure(args.Paths); f != nil {
		return nil, f
	}
	out := make([]target, 0, n)
	op := opRead
	if c.Tool.Writes {
		op = opWrite
	}
	deletes := c.Tool.ActionClass == ClassDelete
	if deletes {
		op = opDelete
	}
	out, f := ownTargets(out, args.Paths, cwd, op, deletes)
	if f != nil {
		return nil, f
	}
	if enters {
		out = append(out, target{raw: args.Cwd, path: cwd, op: opRead, entered: true})
	}
	if an != nil {
		for _, r := range an.paths {
			pattern, read := globPattern(r.raw, r.glob)
			resolved, known := resolveTarget(r.cwd, pattern)
			known = known && read
			t := target{raw: r.raw, path: resolved, op: r.op, dynamic: r.dynamic || !known, glob: r.glob, recursive: r.recursive, members: r.members, listing: r.listing, seg: r.seg, only: r.only}
			out = append(out, t)
			if p, ok := procGlobAsWritten(r.cwd, pattern, resolved); ok && r.glob {
				t.path = p
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// ownTargets appends the call's own paths to out, each with op (recursive for a deleting tool).
func ownTargets(out []target, paths []string, cwd string, op pathOp, deletes bool) ([]target, *failure) {
	for _, raw := range paths {
		if len(raw) > maxPathLength || strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return nil, &failure{kind: kindSafetyViolation, rule: RulePathInvalid,
				msg: fmt.Sprintf("path %q is longer than %d bytes or contains control characters", truncate(raw, 64), maxPathLength)}
		}
		v, resolved, known := callPath(cwd, raw)
		if v == "" {
			continue
		}
		if hasGlobMeta(v) {
			var read bool
			v, read = canonicalGlob(v)
			resolved, known = resolveTarget(cwd, v)
			known = known && read
		}
		out = append(out, target{raw: raw, path: resolved, op: op, dynamic: !known, glob: hasGlobMeta(v), recursive: deletes})
		if p, ok := procGlobAsWritten(cwd, v, resolved); ok && hasGlobMeta(v) {
			out = append(out, target{raw: raw, path: p, op: op, dynamic: !known, glob: true, recursive: deletes})
		}
		if v[0] == '~' || v[0] == '$' {
			// A tool runs no shell on its arguments: to most, "~x/../shadow" and
			// "$HOME/../shadow" are directories below the working directory, and the path
			// climbs out of them (a few expand "~/" as a shell does). Judged both ways.
			literal, known := resolveTarget(cwd, "./"+v)
			out = append(out, target{raw: raw, path: literal, op: op, dynamic: !known, glob: hasGlobMeta(v), recursive: deletes})
		}
	}
	return out, nil
}

// pathsWorkFailure refuses a call whose own paths cost more than the work budget (a glob costing
// what checking it does).
func pathsWorkFailure(paths []string) *failure {
	work := 0
	for _, raw := range paths {
		if work++; hasGlobMeta(raw) {
			work += globWork(raw) - 1
		}
	}
	if work > maxWork {
		return &failure{kind: kindSafetyViolation, rule: RuleCommandTooComplex,
			msg: fmt.Sprintf("the call's paths are more than the engine checks (work budget %d, a glob costing %d)", maxWork, globCost)}
	}
	return nil
}

// callPath is one of a call's own paths as the engine reads it: v, the path the tool is named
// (invisible characters dropped, a leading "@" and a file: URL's scheme taken off), empty for
// none, and v resolved from cwd, with whether that is known (resolveTarget).
func callPath(cwd, raw string) (v, resolved string, known bool) {
	v, _ = stripFileURL(strings.TrimPrefix(foldPath(raw), "@"))
	if v == "" {
		return "", "", true
	}
	resolved, known = resolveTarget(cwd, v)
	return v, resolved, known
}

// ResolvedArguments are a call's working directory and own paths as the engine resolves them,
// lexically ("..", ".", "//", a file: URL, the links under /proc; no symlinks): what the tool
// opens, for argument rules to judge rather than the spelling the agent chose
// ("/workspace/../etc" is /etc). The working directory is resolved on its own ("" stays ""),
// each path from it; a path that names nothing (empty) is left out.
func ResolvedArguments(cwd string, paths []string) (string, []string) {
	if cwd != "" {
		cwd = resolvePath("", cwd)
	}
	out := make([]string, 0, len(paths))
	for _, raw := range paths {
		if v, resolved, _ := callPath(cwd, raw); v != "" {
			out = append(out, resolved)
		}
	}
	return cwd, out
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// matchRules matches every rule against every segment into m; it fails when the patterns would
// read more than maxPatternBytes, leaving the match incomplete. The earliest matching block rule
// wins, then the earliest ask rule; every match escalates the class. It fills the caller's m
// rather than returning the six-word struct, which the allow path paid for in a store-forwarding
// stall even when there is no command to match.
func (p *Policy) matchRules(an *analysis, m *ruleMatch) *failure {
	if an == nil {
		return nil
	}
	blockIdx, askIdx := len(p.rules), len(p.rules)
	try := func(ri, si int, named bool) {
		r := p.rules[ri]
		if named && !r.matchesNamed(an, &an.segments[si]) || !named && !r.matches(an, &an.segments[si]) {
			return
		}
		m.class = escalate(m.class, r.Class)
		switch {
		case r.Action == ActionBlock && ri < blockIdx:
			blockIdx, m.block, m.blockSeg = ri, r, si
		case r.Action == ActionAsk && ri < askIdx:
			askIdx, m.ask, m.askSeg = ri, r, si
		}
	}
	for si := range an.segments {
		name := an.segments[si].name
		if name == "" {
			continue
		}
		for _, ri := range p.byName[name] {
			try(ri, si, true)
		}
		for _, ri := range p.generic {
			try(ri, si, false)
		}
	}
	if an.patternBytes > maxPatternBytes {
		return &failure{kind: kindSafetyViolation, rule: RuleCommandTooComplex,
			msg: fmt.Sprintf("command is denied because it cannot be checked: its commands are longer than the rule pack's patterns read (%d bytes)", maxPatternBytes)}
	}
	return nil
}

// pathClass escalates writes outside the working directory and workspace to system_modify:
// system roots, the home directory, paths that climb out of an unknown base.
func (p *Policy) pathClass(targets []target, cwd string) ActionClass {
	class := ActionClass("")
	for _, t := range targets {
		if !t.modifies() {
			continue
		}
		switch {
		case isDeviceSink(t.path), inAny(t.path, scratchRoots):
		case escapes(t.path):
			class = ClassSystemModify
		case !isAbsOrHome(t.path):
		case isAbsOrHome(cwd) && under(t.path, cwd), p.workspace != "" && under(t.path, p.workspace):
		case strings.HasPrefix(t.path, "~"), inAny(t.path, systemRoots), isAbsOrHome(cwd) || p.workspace != "":
			class = ClassSystemModify
		}
	}
	return class
}

// recognizedCommand reports whether every command the call runs is a built-in recognised command
// or a project command.
func (p *Policy) recognizedCommand(an *analysis) bool {
	if an == nil {
		return true
	}
	for i := range an.segments {
		s := &an.segments[i]
		if s.wrapper || s.localFunc || s.fallback || s.asModule {
			continue
		}
		if s.name == "" || s.opaque {
			return false
		}
		if !p.recognizedSegment(s, an.cwd) {
			return false
		}
	}
	return true
}

// recognizedSegment says whether the segment, started from the call's working directory start,
// is recognised.
func (p *Policy) recognizedSegment(s *segment, start string) bool {
	return p.knownWriter(s, start) || p.runByName(s, start) && !beyondQuery(s) && (matchesPrefix(p.ordinary[s.name], s) || validatingBuild(s))
}

// runByName says whether the segment's program is the one its name says: run by its name or from
// an installed program's directory, not a file of the project's or from elsewhere by that name
// (programpaths.go).
func (p *Policy) runByName(s *segment, start string) bool {
	place, _ := p.programPlace(s, start)
	return place == placeByName
}

// knownWriter reports whether the segment is a recognised command whose writes the engine models,
// or a project command; an ordinary one (RulePack.Ordinary) is not.
func (p *Policy) knownWriter(s *segment, start string) bool {
	place, prog := p.programPlace(s, start)
	for i := range p.commands {
		if p.commands[i].runs(s, place, prog, start) {
			return true
		}
	}
	return place == placeByName && !beyondQuery(s) && matchesPrefix(p.recognized[s.name], s)
}

// runs reports whether a segment is exactly the declared project command: the same program and
// the same words, without environment assignments; a declaration ending in "..." admits further
// literal words. A command with other words or options is another command, which the project did
// not declare. A program declared by its path is that file, found from the call's working
// directory start; one declared by its name is not a file of that name elsewhere.
func (pc *projectCommand) runs(s *segment, place programPlace, prog, start string) bool {
	words := pc.words
	open := len(words) > 1 && words[len(words)-1] == projectArgsWildcard
	if open {
		words = words[:len(words)-1]
	}
	if len(s.env) > s.lineEnv || s.name != commandName(words[0]) || len(s.words) < len(words) || (!open && len(s.words) != len(words)) {
		return false
	}
	if declared := words[0]; strings.ContainsRune(declared, '/') {
		if !strings.HasPrefix(declared, "/") {
			declared = path.Join(start, declared)
		}
		if prog == "" || declared != prog {
			return false
		}
	} else if place != placeByName {
		return false
	}
	for k, w := range s.words[1:] {
		if w.dynamic || (k+1 < len(words) && w.s != words[k+1]) {
			return false
		}
	}
	return true
}

// confirms reports whether a segment may run the declared command that requires confirmation:
// the same program with the declared operands in a row anywhere among its operands, whatever
// options, global options and other targets come with it ("make -k deploy", "make test deploy",
// "terraform -chdir=infra apply"). Asking too often is safe; missing one is not, so a computed
// operand matches any.
func (pc *projectCommand) confirms(s *segment) bool {
	if s.name != commandName(pc.words[0]) {
		return false
	}
	for start := 0; start+len(pc.operands) <= len(s.operands); start++ {
		if operandsAt(s.operands[start:], pc.operands) {
			return true
		}
	}
	return false
}

func operandsAt(have []word, want []string) bool {
	for k, o := range want {
		if !have[k].dynamic && have[k].s != o {
			return false
		}
	}
	return true
}

// confirmCommand returns the project command requiring confirmation that the call runs, if any.
func (p *Policy) confirmCommand(an *analysis) *projectCommand {
	if an == nil {
		return nil
	}
	for i := range an.segments {
		for j := range p.commands {
			if p.commands[j].confirm && p.commands[j].confirms(&an.segments[i]) {
				return &p.commands[j]
			}
		}
	}
	return nil
}

// prefixOf reports whether a segment's words start with the given words (the first one compared
// with the segment's normalised name).
func prefixOf(words []string, s *segment) bool {
	if len(words) == 0 || len(words) > len(s.words) || words[0] != s.name {
		return false
	}
	for k := 1; k < len(words); k++ {
		if s.words[k].dynamic || s.words[k].s != words[k] {
			return false
		}
	}
	return true
}

// pythonModuleOf reports whether a recognised "python -m MODULE ..." is what a Python command line
// runs, whatever interpreter options come before the module (python -B -m pytest, -mpytest), as
// CPython reads them; not with -i, which reads more code from standard input after the module.
func pythonModuleOf(words []string, s *segment) bool {
	if len(words) < 3 || words[1] != "-m" {
		return false
	}
	p, ok := readPython(s)
	if !ok || p.kind != pyModule || p.inspect || p.target.dynamic || p.target.s != words[2] || len(p.words) < len(words)-2 {
		return false
	}
	for k, w := range words[3:] {
		if a := p.words[k+1]; a.dynamic || a.s != w {
			return false
		}
	}
	return true
}

// autonomyFailure applies the autonomy mapping; an "ask" passes when a person approved.
func (p *Policy) autonomyFailure(c *Call, class ActionClass, o AutonomyOptions, approved bool) *failure {
	switch MapAutonomy(p.autonomy, class, o) {
	case DispositionDeny:
		return &failure{kind: kindSafetyViolation, rule: RulePrefixAutonomy + string(class),
			msg: fmt.Sprintf("tool %q is classified %s, which is denied at every autonomy level", c.Tool.Name, class)}
	case DispositionAsk:
		if approved {
			return nil
		}
		rule, why := RulePrefixAutonomy+string(class), fmt.Sprintf("the call is classified %s", class)
		switch {
		case class == ClassExecute && !o.ExecuteRecognized:
			rule, why = RulePrefixAutonomy+"execute-unrecognized", fmt.Sprintf("command %q is not a recognised or project command", truncate(c.Args.Command, 200))
		case class == ClassRead && o.ReadOutsideWorkspace:
			rule, why = RulePrefixAutonomy+"read-outside-workspace", "the call reads outside the workspace "+p.workspace
		}
		return &failure{kind: kindHumanApprovalRequired, ask: true, rule: rule,
			msg: fmt.Sprintf("%s; at %s autonomy it needs human approval", why, p.autonomy)}
	}
	return nil
}
