package safety

import "fmt"

// unknownWriterFailure asks for the first path an unrecognised program is given that noWrite,
// readOnly or noDelete protects (RuleUnknownWriter): the engine reads such a program's operands as
// reads, but cannot tell whether it writes them (sponge ~/.bashrc, gcc -o ~/.bashrc, gpg -o
// .git/hooks/pre-commit). At Yolo autonomy, which admits unrecognised programs, those policies
// would otherwise not apply to them.
func (p *Policy) unknownWriterFailure(an *analysis, targets []target) *failure {
	if an == nil {
		return nil
	}
	for _, t := range targets {
		if t.seg == 0 || t.op != opRead || t.dynamic {
			continue
		}
		s := &an.segments[t.seg-1]
		if s.wrapper || s.localFunc || s.name == "" || p.recognizedSegment(s) {
			continue
		}
		for _, op := range [...]pathOp{opWrite, opDelete} {
			if v, ok := p.paths.check(t.path, op, t.glob); ok {
				return &failure{kind: kindHumanApprovalRequired, ask: true, rule: RuleUnknownWriter,
					msg: fmt.Sprintf("unrecognised program %q is given %q, which the %s path policy protects (pattern %q); the engine cannot tell whether it writes or deletes it, so it needs human approval", s.name, t.raw, v.kind, v.pattern)}
			}
		}
	}
	return nil
}

// stampSegment marks the paths recorded since start as named by segment idx's words.
func (a *analyzer) stampSegment(start, idx int) {
	for i := start; i < len(a.out.paths); i++ {
		if a.out.paths[i].seg == 0 {
			a.out.paths[i].seg = int16(idx + 1)
		}
	}
}
