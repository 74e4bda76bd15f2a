package safety

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"
)

// ProjectCommand is a command a project declares as known, so the autonomy mapping treats it as
// recognised (allowed at Default autonomy) or, with RequireConfirmation, always asks for it.
type ProjectCommand struct {
	// ID identifies the command in decisions ("project-command:<id>").
	ID string `json:"id"`
	// Command is a simple command line; a call's command matches when its words start with these
	// words ("make test" matches "make test V=1").
	Command string `json:"command"`
	// RequireConfirmation makes the command ask for a person every time.
	RequireConfirmation bool `json:"requireConfirmation,omitempty"`
}

// Defaults and bounds of LoopPolicy.
const (
	DefaultLoopMaxRepeats = 5           // identical calls admitted per window
	DefaultLoopWindow     = time.Minute // the sliding window
	maxLoopRepeats        = 1000
	maxLoopWindow         = 24 * time.Hour
)

// MaxWorkspaceLength bounds ProjectRules.Workspace, as the ProjectPolicy's schema does.
const MaxWorkspaceLength = 1024

// LoopPolicy bounds identical calls: more than MaxRepeats within Window is a loop.
type LoopPolicy struct {
	// MaxRepeats is how many identical calls the window admits. Zero means
	// DefaultLoopMaxRepeats; a negative value turns loop detection off.
	MaxRepeats int `json:"maxRepeats,omitempty"`
	// Window is the sliding window. Zero means DefaultLoopWindow.
	Window time.Duration `json:"window,omitempty"`
}

// ProjectRules is everything besides the safety profile that governs a call's arguments: a
// ProjectPolicy's rules plus the autonomy level of the resolved AutomationProfile. The embedded
// defaults (rule pack, path policy, recognised commands) always apply; project rules can only add
// to them.
type ProjectRules struct {
	// CommandRules are extra damage-control rules, matched after the default pack.
	CommandRules []Rule `json:"commandRules,omitempty"`
	// Commands are the project's known commands.
	Commands []ProjectCommand `json:"commands,omitempty"`
	// Paths extends the default path policy.
	Paths PathPolicy `json:"paths,omitempty"`
	// WriteRoots, when set, confine writes to these directories (absolute, "~/..." or relative to
	// Workspace); execute and dispatch calls are then denied, since they could write anywhere.
	WriteRoots []string `json:"writeRoots,omitempty"`
	// Workspace is the absolute project directory, a clean path below / of at most
	// MaxWorkspaceLength bytes: the working directory of calls that name none (relative ones and
	// relative write roots resolve against it), the boundary for reads outside the workspace (ask
	// at Default autonomy) and for git run outside it, and a project root wherever a call runs
	// from (containment.go).
	Workspace string `json:"workspace,omitempty"`
	// Autonomy is the autonomy level; empty means AutonomyDefault.
	Autonomy AutonomyLevel `json:"autonomy,omitempty"`
	// Loop bounds identical calls.
	Loop LoopPolicy `json:"loop,omitempty"`
}

// Policy is a compiled, immutable profile plus project rules: every regex and glob is compiled
// once, when the plan's snapshot is locked. A Policy is safe for concurrent use.
type Policy struct {
	compiled   bool
	profile    *Profile
	hash       string
	mode       Mode
	allowed    toolMatcher
	denied     toolMatcher
	categories []string

	rules   []*compiledRule
	byName  map[string][]int
	generic []int
	// projectPatterns says whether a project's rule has a pattern, which a computed word could
	// make match (computedrules.go).
	projectPatterns bool
	paths           pathPolicy
	recognized      map[string][][]string // recognised command prefixes by command name
	ordinary        map[string][][]string // recognised prefixes whose writes the engine does not model
	commands        []projectCommand
	writeRoots      []string
	workspace       string
	autonomy        AutonomyLevel
	loop            LoopPolicy
}

type projectCommand struct {
	id       string
	words    []string // the declared argv, words[0] the normalised program name, or its path when declared by one
	operands []string // the declared operands (subcommands and targets), options left out
	confirm  bool
}

