package safety

import (
	"fmt"
	"path"
	"strings"
	"testing"
	"time"
)

func fuzzSeeds() []string {
	seeds := []string{"", "ls", ":(){ :|:& };:", "a=$(b) c <<EOF\n$(d)\nEOF", "find . -exec rm {} +", "echo {a,b}{c,d}",
		"bash -c \"sh -c 'eval x'\"", "x | xargs -I{} sh -c 'rm {}'", "$'\\x00rm' -rf /", "cd - && rm -rf *", "[[ -f $(a) ]]",
		// A word brace-expanded once and walked again (a loop's body, a function called twice).
		"for i in 1 2; do echo {a,b}\"${X:-$Y}\"; done", "f() { echo {a,b}$(x); }; f; f"}
	for _, c := range bypassCatalogue() {
		if len(c.attack.Args.Command) < 4096 {
			seeds = append(seeds, c.attack.Args.Command, c.near.Args.Command)
		}
	}
	for _, c := range classCatalogue() {
		if len(c.attack.Args.Command) < 4096 {
			seeds = append(seeds, c.attack.Args.Command, c.near.Args.Command)
		}
	}
	for _, ex := range rulePackExamples {
		seeds = append(seeds, ex.hits...)
	}
	return seeds
}

// FuzzParseCommand checks that command analysis never panics and that what it returns is
// well-formed, whatever the agent sends.
func FuzzParseCommand(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, "/workspace")
	}
	f.Fuzz(func(t *testing.T, cmd, cwd string) {
		an, err := analyzeCommand(cmd, cwd)
		if err != nil {
			if err.rule == "" || err.msg == "" {
				t.Fatalf("refusal without rule or message: %+v", err)
			}
			return
		}
		if len(an.segments) > maxSegments {
			t.Fatalf("%d segments exceed the bound", len(an.segments))
		}
		for _, s := range an.segments {
			if len(s.words) == 0 {
				t.Fatal("segment without words")
			}
			for _, p := range s.pipeFrom {
				if p < 0 || p >= len(an.segments) {
					t.Fatalf("pipeFrom index %d out of range", p)
				}
			}
		}
		for _, p := range an.paths {
			if p.op < opRead || p.op > opDelete {
				t.Fatalf("path %q with op %d", p.raw, p.op)
			}
			_ = resolvePath(p.cwd, p.raw)
		}
		_ = NewCallKey("fuzz", Call{Args: Arguments{Command: cmd, Cwd: cwd}})
	})
}

// FuzzEvaluate checks that Evaluate never panics, is deterministic, and that every decision is
// consistent: a verdict from the set, a typed error exactly when a check failed, reason codes
// that agree with the error, no would-deny under Enforce.
func FuzzEvaluate(f *testing.F) {
	for i, s := range fuzzSeeds() {
		f.Add(s, ".env", "/workspace/app", uint16(i), int32(i%6), int64(i)*1e8)
	}
	policies := []*Policy{
		mustCompile(f, nil, ProjectRules{}),
		mustCompile(f, DefaultProfile(), ProjectRules{Workspace: "/workspace"}),
		mustCompile(f, &Profile{AllowedTools: []string{"t/*"}, DeniedTools: []string{"t/x*"}, AllowedSkillCategories: []string{"code"},
			MaxCostPerPlan: money("1"), MaxTotalCost: money("2"), MaxRetriesPerStep: new(int32(2)), RequireHumanApproval: true, Mode: ModeWarn},
			ProjectRules{Autonomy: AutonomyYolo, WriteRoots: []string{"/workspace/out"}, Loop: LoopPolicy{MaxRepeats: 2, Window: time.Second}}),
		mustCompile(f, builtin(BuiltinReadOnly), ProjectRules{Commands: []ProjectCommand{{ID: "m", Command: "make test", RequireConfirmation: true}}}),
	}
	f.Fuzz(func(t *testing.T, cmd, pathArg, cwd string, bits uint16, retries int32, cost int64) {
		call := Call{
			Tool: Tool{Name: "t/" + string(rune('a'+bits%26)), Writes: bits&1 != 0, Unsafe: bits&2 != 0, Checkpointable: bits&4 != 0,
				SkillCategory: "code", HasSkillCategory: bits&8 != 0},
			Context: Context{ReadOnlyPlan: bits&16 != 0, RequireCheckpoints: bits&32 != 0, HumanApproved: bits&64 != 0,
				AccumulatedCost: MoneyFromNanos(cost), TotalCost: MoneyFromNanos(cost * 2), StepRetryCount: retries, Repeats: int(bits >> 12)},
			Args: Arguments{Command: cmd, Paths: strings.Split(pathArg, ","), Cwd: cwd},
		}
		if bits&128 != 0 {
			call.Context.SandboxID = "sb"
		}
		if bits&256 != 0 {
			call.Tool.ActionClass = []ActionClass{ClassRead, ClassWrite, ClassExecute, ClassDispatch, ClassSystemModify, ClassGitDestructive, ClassUnknown, "bogus"}[bits>>9&7]
		}
		for _, p := range policies {
			d := Evaluate(p, call)
			switch d.Verdict {
			case VerdictAllow, VerdictAsk, VerdictDeny:
			default:
				t.Fatalf("verdict %q", d.Verdict)
			}
			if (d.Err == nil) != (d.Reason == "") || (d.Err == nil) != (d.RuleID == "") {
				t.Fatalf("error and reason disagree: %+v", d)
			}
			if d.Err != nil && (ReasonOf(d.Err) != d.Reason || d.Err.Error() != d.Message) {
				t.Fatalf("typed error %T %q does not carry reason %q / message %q", d.Err, ReasonOf(d.Err), d.Reason, d.Message)
			}
			if d.Verdict == VerdictAllow && !d.WouldDeny && d.Err != nil {
				t.Fatalf("admitted with an error: %+v", d)
			}
			if p.Mode() == ModeEnforce && d.WouldDeny {
				t.Fatalf("would-deny under Enforce: %+v", d)
			}
			if d.Verdict == VerdictAsk && d.Reason != ReasonToolHumanApprovalRequired {
				t.Fatalf("ask without the approval reason: %+v", d)
			}
			if again := Evaluate(p, call); outcomeOf(again) != outcomeOf(d) || again.Message != d.Message {
				t.Fatalf("not deterministic: %+v vs %+v", d, again)
			}
		}
		// The property: a zero-access path, in any form the engine normalises, after any harmless
		// prefix, is never admitted — at any autonomy level, with or without an approval.
		secret := zeroAccessCommand(cmd, bits, retries)
		call.Args = Arguments{Command: secret, Cwd: "/workspace/app"}
		for _, p := range policies {
			if p.Mode() != ModeEnforce {
				continue
			}
			if d := Evaluate(p, call); d.Allowed() {
				t.Fatalf("%q names a zero-access path and was admitted", secret)
			}
		}
	})
}

