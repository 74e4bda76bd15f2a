package safety

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// RuleAction is what a damage-control rule does when it matches.
type RuleAction string

const (
	// ActionBlock denies the call at every autonomy level.
	ActionBlock RuleAction = "block"
	// ActionAsk needs a person: without a human approval the call is denied with
	// ToolHumanApprovalRequiredError naming the rule.
	ActionAsk RuleAction = "ask"
)

// Rule is a damage-control rule matched against every simple command of a call's command line,
// after quote removal and unwrapping. Every condition that is set must hold.
type Rule struct {
	// ID identifies the rule in decisions ("damage-control:<id>"); unique within a policy.
	ID string `json:"id"`
	// Action is block or ask.
	Action RuleAction `json:"action"`
	// Class is the action class a match gives the call (e.g. git_destructive, system_modify).
	Class ActionClass `json:"class,omitempty"`
	// Reason explains the rule to the agent and the auditor.
	Reason string `json:"reason"`
	// Commands are glob patterns over the command's base name, lower-cased ("rm", "mkfs.*").
	Commands []string `json:"commands,omitempty"`
	// Subcommands lists accepted first operands ("push" for git, "install" for apt).
	Subcommands []string `json:"subcommands,omitempty"`
	// Flags lists alternatives; each is a space-separated set of flags that must all be present
	// ("-D", "-d --force"). Short bundles count letter by letter: "-rf" has "-r" and "-f".
	Flags []string `json:"flags,omitempty"`
	// ExceptFlags stops the rule from matching when any of these flags is present.
	ExceptFlags []string `json:"exceptFlags,omitempty"`
	// Operand is a regular expression (RE2); some operand after the subcommand must match it, as
	// written, path-cleaned, or resolved against the working directory.
	Operand string `json:"operand,omitempty"`
	// Pattern is a regular expression (RE2) over the normalised command text: the base name and
	// the arguments after quote removal, one space apart.
	Pattern string `json:"pattern,omitempty"`
	// PipeFrom are glob patterns over the names of commands in earlier pipeline stages; one must
	// match ("curl" for "curl ... | sh").
	PipeFrom []string `json:"pipeFrom,omitempty"`
	// Check names a built-in predicate over the command's parsed words (builtinChecks) that must
	// hold too: for what a regular expression cannot read reliably, such as which operand of a
	// kubectl command is its resource once every option and its value are skipped.
	Check string `json:"check,omitempty"`
}

// RulePack is the embedded default damage-control pack.
type RulePack struct {
	// Version is the pack schema version.
	Version int `json:"version"`
	// Rules are evaluated in order.
	Rules []Rule `json:"rules"`
	// Paths is the default path policy.
	Paths PathPolicy `json:"paths"`
	// Recognized are command prefixes (argv words) the autonomy mapping treats as recognised.
	Recognized []string `json:"recognized"`
	// Ordinary are command prefixes of linters, formatters, type checkers, test runners and validating
	// builds the autonomy mapping also treats as recognised. The engine does not model which files
	// they write, so an operand that noWrite, readOnly or noDelete protects still asks
	// (unknown-writer), as for an unrecognised program. Project scripts, installs and changes to a
	// cluster are neither: they ask at Default unless the project declares them.
	Ordinary []string `json:"ordinary"`
}

//go:embed rulepack.json
var rulePackJSON []byte

// DefaultRulePack returns a copy of the embedded default rule pack.
func DefaultRulePack() RulePack {
	var rp RulePack
	if err := json.Unmarshal(rulePackJSON, &rp); err != nil {
		// The pack is compiled into the binary and covered by tests.
		panic(fmt.Sprintf("safety: embedded rule pack: %v", err))
	}
	rp.Paths = withAgentSettingsDirs(rp.Paths)
	return rp
}

// compiledDefaults is built once; it is immutable and shared by every Policy.
var compiledDefaults = sync.OnceValues(func() (*defaults, error) {
	rp := DefaultRulePack()
	d := &defaults{}
	var errs FieldErrors
	for i := range rp.Rules {
		cr, fe := compileRule(rp.Rules[i], fmt.Sprintf("rulePack.rules[%d]", i))
		errs = append(errs, fe...)
		d.rules = append(d.rules, cr)
	}
	d.paths = rp.Paths
	d.recognized, d.ordinary = prefixesByName(rp.Recognized), prefixesByName(rp.Ordinary)
	if len(errs) > 0 {
		return nil, errs
	}
	return d, nil
})

