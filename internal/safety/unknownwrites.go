package safety

import (
	"fmt"
	"strings"
)

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
		if t.seg == 0 || t.op != opRead || t.dynamic && !t.glob {
			continue
		}
		s := &an.segments[t.seg-1]
		if s.wrapper || s.localFunc || s.name == "" || p.knownWriter(s, an.cwd) && !forwardsToUnknown(s) {
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

// unknownAttachedValues records, for a program the engine has no table for, the path a short
// option carries attached (-o~/.bashrc, -o.git/hooks/pre-commit): a word that starts with a dash,
// one letter and then text that reads as a path (it holds a "/" or starts with "~" or "."). Such a
// program's options are not known, so a bundle of flags is told from a value only that way.
func (a *analyzer) unknownAttachedValues(seg *segment) {
	if _, known := argSpecs[seg.name]; known {
		return
	}
	loader, isLoader := dotenvFileOptions[seg.name]
	for _, w := range seg.words[1:] {
		v := w.s
		if w.dynamic || len(v) < 4 || v[0] != '-' || v[1] == '-' || isLoader && strings.HasPrefix(v, loader.short) {
			// A loader's file (-f.env) is judged by dotenvFiles, as its other spellings are.
			continue
		}
		if rest := v[2:]; strings.Contains(rest, "/") || rest[0] == '~' || rest[0] == '.' {
			a.touch(w.with(rest), opRead)
		}
	}
}
