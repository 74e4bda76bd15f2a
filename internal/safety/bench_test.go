package safety

import (
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// cmd200 is a realistic 200-character agent command: a chain, a pipeline, redirections.
const cmd200 = "cd /workspace/app && go test ./... -run TestFoo -count=1 2>&1 | tee /tmp/out.log; grep -n FAIL /tmp/out.log || echo ok; git status --short && git diff --stat HEAD~1 | head -n 20 && ls -la build/ >/dev/null"

// cmd200Deny hides a force push at the end of an otherwise harmless 200-character command.
const cmd200Deny = "cd /workspace/app && go test ./... -run TestFoo -count=1 2>&1 | tee /tmp/out.log; grep -n FAIL /tmp/out.log || echo ok; git status --short && git diff --stat HEAD~1 | head -n 5 && git push --force origin"

func benchEval(b *testing.B, p *Policy, call Call, want Verdict) {
	b.Helper()
	if d := Evaluate(p, call); d.Verdict != want {
		b.Fatalf("setup: verdict %s (%s), want %s", d.Verdict, d.Message, want)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Evaluate(p, call)
	}
}

func BenchmarkEvaluateProfileAllow(b *testing.B) {
	b.Run("default-profile-reader", func(b *testing.B) {
		benchEval(b, mustCompile(b, DefaultProfile(), ProjectRules{}), Call{Tool: toolReader}, VerdictAllow)
	})
	b.Run("every-field-set", func(b *testing.B) {
		p := mustCompile(b, &Profile{RequireSandbox: true, RequireCheckpoints: true, RequireHumanApproval: true,
			AllowedSkillCategories: []string{"code", "test"}, AllowedTools: []string{"test/reader", "fs/*"}, DeniedTools: []string{"net/*", "test/unsafe-tool"},
			MaxCostPerPlan: money("10"), MaxTotalCost: money("100"), MaxRetriesPerStep: new(int32(3))}, ProjectRules{})
		call := Call{Tool: Tool{Name: "fs/edit", Writes: true, Checkpointable: true, SkillCategory: "code", HasSkillCategory: true},
			Context: Context{SandboxID: "sb-1", HumanApproved: true, AccumulatedCost: MustParseMoney("9.99"), TotalCost: MustParseMoney("50"), StepRetryCount: 3, Repeats: 2}}
		benchEval(b, p, call, VerdictAllow)
	})
}

func BenchmarkEvaluateProfileDeny(b *testing.B) {
	full := &Profile{RequireSandbox: true, RequireCheckpoints: true, RequireHumanApproval: true, AllowedSkillCategories: []string{"code"},
		AllowedTools: []string{"test/*"}, DeniedTools: []string{"test/denied"}, MaxCostPerPlan: money("10"), MaxTotalCost: money("100"), MaxRetriesPerStep: new(int32(3))}
	p := mustCompile(b, full, ProjectRules{})
	ok := Call{Tool: Tool{Name: "test/ok", Writes: true, Checkpointable: true, SkillCategory: "code", HasSkillCategory: true},
		Context: Context{SandboxID: "sb", HumanApproved: true}}
	cases := []struct {
		name string
		edit func(c *Call)
		want Verdict
	}{
		{"read-only-plan", func(c *Call) { c.Context.ReadOnlyPlan = true }, VerdictDeny},
		{"deny-list", func(c *Call) { c.Tool.Name = "test/denied" }, VerdictDeny},
		{"allow-list", func(c *Call) { c.Tool.Name = "other/x" }, VerdictDeny},
		{"checkpoints", func(c *Call) { c.Tool.Checkpointable = false }, VerdictDeny},
		{"unsafe", func(c *Call) { c.Tool.Unsafe = true }, VerdictDeny},
		{"skill-category", func(c *Call) { c.Tool.SkillCategory = "deploy" }, VerdictDeny},
		{"sandbox", func(c *Call) { c.Context.SandboxID = "" }, VerdictDeny},
		{"human-approval", func(c *Call) { c.Context.HumanApproved = false }, VerdictAsk},
		{"cost", func(c *Call) { c.Context.AccumulatedCost = MustParseMoney("10") }, VerdictDeny},
		{"retries", func(c *Call) { c.Context.StepRetryCount = 4 }, VerdictDeny},
		{"loop", func(c *Call) { c.Context.Repeats = 6 }, VerdictDeny},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			call := ok
			tc.edit(&call)
			benchEval(b, p, call, tc.want)
		})
	}
}