type defaults struct {
	rules      []*compiledRule
	paths      PathPolicy
	recognized map[string][][]string
	ordinary   map[string][][]string
}

// prefixesByName splits each command prefix into its words and indexes it by its program.
func prefixesByName(prefixes []string) map[string][][]string {
	out := map[string][][]string{}
	for _, r := range prefixes {
		if words := strings.Fields(r); len(words) > 0 {
			out[words[0]] = append(out[words[0]], words)
		}
	}
	return out
}

type compiledRule struct {
	Rule
	commands    []string // glob command names, lower-cased
	cmdPrefix   []string // the literal prefix of each glob, checked before matching it
	literalCmds map[string]bool
	pipeFrom    []string // lower-cased
	flagSets    [][]string
	operand     *regexp.Regexp
	pattern     *regexp.Regexp
	filter      *literalFilter // literals every text pattern matches contains (patternfilter.go)
	check       func(*segment) bool
	project     bool     // a project's rule, written for the plain spelling: it also sees the operands-first text
	substitutes []string // a project pattern's words, tried in place of a computed word (computedrules.go)
	programs    []string // the programs an anchored project pattern names first; nil: any
}

// addFunc records a field error: field is relative to the rule, the detail is format applied to
// args.
type addFunc func(field, format string, args ...any)

// compileRule validates and compiles one rule; field errors are reported under prefix.
func compileRule(r Rule, prefix string) (*compiledRule, FieldErrors) {
	var errs FieldErrors
	add := func(field, format string, args ...any) {
		errs = append(errs, FieldError{Field: prefix + "." + field, Detail: fmt.Sprintf(format, args...)})
	}
	cr := &compiledRule{Rule: r}
	validateRuleText(&r, add)
	cr.compileCommands(r.Commands, add)
	cr.compilePipeFrom(r.PipeFrom, add)
	cr.compileFlags(r.Flags, add)
	cr.operand = compileRuleRegexp("operand", r.Operand, add)
	cr.pattern = compileRuleRegexp("pattern", r.Pattern, add)
	if cr.pattern != nil {
		cr.filter = compileLiteralFilter(r.Pattern)
	}
	if r.Check != "" {
		if cr.check = builtinChecks[r.Check]; cr.check == nil {
			add("check", "unknown built-in check %q", r.Check)
		}
	}
	return cr, errs
}

// validateRuleText checks the rule's id, action, class and reason, and that it names commands or
// a pattern.
func validateRuleText(r *Rule, add addFunc) {
	if strings.TrimSpace(r.ID) == "" {
		add("id", "must not be empty")
	} else if len(r.ID) > 128 || strings.ContainsAny(r.ID, " \t\n") {
		add("id", "must be at most 128 characters without spaces")
	}
	if r.Action != ActionBlock && r.Action != ActionAsk {
		add("action", "must be %q or %q, got %q", ActionBlock, ActionAsk, r.Action)
	}
	if r.Class != "" && r.Class.rank() == 0 {
		add("class", "unknown action class %q", r.Class)
	}
	if strings.TrimSpace(r.Reason) == "" {
		add("reason", "must not be empty")
	}
	if len(r.Commands) == 0 && r.Pattern == "" && r.Check == "" {
		add("commands", "a rule needs commands, a pattern or a check, or it would match every command")
	}
}

// compileCommands lower-cases the command globs, splitting literal names from glob patterns.
func (cr *compiledRule) compileCommands(commands []string, add addFunc) {
	for i, c := range commands {
		lc := strings.ToLower(strings.TrimSpace(c))
		if _, err := path.Match(lc, ""); lc == "" || err != nil {
			add(fmt.Sprintf("commands[%d]", i), "invalid command glob %q", c)
			continue
		}
		if i := strings.IndexAny(lc, "*?[\\"); i >= 0 {
			cr.commands = append(cr.commands, lc)
			cr.cmdPrefix = append(cr.cmdPrefix, lc[:i])
		} else {
			if cr.literalCmds == nil {
				cr.literalCmds = map[string]bool{}
			}
			cr.literalCmds[lc] = true
		}
	}
}