// projectArgsWildcard ends a declared project command that accepts further literal words
// ("go test ...").
const projectArgsWildcard = "..."

// Profile returns a copy of the compiled profile; nil when the policy has none.
func (p *Policy) Profile() *Profile { return p.profile.Clone() }

// Hash returns the canonical hash of the compiled profile (see Hash).
func (p *Policy) Hash() string { return p.hash }

// Mode returns the effective enforcement mode.
func (p *Policy) Mode() Mode { return p.mode }

// LimitsTotalCost says whether the profile sets maxTotalCost, so a decision depends on the spend
// of every plan of the namespace.
func (p *Policy) LimitsTotalCost() bool { return p.profile.MaxTotalCost != nil }

// Loop returns the effective loop policy, defaults applied; MaxRepeats is negative when off.
func (p *Policy) Loop() LoopPolicy { return p.loop }

// Compile validates and compiles a profile (nil for none: the profile checks are skipped) and
// project rules into a Policy. Every invalid field is reported, each under its path:
// "profile.maxRetriesPerStep", "projectRules.commandRules[2].pattern".
func Compile(profile *Profile, rules ProjectRules) (*Policy, error) {
	errs := ValidateProfile(profile).prefixed("profile")
	proj, rerrs := compileRules(rules)
	errs = append(errs, rerrs.prefixed("projectRules")...)
	if len(errs) > 0 {
		return nil, errs
	}
	p := proj
	p.compiled = true
	p.profile = profile.Clone()
	p.hash = Hash(profile)
	p.mode = ModeEnforce
	if profile != nil {
		p.mode = profile.Mode.effective()
		p.allowed = newToolMatcher(profile.AllowedTools)
		p.denied = newToolMatcher(profile.DeniedTools)
		p.categories = append([]string(nil), profile.AllowedSkillCategories...)
	}
	return p, nil
}

// compileRules validates and compiles project rules over the defaults.
func compileRules(r ProjectRules) (*Policy, FieldErrors) {
	d, err := compiledDefaults()
	if err != nil {
		return nil, FieldErrors{{Field: "rulePack", Detail: err.Error()}}
	}
	var errs FieldErrors
	p := &Policy{autonomy: r.Autonomy, recognized: d.recognized, ordinary: d.ordinary, byName: map[string][]int{}}
	if p.autonomy == "" {
		p.autonomy = AutonomyDefault
	}
	if p.autonomy != AutonomyDefault && p.autonomy != AutonomyYolo {
		errs.add("autonomy", "must be Default or Yolo, got %q", r.Autonomy)
	}
	p.compileCommandRules(d.rules, r.CommandRules, &errs)
	p.indexRules()
	p.compilePaths(d.paths, r.Paths, &errs)
	p.compileRoots(r.Workspace, r.WriteRoots, &errs)
	p.compileCommands(r.Commands, &errs)
	p.compileLoop(r.Loop, &errs)
	return p, errs
}

// compileCommandRules appends the default rules, then the project's, whose ids must be unique
// across both.
func (p *Policy) compileCommandRules(defaultRules []*compiledRule, rules []Rule, errs *FieldErrors) {
	p.rules = append(p.rules, defaultRules...)
	ids := map[string]bool{}
	for _, cr := range defaultRules {
		ids[cr.ID] = true
	}
	if len(rules) > maxListItems {
		errs.add("commandRules", "must have at most %d items", maxListItems)
		return
	}
	for i, rule := range rules {
		prefix := fmt.Sprintf("commandRules[%d]", i)
		cr, fe := compileRule(rule, prefix)
		cr.project = true
		if cr.pattern != nil {
			cr.substitutes, cr.programs = patternSubstitutes(rule.Pattern), patternPrograms(rule.Pattern)
			p.projectPatterns = true
		}
		*errs = append(*errs, fe...)
		if rule.ID != "" && ids[rule.ID] {
			errs.add(prefix+".id", "duplicate rule id %q (ids must be unique, including the default pack's)", rule.ID)
		}
		ids[rule.ID] = true
		p.rules = append(p.rules, cr)
	}
}