func BenchmarkEvaluateArguments(b *testing.B) {
	p := mustCompile(b, &Profile{}, ProjectRules{Workspace: "/workspace"})
	confined := mustCompile(b, &Profile{}, ProjectRules{Workspace: "/workspace", WriteRoots: []string{"out"}})
	sh := func(cmd string) Call {
		return Call{Tool: Tool{Name: "shell/bash", Writes: true, Checkpointable: true}, Args: Arguments{Command: cmd, Cwd: "/workspace/app"}}
	}
	cases := []struct {
		name string
		p    *Policy
		call Call
		want Verdict
	}{
		{"allow/command-200-chars", p, sh(cmd200), VerdictAllow},
		{"allow/short-command", p, sh("go test ./..."), VerdictAllow},
		{"allow/file-paths", p, Call{Tool: Tool{Name: "fs/read"}, Args: Arguments{Paths: []string{"src/main.go", "README.md", "docs/a.md"}, Cwd: "/workspace/app"}}, VerdictAllow},
		{"deny/damage-control-200-chars", p, sh(cmd200Deny), VerdictDeny},
		{"deny/damage-control-wrapped", p, sh(`timeout 5 bash -c "env X=1 sudo rm -rf /"`), VerdictDeny},
		{"deny/path-policy-command", p, sh("cat src/../.env"), VerdictDeny},
		{"deny/path-policy-file-tool", p, Call{Tool: Tool{Name: "fs/read"}, Args: Arguments{Paths: []string{"config/../.env"}}}, VerdictDeny},
		{"deny/dynamic-command", p, sh("X=rm; $X -rf /"), VerdictDeny},
		{"deny/unparseable", p, sh("cat 'README.md"), VerdictDeny},
		{"deny/write-root", confined, Call{Tool: Tool{Name: "fs/write", Writes: true}, Args: Arguments{Paths: []string{"src/x.go"}}}, VerdictDeny},
		{"ask/package-install", p, sh("apt-get install -y jq"), VerdictAsk},
		{"ask/unrecognised", p, sh("./configure --prefix=/usr/local"), VerdictAsk},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) { benchEval(b, tc.p, tc.call, tc.want) })
	}
}

func BenchmarkAnalyzeCommand200(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := analyzeCommand(cmd200, "/workspace/app"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoopObserve(b *testing.B) {
	d := NewLoopDetector(RealClock{}, 0)
	k := NewCallKey("plan", shCall(cmd200))
	b.ReportAllocs()
	for b.Loop() {
		d.Observe(k, time.Minute)
	}
}

func BenchmarkNewCallKey(b *testing.B) {
	c := shCall(cmd200)
	b.ReportAllocs()
	for b.Loop() {
		NewCallKey("plan", c)
	}
}

func BenchmarkCompile(b *testing.B) {
	rules := ProjectRules{Workspace: "/ws", Commands: []ProjectCommand{{ID: "t", Command: "make test"}},
		CommandRules: []Rule{{ID: "x", Action: ActionBlock, Reason: "r", Commands: []string{"terraform"}, Pattern: `destroy`}},
		Paths:        PathPolicy{ZeroAccess: []string{"secrets/"}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(DefaultProfile(), rules); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCommand200IsTwoHundredCharacters(t *testing.T) {
	if len(cmd200) < 195 || len(cmd200) > 205 || len(cmd200Deny) < 195 || len(cmd200Deny) > 205 {
		t.Fatalf("benchmark commands are %d and %d characters, want about 200", len(cmd200), len(cmd200Deny))
	}
}

// The worst fuzz seed benchmarked is the one the analysis spends the most work on.
func TestWorstFuzzSeedIsBenchmarked(t *testing.T) {
	worst, most := "", -1
	for _, s := range fuzzSeeds() {
		src, aerr := foldCommand(s)
		if aerr != nil {
			continue
		}
		a := &analyzer{parser: parserPool.Get().(*syntax.Parser), cwd: "/workspace/app", out: &analysis{}}
		a.scriptIn(src, 0, nil, false, nil)
		parserPool.Put(a.parser)
		if a.work > most {
			worst, most = s, a.work
		}
	}
	if worst != worstFuzzSeed {
		t.Fatalf("the fuzz seed with the most work (%d units) is %q, but BenchmarkEvaluateWorstCase measures another", most, truncate(worst, 80))
	}
}
