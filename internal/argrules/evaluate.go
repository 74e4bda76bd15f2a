package argrules

import (
	"fmt"
	"slices"

	"github.com/google/cel-go/common/types"
)

// Input is what the rules see of one call.
type Input struct {
	Tool    string
	Command string
	Paths   []string
	Cwd     string
	// Extra is the parsed spec.arguments.extra (ParseExtra); nil is an empty map.
	Extra map[string]any
}

// Violation is a rule that did not hold.
type Violation struct {
	// Rule is the rule's name.
	Rule string
	// Index is its position in the project's list.
	Index int
	// Message explains the denial: the rule's message, or why it could not be evaluated.
	Message string
	// EvalError is true when the rule could not be evaluated (a missing key, a type mismatch,
	// the cost limit): the call is denied all the same.
	EvalError bool
}

// Evaluate runs every rule that applies to in.Tool, in order, and returns the first that does
// not hold, or nil. An expression that errors or yields anything but true denies.
func (s *Set) Evaluate(in Input) *Violation {
	if s == nil {
		return nil
	}
	extra := in.Extra
	if extra == nil {
		extra = map[string]any{}
	}
	paths := in.Paths
	if paths == nil {
		paths = []string{}
	}
	vars := map[string]any{VarArgs: extra, VarCommand: in.Command, VarPaths: paths, VarCwd: in.Cwd, VarTool: in.Tool}
	var indexes keyIndexes // built when a rule names a key
	for i, r := range s.rules {
		if len(r.Tools) > 0 && !slices.Contains(r.Tools, in.Tool) {
			continue
		}
		if len(r.keys) > 0 && indexes == nil {
			indexes = keyIndexes{}
		}
		if key, want, how := respelled(extra, r.keys, indexes); key != "" {
			return &Violation{Rule: r.Name, Index: i, Message: respellingMessage(r.Name, key, how, want)}
		}
		out, _, err := r.prg.Eval(vars)
		if err != nil {
			return &Violation{Rule: r.Name, Index: i, EvalError: true, Message: fmt.Sprintf(
				"argument rule %s could not be evaluated, so the call is denied: %v", r.Name, err)}
		}
		if out != types.True {
			if _, isBool := out.(types.Bool); !isBool {
				return &Violation{Rule: r.Name, Index: i, EvalError: true, Message: fmt.Sprintf(
					"argument rule %s yielded %s, not a bool, so the call is denied", r.Name, out.Type().TypeName())}
			}
			msg := r.Message
			if msg == "" {
				msg = "the arguments do not satisfy " + r.Expression
			}
			return &Violation{Rule: r.Name, Index: i, Message: "argument rule " + r.Name + ": " + msg}
		}
	}
	return nil
}