// indexRules indexes rules by literal command name; rules with glob names or only a pattern are
// tried on every command. A rule may sit in both lists: trying it twice cannot change the outcome.
func (p *Policy) indexRules() {
	for i, cr := range p.rules {
		for name := range cr.literalCmds {
			p.byName[name] = append(p.byName[name], i)
		}
		if len(cr.commands) > 0 || len(cr.literalCmds) == 0 {
			p.generic = append(p.generic, i)
		}
	}
	for name := range p.byName {
		slices.Sort(p.byName[name])
	}
}

// compilePaths compiles the default path policy, then the project's.
func (p *Policy) compilePaths(defaultPaths, paths PathPolicy, errs *FieldErrors) {
	p.paths.add(defaultPaths, func(k PathKind, i int, pat string) {
		errs.add(fmt.Sprintf("rulePack.paths.%s[%d]", k, i), "invalid path pattern %q", pat)
	})
	for k, list := range paths.lists() {
		if len(list) > maxListItems {
			errs.add("paths."+PathKind(k).String(), "must have at most %d items", maxListItems)
		}
	}
	p.paths.add(paths, func(k PathKind, i int, pat string) {
		errs.add(fmt.Sprintf("paths.%s[%d]", k, i), "invalid path pattern %q", pat)
	})
}

// compileRoots resolves the workspace, then the write roots against it.
func (p *Policy) compileRoots(workspace string, writeRoots []string, errs *FieldErrors) {
	if workspace != "" {
		switch {
		case len(workspace) > MaxWorkspaceLength:
			errs.add("workspace", "must be at most %d characters, got %d", MaxWorkspaceLength, len(workspace))
		case !strings.HasPrefix(workspace, "/"):
			errs.add("workspace", "must be an absolute path, got %q", workspace)
		case workspace == "/":
			errs.add("workspace", "must name a directory below /, got %q", workspace)
		case strings.IndexFunc(workspace, unicode.IsControl) >= 0:
			errs.add("workspace", "must not hold control characters, got %q", workspace)
		case path.Clean(workspace) != workspace:
			errs.add("workspace", "must be a clean path (no \".\" or \"..\" parts, no doubled or trailing \"/\"): got %q, clean is %q", workspace, path.Clean(workspace))
		default:
			p.workspace = resolvePath("", workspace)
		}
	}
	for i, root := range writeRoots {
		f := fmt.Sprintf("writeRoots[%d]", i)
		res := resolvePath(p.workspace, root)
		switch {
		case strings.TrimSpace(root) == "":
			errs.add(f, "must not be empty")
		case !isAbsOrHome(res):
			errs.add(f, "must be absolute or under ~/, or relative with a workspace set; got %q", root)
		default:
			p.writeRoots = append(p.writeRoots, res)
		}
	}
}

// compileCommands parses the project commands, whose ids must be unique.
func (p *Policy) compileCommands(commands []ProjectCommand, errs *FieldErrors) {
	cmdIDs := map[string]bool{}
	for i, c := range commands {
		f := fmt.Sprintf("commands[%d]", i)
		if strings.TrimSpace(c.ID) == "" {
			errs.add(f+".id", "must not be empty")
		} else if cmdIDs[c.ID] {
			errs.add(f+".id", "duplicate command id %q", c.ID)
		}
		cmdIDs[c.ID] = true
		words, operands, msg := commandWords(c.Command)
		if msg != "" {
			errs.add(f+".command", "%s", msg)
			continue
		}
		p.commands = append(p.commands, projectCommand{id: c.ID, words: words, operands: operands, confirm: c.RequireConfirmation})
	}
}

