package safety

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDefaultProfile(t *testing.T) {
	want := &Profile{RequireSandbox: true, RequireCheckpoints: true, MaxRetriesPerStep: new(int32(3)), Mode: ModeEnforce}
	if diff := cmp.Diff(want, DefaultProfile()); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	a, b := DefaultProfile(), DefaultProfile()
	*a.MaxRetriesPerStep = 99
	if *b.MaxRetriesPerStep != 3 {
		t.Fatal("DefaultProfile returns shared state")
	}
}

func TestBuiltins(t *testing.T) {
	want := map[string]*Profile{
		BuiltinUnrestricted: {AllowUnsafeTools: true, Mode: ModeEnforce},
		BuiltinReadOnly:     {RequireSandbox: true, RequireCheckpoints: true, ReadOnly: true, MaxRetriesPerStep: new(int32(3)), Mode: ModeEnforce},
		BuiltinSandboxed:    {RequireSandbox: true, RequireCheckpoints: true, MaxRetriesPerStep: new(int32(3)), Mode: ModeEnforce},
	}
	for _, name := range BuiltinNames() {
		got, ok := Builtin(name)
		if !ok {
			t.Fatalf("Builtin(%q) missing", name)
		}
		if diff := cmp.Diff(want[name], got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
		if errs := ValidateProfile(got); errs != nil {
			t.Errorf("%s invalid: %v", name, errs)
		}
	}
	if _, ok := Builtin("nope"); ok {
		t.Fatal("unknown built-in found")
	}
	// Built-in semantics beyond the scenarios.
	writer := Tool{Name: "w", Writes: true, Checkpointable: true}
	tests := []struct {
		name    string
		profile string
		call    Call
		want    string
	}{
		{"unrestricted admits an unsafe non-checkpointable writer without sandbox", BuiltinUnrestricted, Call{Tool: Tool{Name: "u", Writes: true, Unsafe: true}, Context: Context{StepRetryCount: 1000}}, ""},
		{"unrestricted keeps the argument safety net", BuiltinUnrestricted, Call{Tool: Tool{Name: "sh"}, Args: Arguments{Command: "sudo ls"}}, ReasonToolSafetyViolation},
		{"read-only denies a checkpointable writer in a sandbox", BuiltinReadOnly, Call{Tool: writer, Context: Context{SandboxID: "s"}}, ReasonToolAccessDenied},
		{"read-only admits a reader", BuiltinReadOnly, Call{Tool: toolReader}, ""},
		{"sandboxed needs a sandbox for a checkpointable writer", BuiltinSandboxed, Call{Tool: writer}, ReasonToolSandboxRequired},
		{"sandboxed admits a checkpointable writer in a sandbox", BuiltinSandboxed, Call{Tool: writer, Context: Context{SandboxID: "s"}}, ""},
		{"sandboxed limits retries to 3", BuiltinSandboxed, Call{Tool: toolReader, Context: Context{StepRetryCount: 4}}, ReasonToolRetryLimitExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkDecision(t, Evaluate(mustCompile(t, builtin(tt.profile), ProjectRules{}), tt.call), tt.want)
		})
	}
}

