package safety

// Verdict is the engine's answer.
type Verdict string

const (
	// VerdictAllow admits the call.
	VerdictAllow Verdict = "allow"
	// VerdictAsk needs a person: the call is not admitted, but a human approval would admit it.
	// The webhook denies it with ToolHumanApprovalRequiredError until one exists.
	VerdictAsk Verdict = "ask"
	// VerdictDeny refuses the call.
	VerdictDeny Verdict = "deny"
)

// Decision is the outcome of Evaluate.
type Decision struct {
	// Verdict is allow, ask or deny. Under Warn and Audit a failing check still yields allow,
	// with WouldDeny set: admit on Verdict, never on Err.
	Verdict Verdict
	// WouldDeny is true when a check failed but the mode (Warn, Audit) admitted the call anyway.
	WouldDeny bool
	// Reason is the reason code of the failing check ("" when every check passed).
	Reason string
	// RuleID names the rule that decided ("" when every check passed).
	RuleID string
	// Message explains the decision to the agent.
	Message string
	// Err is the typed error of the failing check (errors.As-able), also under Warn and Audit so
	// the caller can warn and record it; nil when every check passed.
	Err error
	// Class is the action class the engine assigned to the call.
	Class ActionClass
	// Mode is the enforcement mode that applied.
	Mode Mode
}

// Allowed reports whether the call is admitted.
func (d Decision) Allowed() bool { return d.Verdict == VerdictAllow }

// Evaluate runs the ordered checks against one call and returns the first failure's decision, or
// allow. It is pure and safe for concurrent use. A nil policy, or one not made by Compile, denies:
// the engine fails closed.
//
// Order: read-only plan; deny-list then allow-list; checkpoints; unsafe tools; skill categories;
// sandbox; human approval; cost; retries; arguments (command and path safety net, then the
// autonomy mapping); loop detection.
func Evaluate(p *Policy, call Call) Decision {
	if p == nil || !p.compiled {
		msg := "no compiled safety policy is available for this call; the engine fails closed"
		return Decision{Verdict: VerdictDeny, Reason: ReasonToolAccessDenied, RuleID: RulePolicyMissing, Message: msg,
			Err: &ToolAccessDeniedError{Violation{Tool: call.Tool.Name, RuleID: RulePolicyMissing, Message: msg}}, Mode: ModeEnforce}
	}
	class := baseClass(&call)
	if f := profileChain(p, &call); f != nil {
		return p.decide(&call, f, class)
	}
	f, class := p.checkArguments(&call, class)
	if f != nil {
		return p.decide(&call, f, class)
	}
	if f := checkLoop(p, &call); f != nil {
		return p.decide(&call, f, class)
	}
	return Decision{Verdict: VerdictAllow, Class: class, Mode: p.mode}
}

func (p *Policy) decide(c *Call, f *failure, class ActionClass) Decision {
	d := Decision{Verdict: VerdictDeny, Reason: f.kind.reason(), RuleID: f.rule, Message: f.msg, Class: class, Mode: p.mode,
		Err: f.kind.newError(c.Tool.Name, f.rule, f.msg)}
	if f.ask {
		d.Verdict = VerdictAsk
	}
	if p.mode != ModeEnforce {
		d.Verdict = VerdictAllow
		d.WouldDeny = true
	}
	return d
}

// baseClass is the registry's class, or one derived from the capability and the arguments.
func baseClass(c *Call) ActionClass {
	switch {
	case c.Tool.ActionClass != "":
		if c.Tool.ActionClass.rank() == 0 {
			return ClassUnknown
		}
		return c.Tool.ActionClass
	case c.Args.Command != "":
		return ClassExecute
	case c.Tool.Writes:
		return ClassWrite
	}
	return ClassRead
}