// compilePipeFrom lower-cases the pipeline-source globs.
func (cr *compiledRule) compilePipeFrom(pipeFrom []string, add addFunc) {
	for i, p := range pipeFrom {
		lp := strings.ToLower(strings.TrimSpace(p))
		if _, err := path.Match(lp, ""); lp == "" || err != nil {
			add(fmt.Sprintf("pipeFrom[%d]", i), "invalid command glob %q", p)
			continue
		}
		cr.pipeFrom = append(cr.pipeFrom, lp)
	}
}

// compileFlags splits each flag alternative into its set of flags.
func (cr *compiledRule) compileFlags(flags []string, add addFunc) {
	for i, f := range flags {
		set := strings.Fields(f)
		if len(set) == 0 {
			add(fmt.Sprintf("flags[%d]", i), "must name at least one flag")
		}
		for _, fl := range set {
			if !strings.HasPrefix(fl, "-") {
				add(fmt.Sprintf("flags[%d]", i), "flag %q must start with '-'", fl)
			}
		}
		cr.flagSets = append(cr.flagSets, set)
	}
}

// compileRuleRegexp compiles an optional regular expression of a rule; nil when it is empty or
// invalid.
func compileRuleRegexp(field, expr string, add addFunc) *regexp.Regexp {
	if expr == "" {
		return nil
	}
	if len(expr) > 4096 {
		add(field, "regex longer than 4096 characters")
		return nil
	}
	// (?s): a word may hold a newline ('echo $'\n' "$GITHUB_TOKEN"'), and ".*" in "( .*)?" means
	// any words, across it too.
	re, err := regexp.Compile("(?s)" + expr)
	if err != nil {
		add(field, "invalid regex: %v", err)
		return nil
	}
	return re
}

// matchesName reports whether the rule applies to a command name.
func (r *compiledRule) matchesName(name string) bool {
	if len(r.literalCmds) == 0 && len(r.commands) == 0 {
		return true
	}
	if r.literalCmds[name] {
		return true
	}
	return r.matchesGlobName(name)
}

