package safety

import "slices"

// Mode is a profile's enforcement mode.
type Mode string

const (
	// ModeEnforce denies a call that fails a check. The empty Mode means ModeEnforce.
	ModeEnforce Mode = "Enforce"
	// ModeWarn admits a call that would have been denied, reporting WouldDeny so the webhook can
	// return an admission warning naming the reason.
	ModeWarn Mode = "Warn"
	// ModeAudit admits a call that would have been denied, reporting WouldDeny silently.
	ModeAudit Mode = "Audit"
)

// effective maps the empty mode to ModeEnforce.
func (m Mode) effective() Mode {
	if m == "" {
		return ModeEnforce
	}
	return m
}

const (
	// DefaultMaxRetriesPerStep is the retry limit of the default profile.
	DefaultMaxRetriesPerStep int32 = 3
	// MaxRetriesLimit is the largest retry limit a profile may set (the spec's 0-100 range).
	MaxRetriesLimit int32 = 100
	// DefaultMaxStepsPerPlan is how many distinct steps a plan may use when its profile does not say.
	DefaultMaxStepsPerPlan int32 = 100
	// MaxStepsLimit is the largest step limit a profile may set.
	MaxStepsLimit int32 = 1000
)

// Profile groups the hard safety constraints of spec/safety-profiles.md plus the tool lists, a
// read-only switch and the enforcement mode. The zero value restricts nothing; use
// DefaultProfile for the spec's defaults. Pointers distinguish "no limit" (nil) from a limit.
type Profile struct {
	// RequireSandbox denies writing tools that run without a sandbox id.
	RequireSandbox bool
	// RequireCheckpoints denies writing tools that cannot checkpoint.
	RequireCheckpoints bool
	// AllowUnsafeTools admits tools marked unsafe.
	AllowUnsafeTools bool
	// RequireHumanApproval requires a recorded human approval for every call.
	RequireHumanApproval bool
	// ReadOnly denies every writing tool, like a read-only plan.
	ReadOnly bool
	// AllowedSkillCategories restricts tools to these skill categories. Nil and empty both mean
	// every category is allowed.
	AllowedSkillCategories []string
	// AllowedTools restricts calls to tools whose name matches one of these glob patterns
	// ("test/*", "fs/**"). Nil and empty both mean every tool is allowed.
	AllowedTools []string
	// DeniedTools denies tools whose name matches one of these glob patterns; it wins over
	// AllowedTools.
	DeniedTools []string
	// MaxCostPerPlan denies calls once the plan's accumulated cost reaches it. Nil means no limit.
	MaxCostPerPlan *Money
	// MaxTotalCost denies calls once the total cost across plans reaches it. Nil means no limit.
	MaxTotalCost *Money
	// MaxRetriesPerStep denies a step retried more often than this (0-100). Nil means no limit.
	MaxRetriesPerStep *int32
	// MaxStepsPerPlan bounds the distinct steps of a plan that declares none (1-1000); 0 means
	// DefaultMaxStepsPerPlan. The admission webhook enforces it, since only it knows the plan's steps.
	MaxStepsPerPlan int32
	// Mode is the enforcement mode; empty means ModeEnforce.
	Mode Mode
}

// DefaultProfile returns the spec's DEFAULT_SAFETY_PROFILE: sandbox and checkpoints required,
// unsafe tools denied, no approval, every skill category and tool allowed, three retries per step,
// no cost limits, enforced.
func DefaultProfile() *Profile {
	return &Profile{
		RequireSandbox:     true,
		RequireCheckpoints: true,
		MaxRetriesPerStep:  new(DefaultMaxRetriesPerStep),
		Mode:               ModeEnforce,
	}
}

// Names of the built-in profiles the operator ensures.
const (
	BuiltinUnrestricted = "unrestricted" // nothing in the profile restricts
	BuiltinReadOnly     = "read-only"    // the default profile with ReadOnly set
	BuiltinSandboxed    = "sandboxed"    // sandbox and checkpoints required, three retries
)

// BuiltinNames lists the built-in profile names in a stable order.
func BuiltinNames() []string {
	return []string{BuiltinUnrestricted, BuiltinReadOnly, BuiltinSandboxed}
}

// Builtin returns a fresh copy of the named built-in profile, or false for an unknown name.
//
//   - unrestricted: no profile check restricts (unsafe tools allowed, no sandbox, checkpoint,
//     approval, cost or retry limits). The argument safety net still applies.
//   - read-only: the default profile with ReadOnly set, so every writing tool is denied; unsafe
//     tools stay denied.
//   - sandboxed: sandbox and checkpoints required, unsafe tools denied, three retries per step.
func Builtin(name string) (*Profile, bool) {
	switch name {
	case BuiltinUnrestricted:
		return &Profile{AllowUnsafeTools: true, Mode: ModeEnforce}, true
	case BuiltinReadOnly:
		p := DefaultProfile()
		p.ReadOnly = true
		return p, true
	case BuiltinSandboxed:
		return &Profile{
			RequireSandbox:     true,
			RequireCheckpoints: true,
			MaxRetriesPerStep:  new(DefaultMaxRetriesPerStep),
			Mode:               ModeEnforce,
		}, true
	}
	return nil, false
}

// Clone returns a deep copy, so a locked snapshot never aliases the profile it came from.
func (p *Profile) Clone() *Profile {
	if p == nil {
		return nil
	}
	c := *p
	c.AllowedSkillCategories = slices.Clone(p.AllowedSkillCategories)
	c.AllowedTools = slices.Clone(p.AllowedTools)
	c.DeniedTools = slices.Clone(p.DeniedTools)
	if p.MaxCostPerPlan != nil {
		c.MaxCostPerPlan = new(*p.MaxCostPerPlan)
	}
	if p.MaxTotalCost != nil {
		c.MaxTotalCost = new(*p.MaxTotalCost)
	}
	if p.MaxRetriesPerStep != nil {
		c.MaxRetriesPerStep = new(*p.MaxRetriesPerStep)
	}
	return &c
}

// StepLimit is the effective MaxStepsPerPlan.
func (p *Profile) StepLimit() int32 {
	if p.MaxStepsPerPlan <= 0 {
		return DefaultMaxStepsPerPlan
	}
	return p.MaxStepsPerPlan
}
