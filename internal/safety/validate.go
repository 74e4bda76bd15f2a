package safety

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Bounds on list sizes keep a compiled policy small and every evaluation cheap.
const (
	maxListItems  = 256
	maxNameLength = 253
)

// FieldError is one invalid field, shaped like Kubernetes' field.Error so admission webhooks can
// turn it into one cause each: Field is a dotted path relative to the validated object
// ("maxRetriesPerStep", "commandRules[2].pattern").
type FieldError struct {
	// Field is the path of the invalid field.
	Field string
	// Detail explains what is wrong.
	Detail string
}

// Error returns "field: detail".
func (e FieldError) Error() string { return e.Field + ": " + e.Detail }

// FieldErrors is a list of invalid fields; as an error it reports all of them.
type FieldErrors []FieldError

// Error joins every field error with "; ".
func (l FieldErrors) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// add appends an error for field whose detail is format applied to args.
func (l *FieldErrors) add(field, format string, args ...any) {
	*l = append(*l, FieldError{Field: field, Detail: fmt.Sprintf(format, args...)})
}

// prefixed returns the list with prefix + "." before every field.
func (l FieldErrors) prefixed(prefix string) FieldErrors {
	out := make(FieldErrors, len(l))
	for i, e := range l {
		out[i] = FieldError{Field: prefix + "." + e.Field, Detail: e.Detail}
	}
	return out
}

// ValidateProfile checks a profile's fields; nil means valid. A nil profile is valid (no profile).
func ValidateProfile(p *Profile) FieldErrors {
	if p == nil {
		return nil
	}
	var errs FieldErrors
	add := func(field, format string, args ...any) {
		errs = append(errs, FieldError{Field: field, Detail: fmt.Sprintf(format, args...)})
	}
	switch p.Mode {
	case "", ModeEnforce, ModeWarn, ModeAudit:
	default:
		add("mode", "must be one of Enforce, Warn, Audit; got %q", p.Mode)
	}
	if r := p.MaxRetriesPerStep; r != nil && (*r < 0 || *r > MaxRetriesLimit) {
		add("maxRetriesPerStep", "must be between 0 and %d, got %d", MaxRetriesLimit, *r)
	}
	if n := p.MaxStepsPerPlan; n < 0 || n > MaxStepsLimit {
		add("maxStepsPerPlan", "must be between 1 and %d, got %d", MaxStepsLimit, n)
	}
	if m := p.MaxCostPerPlan; m != nil && m.Nanos() < 0 {
		add("maxCostPerPlan", "must not be negative, got %s", m)
	}
	if m := p.MaxTotalCost; m != nil && m.Nanos() < 0 {
		add("maxTotalCost", "must not be negative, got %s", m)
	}
	checkNames := func(field string, list []string, glob bool) {
		if len(list) > maxListItems {
			add(field, "must have at most %d items, got %d", maxListItems, len(list))
			return
		}
		for i, s := range list {
			f := fmt.Sprintf("%s[%d]", field, i)
			switch {
			case strings.TrimSpace(s) == "":
				add(f, "must not be empty")
			case s != strings.TrimSpace(s):
				add(f, "must not start or end with spaces")
			case len(s) > maxNameLength:
				add(f, "must be at most %d characters", maxNameLength)
			case glob && !doublestar.ValidatePattern(s):
				add(f, "invalid glob pattern %q", s)
			}
		}
	}
	checkNames("allowedSkillCategories", p.AllowedSkillCategories, false)
	checkNames("allowedTools", p.AllowedTools, true)
	checkNames("deniedTools", p.DeniedTools, true)
	return errs
}

// ValidateRules checks project rules, compiling every regular expression and glob once; nil
// means valid. Field paths are relative to the rules ("commandRules[2].pattern").
func ValidateRules(r ProjectRules) FieldErrors {
	_, errs := compileRules(r)
	return errs
}