// compileLoop checks the loop policy's bounds and applies its defaults.
func (p *Policy) compileLoop(loop LoopPolicy, errs *FieldErrors) {
	p.loop = loop
	switch {
	case loop.MaxRepeats > maxLoopRepeats:
		errs.add("loop.maxRepeats", "must be at most %d", maxLoopRepeats)
	case loop.MaxRepeats == 0:
		p.loop.MaxRepeats = DefaultLoopMaxRepeats
	}
	switch {
	case loop.Window < 0 || loop.Window > maxLoopWindow:
		errs.add("loop.window", "must be between 0 and %s", maxLoopWindow)
	case loop.Window == 0:
		p.loop.Window = DefaultLoopWindow
	}
}

// commandWords parses a declared project command into its words; it must be one simple command
// without run-time parts.
func commandWords(cmd string) ([]string, []string, string) {
	if strings.TrimSpace(cmd) == "" {
		return nil, nil, "must not be empty"
	}
	an, aerr := analyzeCommand(cmd, "")
	if aerr != nil {
		return nil, nil, aerr.msg
	}
	if fetches(an) {
		// "uv run --with evil pytest" would declare pytest, and "npx -y eslint" eslint, while the
		// call runs what was fetched: the fetch is not the project's command.
		return nil, nil, "must not fetch the packages it runs (" + fetchRule + "): what runs is what was fetched, not a command of the project"
	}
	segs := an.segments
	if len(segs) == 2 && segs[1].asModule {
		segs = segs[:1] // python3 -m pytest declares python -m pytest, judged as pytest beside it
	}
	if len(segs) == 2 && runsOne(&segs[0]) {
		// A runner is read through as a wrapper is (runners.go): the call "uv run pytest" is judged
		// by its pytest, so "uv run pytest" declares pytest, and a project that declared its test
		// command with its runner before runners were read through keeps a valid policy.
		segs = segs[1:]
	}
	if len(segs) != 1 || len(an.findings) > 0 {
		return nil, nil, "must be one simple command without substitutions, environment assignments or options that run other code"
	}
	s := segs[0]
	py, isPy := readPython(&s)
	if _, interp := interpreters[s.name]; (shells[s.name] || interp) && len(s.operands) == 0 || isPy && py.kind == pyStdin {
		// "bash" or "uv run python3" runs whatever its standard input or a call's further words give.
		return nil, nil, "must not be a shell or interpreter without a script or module: it runs whatever its standard input or further arguments give"
	}
	words := []string{s.name}
	if prog := s.words[0].s; strings.ContainsRune(prog, '/') {
		// A program declared by its path is that file, not any file of its name (programpaths.go).
		words[0] = path.Clean(prog)
	}
	for _, w := range s.words[1:] {
		if w.dynamic {
			return nil, nil, "must not contain variables or substitutions"
		}
		words = append(words, w.s)
	}
	var operands []string
	for _, o := range s.operands {
		if o.s == projectArgsWildcard {
			break
		}
		operands = append(operands, o.s)
	}
	return words, operands, ""
}

// fetchRule begins the ids of the rules that ask for packages fetched and run (package-fetch-run,
// -exec, -uv, -go), whether the pack's patterns or a runner's options (runnerFetch) find them.
const fetchRule = "package-fetch-run"

// fetches says whether an analysed declaration fetches the packages it runs.
func fetches(an *analysis) bool {
	if slices.ContainsFunc(an.findings, func(f finding) bool { return strings.HasPrefix(f.rule, RulePrefixDamageControl+fetchRule) }) {
		return true
	}
	d, err := compiledDefaults()
	if err != nil {
		return false
	}
	for _, r := range d.rules {
		for i := range an.segments {
			if strings.HasPrefix(r.ID, fetchRule) && r.matches(an, &an.segments[i]) {
				return true
			}
		}
	}
	return an.patternBytes > maxPatternBytes // a declaration too long to read whole is taken to fetch
}

// globMatch matches a validated doublestar pattern: "*" stays within one "/"-separated part of a
// tool name, "**" crosses them.
func globMatch(pattern, name string) bool { return doublestar.MatchUnvalidated(pattern, name) }