func TestResolve(t *testing.T) {
	plan, action, project, global := &Profile{ReadOnly: true}, &Profile{AllowUnsafeTools: true}, &Profile{RequireSandbox: true}, &Profile{RequireCheckpoints: true}
	tests := []struct {
		name                          string
		plan, action, project, global *Profile
		want                          *Profile
		wantProv                      Provenance
		wantDefault                   bool
		wantSource                    string
	}{
		{"plan wins over everything", plan, action, project, global, plan, ProvenancePlan, false, "Plan"},
		{"action wins without a plan profile", nil, action, project, global, action, ProvenanceAction, false, "Action"},
		{"project wins over global", nil, nil, project, global, project, ProvenanceProject, false, "Project"},
		{"global applies alone", nil, nil, nil, global, global, ProvenanceGlobal, false, "Global"},
		{"default when nothing is set", nil, nil, nil, nil, DefaultProfile(), ProvenanceGlobal, true, "Global/Default"},
		{"levels are not merged", &Profile{}, action, project, global, &Profile{}, ProvenancePlan, false, "Plan"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Resolve(tt.plan, tt.action, tt.project, tt.global)
			if diff := cmp.Diff(tt.want, r.Profile); diff != "" {
				t.Errorf("profile (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]any{tt.wantProv, tt.wantDefault, tt.wantSource}, []any{r.Provenance, r.Default, r.Source()}); diff != "" {
				t.Errorf("provenance (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("the result is locked: later edits to the source do not change it", func(t *testing.T) {
		src := &Profile{AllowedTools: []string{"a"}, MaxCostPerPlan: money("1"), MaxRetriesPerStep: new(int32(1))}
		r := Resolve(src, nil, nil, nil)
		before := Hash(r.Profile)
		src.AllowedTools[0] = "b"
		*src.MaxCostPerPlan = MustParseMoney("2")
		*src.MaxRetriesPerStep = 9
		src.RequireSandbox = true
		if Hash(r.Profile) != before {
			t.Fatal("editing the source changed the resolved profile")
		}
	})
}

func TestCanonicalHash(t *testing.T) {
	base := &Profile{
		RequireSandbox: true, AllowedSkillCategories: []string{"test", "code"}, AllowedTools: []string{"b/*", "a"},
		DeniedTools: []string{"x"}, MaxCostPerPlan: money("10.00"), MaxRetriesPerStep: new(int32(3)), Mode: ModeWarn,
	}
	// A golden value: the encoding must not drift across restarts or Go versions. If a change to
	// the encoding is intended, bump canonicalHeader and update this value.
	const golden = "toolgate.dev/safety-profile/v1\nallowUnsafeTools=false\nallowedSkillCategories=[\"code\",\"test\"]\nallowedTools=[\"a\",\"b/*\"]\ndeniedTools=[\"x\"]\nmaxCostPerPlan=10\nmaxRetriesPerStep=3\nmaxTotalCost=none\nmode=\"Warn\"\nreadOnly=false\nrequireCheckpoints=false\nrequireHumanApproval=false\nrequireSandbox=true\n"
	if diff := cmp.Diff(golden, string(CanonicalEncoding(base))); diff != "" {
		t.Fatalf("canonical encoding changed (-want +got):\n%s", diff)
	}
	// Computed independently with `printf ... | sha256sum` over the golden encoding above.
	if got := Hash(base); got != "ff0f7bee69ad41d29ab5ce008741eb610e891bd1a23d1a925f5ec712ba1f0b7a" {
		t.Fatalf("golden hash changed: %s", got)
	}
	if got := Hash(DefaultProfile()); got != "ada9a77222956bb5b5400b565102ac79bfa2a30535381a665cb6a19a7438bdec" {
		t.Fatalf("default profile hash changed: %s", got)
	}
	same := []struct {
		name string
		p    *Profile
	}{
		{"list order does not matter", &Profile{RequireSandbox: true, AllowedSkillCategories: []string{"code", "test"}, AllowedTools: []string{"a", "b/*"}, DeniedTools: []string{"x"}, MaxCostPerPlan: money("10"), MaxRetriesPerStep: new(int32(3)), Mode: ModeWarn}},
		{"duplicates do not matter", &Profile{RequireSandbox: true, AllowedSkillCategories: []string{"code", "test", "code"}, AllowedTools: []string{"a", "b/*", "a"}, DeniedTools: []string{"x", "x"}, MaxCostPerPlan: money("10000m"), MaxRetriesPerStep: new(int32(3)), Mode: ModeWarn}},
	}
	for _, s := range same {
		t.Run(s.name, func(t *testing.T) {
			if Hash(s.p) != Hash(base) {
				t.Fatalf("hash differs:\n%s\nvs\n%s", CanonicalEncoding(s.p), CanonicalEncoding(base))
			}
		})
	}
	t.Run("nil and empty lists hash equal", func(t *testing.T) {
		a := &Profile{AllowedSkillCategories: nil, AllowedTools: nil, DeniedTools: nil}
		b := &Profile{AllowedSkillCategories: []string{}, AllowedTools: []string{}, DeniedTools: []string{}}
		if Hash(a) != Hash(b) {
			t.Fatal("nil and empty lists hash differently")
		}
	})
	t.Run("empty mode is Enforce", func(t *testing.T) {
		if Hash(&Profile{}) != Hash(&Profile{Mode: ModeEnforce}) {
			t.Fatal("empty mode hashes differently from Enforce")
		}
	})
	different := []struct {
		name string
		edit func(p *Profile)
	}{
		{"a flag", func(p *Profile) { p.RequireCheckpoints = true }},
		{"read-only", func(p *Profile) { p.ReadOnly = true }},
		{"a category", func(p *Profile) { p.AllowedSkillCategories = []string{"code"} }},
		{"allowed versus denied tools", func(p *Profile) { p.AllowedTools, p.DeniedTools = p.DeniedTools, p.AllowedTools }},
		{"no retry limit versus a limit", func(p *Profile) { p.MaxRetriesPerStep = nil }},
		{"no cost limit versus zero", func(p *Profile) { p.MaxTotalCost = money("0") }},
		{"one nano-unit of cost", func(p *Profile) { p.MaxCostPerPlan = money("10.000000001") }},
		{"mode", func(p *Profile) { p.Mode = ModeAudit }},
		{"a name with a quote", func(p *Profile) { p.DeniedTools = []string{`x","y`} }},
	}
	for _, d := range different {
		t.Run("differs on "+d.name, func(t *testing.T) {
			c := base.Clone()
			d.edit(c)
			if Hash(c) == Hash(base) {
				t.Fatalf("hash did not change:\n%s", CanonicalEncoding(c))
			}
		})
	}
	t.Run("nil profile differs from the zero profile", func(t *testing.T) {
		if Hash(nil) == Hash(&Profile{}) {
			t.Fatal("nil and zero profile hash equal")
		}
	})
	t.Run("hash is lowercase hex sha256", func(t *testing.T) {
		h := Hash(base)
		if len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
			t.Fatalf("hash %q", h)
		}
	})
	t.Run("control bytes are escaped", func(t *testing.T) {
		enc := string(CanonicalEncoding(&Profile{AllowedTools: []string{"a\nb\\\x7f"}}))
		if !strings.Contains(enc, `allowedTools=["a\x0ab\\\x7f"]`) {
			t.Fatalf("encoding:\n%s", enc)
		}
	})
}