// matchesGlobName reports whether one of the rule's glob command names matches.
func (r *compiledRule) matchesGlobName(name string) bool {
	for i, g := range r.commands {
		if !strings.HasPrefix(name, r.cmdPrefix[i]) {
			continue
		}
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// matches reports whether the rule matches a segment of an analysis.
func (r *compiledRule) matches(an *analysis, s *segment) bool {
	return s.name != "" && r.matchesName(s.name) && r.matchesNamed(an, s)
}

// matchesNamed is matches for a segment whose name the rule names: matchRules's index by literal
// name already knows it does, so the name is not looked up again for each of the program's rules.
func (r *compiledRule) matchesNamed(an *analysis, s *segment) bool {
	ops := s.operands
	if len(r.Subcommands) > 0 {
		if len(ops) == 0 || !slices.Contains(r.Subcommands, strings.ToLower(ops[0].s)) {
			return false
		}
		ops = ops[1:]
	}
	if len(r.flagSets) > 0 && !s.unknownFlags && !r.matchesFlagSets(s) {
		return false
	}
	if slices.ContainsFunc(r.ExceptFlags, s.hasExactFlag) {
		return false
	}
	if r.operand != nil && !r.matchesOperand(s, ops) {
		return false
	}
	if r.pattern != nil && !r.matchesPattern(an, s) {
		return false
	}
	if len(r.pipeFrom) > 0 && !r.matchesPipeFrom(an, s) {
		return false
	}
	return r.check == nil || r.check(s)
}

// matchesPattern matches the rule's pattern against the segment's text, its text with global
// options last and, for a project's rule, its text with the operands first, and each again with
// "--name=value" spelt "--name value": a pattern written for one spelling ("^helm .*--kube-context
// prod") also sees the other (helm list --kube-context=prod). The default pack's patterns are
// written for every order of their own programs' words, and an option's value the parse takes for
// an operand (aws ssm get-parameter --name delete-me) must not move next to the subcommand for
// them. A project's rule also sees each text with the short aliases of options spelt long
// (kubectl -n prod as --namespace prod). Each text the literal filter admits is charged to the
// call's pattern budget before the pattern reads it; past the budget nothing more is read, and
// matchRules denies the call.
func (r *compiledRule) matchesPattern(an *analysis, s *segment) bool {
	opsFirst := ""
	if r.project {
		opsFirst = s.opsFirst
	}
	for i := range 9 {
		var t string
		switch base := [3]string{s.text, s.alt, opsFirst}[i%3]; {
		case i < 3:
			t = base
		case i < 6:
			if t = splitLongValues(base); t == base {
				continue
			}
		default:
			// A project's pattern written with an option's long spelling sees its short alias
			// (flagaliases.go): "^kubectl .*--namespace prod" matches kubectl -n prod.
			if !r.project || base == "" {
				continue
			}
			if t = spellLong(s, base); t == base {
				continue
			}
			t = splitLongValues(t)
		}
		if t == "" || !r.filter.admits(t) {
			continue
		}
		if an.patternBytes += len(t); an.patternBytes > maxPatternBytes {
			return false
		}
		if r.pattern.MatchString(t) {
			return true
		}
	}
	return false
}

// splitLongValues returns the normalised text with every "--name=value" word spelt "--name value"
// (but a boolean's "--name=false").
func splitLongValues(t string) string {
	if !strings.Contains(t, " --") || !strings.Contains(t, "=") {
		return t
	}
	words := strings.Split(t, " ")
	changed := false
	for i, w := range words {
		if name, val, ok := strings.Cut(w, "="); ok && len(name) > 2 && strings.HasPrefix(name, "--") && !boolLiteral(val) {
			words[i], changed = name+" "+val, true
		}
	}
	if !changed {
		return t
	}
	return strings.Join(words, " ")
}

// boolLiteral is a value Go's and pflag's boolean options take ("--privileged=false"): spelt
// "--privileged false" it would be the option on, followed by an operand.
func boolLiteral(v string) bool {
	_, err := strconv.ParseBool(strings.ToLower(v))
	return err == nil
}

// matchesFlagSets reports whether the segment has every flag of at least one flag set.
func (r *compiledRule) matchesFlagSets(s *segment) bool {
	for _, set := range r.flagSets {
		if hasAllFlags(s, set) {
			return true
		}
	}
	return false
}

// hasAllFlags reports whether the segment has every flag of set.
func hasAllFlags(s *segment, set []string) bool {
	for _, f := range set {
		if !s.hasFlag(f) {
			return false
		}
	}
	return true
}

// matchesOperand reports whether one of ops matches the operand expression as written,
// path-cleaned, or resolved against the segment's working directory.
func (r *compiledRule) matchesOperand(s *segment, ops []word) bool {
	for _, o := range ops {
		if r.operand.MatchString(o.s) || r.operand.MatchString(operandForm(o.s)) || r.operand.MatchString(resolvePath(s.cwd, o.s)) {
			return true
		}
	}
	return false
}

// matchesPipeFrom reports whether a command of an earlier pipeline stage matches one of the
// rule's pipeline-source globs.
func (r *compiledRule) matchesPipeFrom(an *analysis, s *segment) bool {
	for _, i := range s.pipeFrom {
		for _, g := range r.pipeFrom {
			if m, _ := path.Match(g, an.segments[i].name); m && an.segments[i].name != "" {
				return true
			}
		}
	}
	return false
}

// operandForm is an operand as rules see it: path-cleaned when it looks like a path ("./" is ".",
// "/tmp/../" is "/"), with $HOME as "~".
func operandForm(s string) string {
	if s == "" || strings.HasPrefix(s, "-") {
		return s
	}
	s = expandHome(s)
	if strings.ContainsRune(s, '/') || s == "." || s == ".." || strings.HasPrefix(s, "~") {
		if strings.HasPrefix(s, "~") {
			return resolvePath("", s)
		}
		return path.Clean(s)
	}
	return s
}