// zeroAccessPaths are default zero-access paths of every shape: names at any depth, globs,
// anchored files, the home directory, /proc.
var zeroAccessPaths = []string{".env", "secrets/.env.prod", "prod.env", "~/.ssh/id_rsa", "/etc/shadow", "/proc/1/environ",
	".aws/credentials", "deploy/server.pem", "/run/secrets/db", "id_ed25519", "/etc/gshadow-", "~/.kube/config"}

// zeroAccessReaders read (or copy, archive, source, upload) the path in %s.
var zeroAccessReaders = []string{"cat %s", "head -n 1 %s", "tail %s", "wc -c %s", "cp %s /tmp/x", "tar czf /tmp/x.tgz %s",
	"grep x %s", "sed -n p %s", "od %s", "xxd %s", "base64 %s", "diff %s /dev/null", "source %s", ". %s", "cat < %s",
	"awk 1 %s", "sort %s", "zip /tmp/x.zip %s", "cp -r %s /tmp/y", "dd if=%s of=/tmp/z"}

// zeroAccessCommand builds a command that reads a zero-access path, spelled one of the ways the
// engine resolves statically, after a harmless prefix that echoes the fuzzer's string.
func zeroAccessCommand(prefix string, bits uint16, pick int32) string {
	pth := zeroAccessPaths[int(bits)%len(zeroAccessPaths)]
	reader := zeroAccessReaders[int(uint32(pick)%uint32(len(zeroAccessReaders)))]
	quoted := "'" + strings.ReplaceAll(prefix, "'", `'\''`) + "'"
	form := zeroAccessForm(int(bits>>4)%zeroAccessForms, pth, reader)
	return "echo " + quoted + "; " + form
}

const zeroAccessForms = 14

func zeroAccessForm(form int, p, reader string) string {
	read := func(arg string) string { return strings.Replace(reader, "%s", arg, 1) }
	dir, base := path.Split(p)
	if strings.Contains(reader, "<") && (form == 10 || form == 12 || form == 13) {
		// A redirection is the shell's, not the wrapped command's: it would name another file;
		// and a brace expansion there is an "ambiguous redirect", which reads nothing.
		form = 0
	}
	switch form {
	case 1:
		return read("'" + p + "'")
	case 2:
		return read(`"` + p + `"`)
	case 3: // every character escaped
		var b strings.Builder
		for _, c := range p {
			b.WriteString(`\` + string(c))
		}
		return read(b.String())
	case 4: // ANSI-C hex escapes
		var b strings.Builder
		for i := 0; i < len(p); i++ {
			fmt.Fprintf(&b, `\x%02x`, p[i])
		}
		return read("$'" + b.String() + "'")
	case 5: // a detour through a directory and back
		return read(dir + "sub/../" + base)
	case 6:
		return read(strings.ReplaceAll(p, "/", "//"))
	case 7:
		return read(strings.ToUpper(p))
	case 8:
		return "x=" + p + "; " + read("$x")
	case 9:
		return "sh -c '" + strings.ReplaceAll(read(`"$1"`), "'", `'\''`) + "' _ " + p
	case 10:
		return "xargs " + strings.Replace(reader, " %s", "", 1) + " <<< " + p
	case 11: // the last character as a glob
		return read(p[:len(p)-1] + "?")
	case 12: // the last character from a brace expansion
		return read(p[:len(p)-1] + "{" + p[len(p)-1:] + ",Q}")
	case 13:
		if dir == "" {
			dir = "."
		}
		return "env -C " + dir + " " + read(base)
	}
	return read(p)
}
