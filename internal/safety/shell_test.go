package safety

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// segTexts returns the normalised text of every segment, marking wrappers.
func segTexts(an *analysis) []string {
	out := make([]string, 0, len(an.segments))
	for _, s := range an.segments {
		t := s.text
		if s.wrapper {
			t = "[" + t + "]"
		}
		out = append(out, t)
	}
	return out
}

func TestAnalyzeSegments(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
	}{
		{`ls -la`, []string{"ls -la"}},
		{`a && b || c; d | e & f`, []string{"a", "b", "c", "d", "e", "f"}},
		{`(cd x; make) && { y; }`, []string{"cd x", "make", "y"}},
		{`if a; then b; elif c; then d; else e; fi`, []string{"a", "b", "c", "d", "e"}},
		{`while a; do b; done; until c; do d; done`, []string{"a", "b", "c", "d"}},
		{`for f in $(ls); do rm "$f"; done`, []string{"ls", "rm $f"}},
		{`case $(x) in a) y;; *) z;; esac`, []string{"x", "y", "z"}},
		{`echo $(a $(b)) "$(c)" <(d) >(e)`, []string{"b", "a $(:)", "c", "d", "e", "echo $(:) $(:) <(:) <(:)"}},
		{`X=$(a) Y=1 b`, []string{"a", "b"}},
		{`export X=$(a); local Y=$(b)`, []string{"a", "b"}},
		{`[[ $(a) == x ]] && (( $(b) ))`, []string{"a", "b"}},
		{`f() { g; }; f`, []string{"g", "f"}},
		{`/usr/bin/ENV A=1 "/bin/Rm" -f x`, []string{"[env A=1 /bin/Rm -f x]", "rm -f x"}},
		{`sudo -u root -- nice -n 5 timeout 3 bash -lc 'rm -rf x'`, []string{"[sudo -u root -- nice -n 5 timeout 3 bash -lc rm -rf x]", "[nice -n 5 timeout 3 bash -lc rm -rf x]", "[timeout 3 bash -lc rm -rf x]", "[bash -lc rm -rf x]", "rm -rf x"}},
		{`xargs -0 -n 1 rm -f`, []string{"[xargs -0 -n 1 rm -f]", "rm -f $XARGS"}},
		{`echo a.txt b.txt | xargs rm`, []string{"echo a.txt b.txt", "[xargs rm]", "rm a.txt b.txt"}},
		{`find . -name '*.tmp' -exec rm {} \;`, []string{"[find . -name *.tmp -exec rm {} ;]", "rm **/*.tmp", "rm *.tmp"}},
		{`find / -name passwd | xargs rm -f`, []string{"find / -name passwd", "[xargs rm -f]", "rm -f /**/passwd /passwd"}},
		{`echo safe | cat - list | xargs rm -rf`, []string{"echo safe", "cat - list", "[xargs rm -rf]", "rm -rf $XARGS safe"}},
		{`find . -exec rm {} +`, []string{"[find . -exec rm {} +]", "rm $FIND"}},
		{`git submodule foreach 'git clean -fd'`, []string{"git submodule foreach git clean -fd", "git clean -fd"}},
		{`eval 'a; b'`, []string{"[eval a; b]", "a", "b"}},
		{"bash <<'EOF'\na\nb\nEOF", []string{"[bash]", "a", "b"}},
		{`bash script.sh arg`, []string{"bash script.sh arg"}},
		{`time -p a`, []string{"a"}},
		{`$'\x73\x75do' ls`, []string{"[sudo ls]", "ls"}},
		{`{a,b}c d{1,2}`, []string{"ac bc d1 d2"}},
		{`"a b" 'c'd\ e`, []string{"a b cd e"}},
		{"a\u00a0b\u200bc", []string{"a bc"}},
		{`GIT_SSH_COMMAND='ssh -i k' git fetch`, []string{"ssh -i k", "git fetch"}},
		{`coproc a; time b`, []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			an, err := analyzeCommand(tt.cmd, "")
			if err != nil {
				t.Fatalf("analyzeCommand: %v", err)
			}
			if diff := cmp.Diff(tt.want, segTexts(an)); diff != "" {
				t.Fatalf("segments (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAnalyzePaths(t *testing.T) {
	type ref struct {
		Raw string
		Op  string
		Cwd string
	}
	tests := []struct {
		cmd  string
		want []ref
	}{
		{`cat a b`, []ref{{"a", "read", ""}, {"b", "read", ""}}},
		{`echo hi > out 2>>err < in 2>&1 >&2`, []ref{{"out", "write", ""}, {"err", "write", ""}, {"in", "read", ""}}},
		{`echo x &> all`, []ref{{"all", "write", ""}}},
		{`echo x >& file`, []ref{{"file", "write", ""}}},
		{`cp -r a b dest`, []ref{{"a", "read", ""}, {"b", "read", ""}, {"dest", "write", ""}, {"dest/a", "write", ""}, {"dest/b", "write", ""}}},
		{`mv a b`, []ref{{"a", "delete", ""}, {"b", "write", ""}, {"b/a", "write", ""}}},
		{`rm -rf x y`, []ref{{"x", "delete", ""}, {"y", "delete", ""}}},
		{`sed -i 's/a/b/' f`, []ref{{"f", "write", ""}}},
		{`sed 's/a/b/' f`, []ref{{"f", "read", ""}}},
		{`grep -e pat f`, []ref{{"f", "read", ""}}}, // -e's value is the pattern, not a path
		{`grep pat f`, []ref{{"f", "read", ""}}},
		{`chmod 600 k`, []ref{{"k", "write", ""}}},
		{`echo secret .env`, nil},
		{`dd if=a of=b`, []ref{{"a", "read", ""}, {"b", "write", ""}, {"if=a", "read", ""}, {"a", "read", ""}, {"of=b", "read", ""}, {"b", "read", ""}}},
		{`curl -o out https://x -d @data --config=cfg`, []ref{{"out", "write", ""}, {"cfg", "read", ""}, {"out", "read", ""}, {"@data", "read", ""}, {"data", "read", ""}}},
		{`tar -xzf a.tgz -C dst`, []ref{{"a.tgz", "write", ""}, {"dst", "write", ""}}},
		{`tar czf x.tgz -C / etc`, []ref{{"/", "write", ""}, {"x.tgz", "write", ""}, {"etc", "read", ""}}},
		{`cd /w && tar czf x.tgz -C /etc .`, []ref{{"/w", "read", "/w"}, {"/etc", "write", "/w"}, {"x.tgz", "write", "/w"}, {".", "read", "/etc"}}},
		// A cd may fail: what does not depend on its success is read from where the shell was too.
		{`cd sub && cat f; cat g`, []ref{{"sub", "read", "/w"}, {"f", "read", "/w/sub"}, {"g", "read", "/w/sub"}, {"g", "read", "/w"}}},
		{`(cd sub; cat f); cat g`, []ref{{"sub", "read", "/w"}, {"f", "read", "/w/sub"}, {"f", "read", "/w"}, {"g", "read", "/w"}}},
		{`cd sub || exit; cat f`, []ref{{"sub", "read", "/w"}, {"f", "read", "/w/sub"}}},
		// set -e is not taken to end the script at a failing cd: bash ignores it in too many places.
		{`set -e; cd sub; cat f`, []ref{{"sub", "read", "/w"}, {"f", "read", "/w/sub"}, {"f", "read", "/w"}}},
		{`cd sub & cat f`, []ref{{"sub", "read", "/w"}, {"f", "read", "/w"}}},
		{`if cd sub; then cat f; else cat g; fi`, []ref{{"sub", "read", "/w"}, {"f", "read", "/w/sub"}, {"g", "read", "/w/sub"}, {"g", "read", "/w"}}},
		{`cd /t/a; cd ..; cat f`, []ref{{"/t/a", "read", "/w"}, {"..", "read", "/t/a"}, {"..", "read", "/w"}, {"f", "read", "/t"}, {"f", "read", "/"}, {"f", "read", "/w"}, {"f", "read", "/t/a"}}},
		{`cat file:///etc/x https://host/y`, []ref{{"/etc/x", "read", ""}}},
		{`find src -name '*.go' -delete`, []ref{{"src/**/*.go", "delete", ""}, {"src/*.go", "delete", ""}, {"src", "read", ""}}},
		{`find src ! -name '*.go' -delete`, []ref{{"src", "delete", ""}}},
		{`/usr/bin/time -o t.txt ls`, []ref{{"t.txt", "write", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			cwd := ""
			if strings.Contains(tt.cmd, "cd ") {
				cwd = "/w"
			}
			an, err := analyzeCommand(tt.cmd, cwd)
			if err != nil {
				t.Fatalf("analyzeCommand: %v", err)
			}
			var got []ref
			for _, p := range an.paths {
				c := p.cwd
				if cwd == "" {
					c = ""
				}
				got = append(got, ref{p.raw, p.op.String(), c})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("paths (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAnalyzeRefuses(t *testing.T) {
	tests := []struct {
		cmd  string
		rule string
	}{
		{`echo 'unterminated`, RuleCommandUnparseable},
		{`if then fi`, RuleCommandUnparseable},
		{"ls\x07", RuleCommandControlChars},
		{"ls\x00", RuleCommandControlChars},
		{"\xff\xfe", RuleCommandUnparseable},
		{strings.Repeat("x", MaxCommandBytes+1), RuleCommandTooLong},
		{strings.Repeat("a;", maxSegments+1), RuleCommandTooComplex},
		{strings.Repeat("bash -c '", 1) + strings.Repeat("eval ", 40) + "ls'", RuleCommandTooComplex},
		{strings.Repeat("$(", 40) + "ls" + strings.Repeat(")", 40), RuleCommandTooComplex},
		{"echo {1,2,3,4}{1,2,3,4}{1,2,3,4}{1,2,3,4,5}", RuleCommandTooComplex},
	}
	for _, tt := range tests {
		t.Run(truncate(tt.cmd, 40), func(t *testing.T) {
			an, err := analyzeCommand(tt.cmd, "")
			if err == nil {
				t.Fatalf("accepted, segments %v", segTexts(an))
			}
			if err.rule != tt.rule {
				t.Fatalf("rule %q (%s), want %q", err.rule, err.msg, tt.rule)
			}
		})
	}
}

func TestResolvePath(t *testing.T) {
	tests := []struct{ cwd, p, want string }{
		{"", "a/./b//c/", "a/b/c"},
		{"", "../../etc/shadow", "../../etc/shadow"},
		{"/w/app", "./../../etc/shadow", "/etc/shadow"},
		{"/w/app", "../../../../etc", "/etc"},
		{"/w", "src/../.env", "/w/.env"},
		{"", "~", "~"},
		{"", "~/", "~"},
		{"", "~/.ssh/../.ssh/id_rsa", "~/.ssh/id_rsa"},
		{"", "~/../../etc/shadow", "../../etc/shadow"},
		{"", "~bob/.ssh", "~/.ssh"},
		{"", "$HOME/.aws", "~/.aws"},
		{"", "$HOMEDIR/x", "$HOMEDIR/x"},
		{"~/proj", "x", "~/proj/x"},
		{"rel", "x", "rel/x"},
		{"/w", "/abs", "/abs"},
		{"/w", "  \u00a0x ", "/w/x"},
		{"/w", "", ""},
		// The links the kernel makes under /proc are followed.
		{"/w", "/proc/1/root/etc/shadow", "/etc/shadow"},
		{"/w", "/proc/self/root/../etc/shadow", "/etc/shadow"},
		{"/w", "/proc/self/root", "/"},
		{"/", "proc/self/root/etc/shadow", "/etc/shadow"},
		{"/w", "/proc/1/root/proc/1/root/etc", "/etc"},
		{"/w", "/proc/self/task/12/environ", "/proc/self/task/12/environ"},
		{"/w", "/proc/self/task/12/../../environ", "/proc/self/environ"},
		{"/w", "/proc/thread-self/../../root/etc/shadow", "/etc/shadow"},
		{"/w", "/proc/self/task/1/../../root/etc", "/etc"},
		{"/w", "/proc/1/task/1/root/../etc", "/etc"},
		{"/w", "/pro?/self/r?ot/etc/shadow", "/etc/shadow"},
		{"/w", "/proc/self/ro*/etc", "/etc"},
		{"/w", "/proc/self/roo[t]/etc", "/etc"},
		{"/w", "/pr*/1/r??t/var/run", "/run"},
		{"/w", "/proc/*/environ", "/proc/*/environ"},
		{"/w", "/proc/[0-9]*/environ", "/proc/[0-9]*/environ"},
		{"/w", "/etc/*.conf", "/etc/*.conf"},
		{"/w", "/proc/1/task/1/root/var/run/secrets", "/run/secrets"}, // /var/run is a link to /run
		{"/w", "/proc/thread-self/environ", "/proc/self/task/thread-self/environ"},
		{"/w", "/proc/thread-self/root/etc", "/etc"},
		{"/w/app", "/proc/self/cwd/.env", "/w/app/.env"},
		{"/w/app", "/proc/self/cwd/../../etc/shadow", "/etc/shadow"},
		{"/w/app", "/proc/self/cwd", "/w/app"},
		{"~/proj", "/proc/self/cwd/x", "~/proj/x"},
		{"", "/proc/self/cwd/.env", "../.env"},
		{"/w", "/proc/1/cwd/shadow", "../shadow"},
		{"/w", "/proc/1/cwd/../../etc", "../../../etc"},
		{"/proc/self/cwd", "/proc/self/cwd/x", "../x"},
		{"/w", "/proc/cpuinfo", "/proc/cpuinfo"},
		{"/w", "/proc/self/fd/1", "/proc/self/fd/1"},
		{"/w", "/proc/self/task", "/proc/self/task"},
	}
	for _, tt := range tests {
		if got := resolvePath(tt.cwd, tt.p); got != tt.want {
			t.Errorf("resolvePath(%q, %q) = %q, want %q", tt.cwd, tt.p, got, tt.want)
		}
	}
}

// A path a glob may lead through a /proc link and then climb out of is not known: the file it
// reaches depends on what the glob matches.
func TestResolveTargetDoesNotGuessAClimbAfterAGlobbedLink(t *testing.T) {
	for _, tt := range []struct {
		p     string
		known bool
	}{
		{"/proc/self/r*/../environ", false},
		{"/proc/*/root/../etc/shadow", false},
		{"/proc/thread-se?f/../../environ", false},
		{"/proc/self/cw?/../x", false},
		{"/proc/self/root/../etc/shadow", true},
		{"/proc/thread-self/../../environ", true},
		{"/proc/self/r*/etc/shadow", true},
		{"/etc/../*/shadow", true},
	} {
		if _, known := resolveTarget("/w", tt.p); known != tt.known {
			t.Errorf("resolveTarget(%q) known = %v, want %v", tt.p, known, tt.known)
		}
	}
}

// Following /proc links costs the same few allocations however long the path is (a shell word
// may be as long as the 64 KiB command): nothing is rebuilt per segment.
func TestProcLinksAllocationsDoNotGrowWithThePath(t *testing.T) {
	for _, n := range []int{10, 10000} {
		long := "/proc/x/" + strings.Repeat("a/", n) + "end"
		if allocs := testing.AllocsPerRun(10, func() { _ = resolvePath("/w", long) }); allocs > 4 {
			t.Errorf("%d segments: %v allocations per resolve, want at most 4", n, allocs)
		}
	}
}

// A word of thousands of brace groups is refused by counting the words it makes, before any is
// built: what it allocates does not grow with the square of its groups (an 8 KiB word, the
// longest command an AgentToolCall holds, allocated 46 MB when the count came at its first word).
func TestABraceWordOfManyGroupsIsRefusedBeforeItIsExpanded(t *testing.T) {
	p := mustCompile(t, &Profile{}, bypassRules)
	for _, groups := range []int{100, 1637} {
		call := shCall("echo " + strings.Repeat("{a,b}", groups))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		d := Evaluate(p, call)
		runtime.ReadMemStats(&after)
		if d.RuleID != RuleCommandTooComplex {
			t.Fatalf("%d groups: %s %s, want %s", groups, d.Verdict, d.RuleID, RuleCommandTooComplex)
		}
		if bytes, limit := after.TotalAlloc-before.TotalAlloc, uint64(4096*groups); bytes > limit {
			t.Errorf("%d groups: %d bytes allocated, want at most %d (linear in the word)", groups, bytes, limit)
		}
	}
}

func TestPathPolicyDefaults(t *testing.T) {
	p := mustCompile(t, &Profile{}, ProjectRules{})
	tests := []struct {
		path string
		op   pathOp
		glob bool
		want string // kind, "" when allowed
	}{
		{".env", opRead, false, "zeroAccess"},
		{"/w/app/.ENV.production", opRead, false, "zeroAccess"},
		{"/w/app/.env.example", opRead, false, ""},
		{"/w/app/.env.example", opWrite, false, ""},
		{"config/prod.pem", opWrite, false, "zeroAccess"},
		{"~/.ssh", opRead, false, "zeroAccess"},
		{"~/.ssh/known_hosts", opRead, false, "zeroAccess"},
		{"/root/.aws/credentials", opRead, false, "zeroAccess"},
		{"/home/dev/.kube/config", opRead, false, "zeroAccess"},
		{"../../etc/shadow", opRead, false, "zeroAccess"},
		{"/var/run/secrets/kubernetes.io/serviceaccount/token", opRead, false, "zeroAccess"},
		{"/proc/1/environ", opRead, false, "zeroAccess"},
		{"node_modules/x/index.js", opRead, false, ""},
		{"node_modules/x/index.js", opWrite, false, "noWrite"},
		{"node_modules", opDelete, false, ""}, // npm ci deletes it too: a clean install starts there
		{".git/config", opRead, false, ""},
		{".git/config", opWrite, false, "noWrite"},
		{".git", opDelete, false, "noDelete"},
		{".github/workflows/ci.yml", opWrite, false, ""},
		{"README.md", opWrite, false, ""},
		{"README.md", opDelete, false, "noDelete"},
		{"docs/README.md", opDelete, false, "noDelete"},
		{"credentials.json", opRead, false, "zeroAccess"},
		{"my-credentials.json.md", opRead, false, ""},
		{"monkey", opRead, false, ""},
		{".e*", opRead, true, "zeroAccess"},
		{"*.pem", opRead, true, "zeroAccess"},
		{"id_*", opRead, true, "zeroAccess"},
		{"~/.ssh/*", opRead, true, "zeroAccess"},
		{"/etc/sha*", opRead, true, "zeroAccess"},
		{".env.e*", opRead, true, "zeroAccess"},
		{"/etc/s*adow", opRead, true, "zeroAccess"},
		{"*", opRead, true, ""},
		{"*.*", opRead, true, ""},
		{"*.go", opRead, true, ""},
		{"src/*.ts", opWrite, true, ""},
	}
	for _, tt := range tests {
		v, ok := p.paths.check(tt.path, tt.op, tt.glob)
		got := ""
		if ok {
			got = v.kind.String()
		}
		if got != tt.want {
			t.Errorf("%s %q (glob %v): got %q (pattern %q), want %q", tt.op, tt.path, tt.glob, got, v.pattern, tt.want)
		}
	}
}

// inTmp runs a call in /tmp, outside TestClassification's workspace.
func inTmp(c Call) Call {
	c.Args.Cwd = "/tmp"
	return c
}

// inWS runs a call in TestClassification's workspace.
func inWS(c Call) Call {
	c.Args.Cwd = "/ws"
	return c
}

func TestClassification(t *testing.T) {
	p := mustCompile(t, &Profile{}, ProjectRules{Workspace: "/ws"})
	yolo := mustCompile(t, &Profile{}, ProjectRules{Workspace: "/ws", Autonomy: AutonomyYolo})
	tests := []struct {
		name     string
		call     Call
		class    ActionClass
		def, yol Verdict
	}{
		{"reader", Call{Tool: toolReader}, ClassRead, VerdictAllow, VerdictAllow},
		{"writer", Call{Tool: toolWriter}, ClassWrite, VerdictAllow, VerdictAllow},
		{"read inside the workspace", Call{Tool: toolReader, Args: Arguments{Paths: []string{"src/a.go"}}}, ClassRead, VerdictAllow, VerdictAllow},
		{"read outside the workspace", Call{Tool: toolReader, Args: Arguments{Paths: []string{"/etc/hosts"}}}, ClassRead, VerdictAsk, VerdictAllow},
		{"write into a system root", Call{Tool: toolWriter, Args: Arguments{Paths: []string{"/etc/hosts"}}}, ClassSystemModify, VerdictAsk, VerdictAllow},
		{"write into the home directory", Call{Tool: toolWriter, Args: Arguments{Paths: []string{"~/notes"}}}, ClassSystemModify, VerdictAsk, VerdictAllow},
		{"write outside the workspace", Call{Tool: toolWriter, Args: Arguments{Paths: []string{"/srv2/x"}}}, ClassSystemModify, VerdictAsk, VerdictAllow},
		{"write to scratch space", Call{Tool: toolWriter, Args: Arguments{Paths: []string{"/tmp/x"}}}, ClassWrite, VerdictAllow, VerdictAllow},
		// A build runs in the workspace: run elsewhere it runs another project (buildsElsewhereFindings).
		{"recognised command", inWS(shCall("go test ./...")), ClassExecute, VerdictAllow, VerdictAllow},
		{"unrecognised command", inWS(shCall("./configure")), ClassExecute, VerdictAsk, VerdictAllow},
		{"a build outside the workspace", inTmp(shCall("npm test")), ClassExecute, VerdictAsk, VerdictAsk},
		// A module search path relative to the working directory is the project's code only where
		// that directory is the project's: run from /tmp, black imports /tmp/x.
		{"a search path relative to a directory outside the workspace", inTmp(shCall("PYTHONPATH=x black --check /ws")), ClassExecute, VerdictAsk, VerdictAsk},
		{"exported first", inTmp(shCall("export PYTHONPATH=x; black --check /ws")), ClassExecute, VerdictAsk, VerdictAsk},
		{"the same search path in the workspace", inWS(shCall("PYTHONPATH=src black --check .")), ClassExecute, VerdictAllow, VerdictAllow},
		{"a version query from outside it", inTmp(shCall("NODE_PATH=x node --version")), ClassExecute, VerdictAllow, VerdictAllow},
		{"a loop's break and continue", shCall("for f in a b; do [ -e $f ] && break; continue; done"), ClassExecute, VerdictAllow, VerdictAllow},
		{"exec only redirecting the shell", inWS(shCall("exec > build.log 2>&1; go test ./...")), ClassExecute, VerdictAllow, VerdictAllow},
		// go env's operands are settings, not files: a wildcard in one reads nothing (asked, as every
		// go env -w is, never denied as a read of a file the glob might match).
		{"go env -w with a wildcard setting", shCall("go env -w GONOSUMDB=*"), ClassExecute, VerdictAsk, VerdictAsk},
		{"exec replacing the shell with an unrecognised command", inWS(shCall("exec ./configure")), ClassExecute, VerdictAsk, VerdictAllow},
		{"inline interpreter code", shCall(`python3 -c 'print(1)'`), ClassExecute, VerdictAsk, VerdictAsk},
		{"command writes outside the working directory", shCall("echo x > ../other/f"), ClassSystemModify, VerdictAsk, VerdictAllow},
		{"package install", shCall("apt-get install jq"), ClassSystemModify, VerdictAsk, VerdictAsk},
		{"unknown tool", Call{Tool: Tool{Name: "x", ActionClass: ClassUnknown}}, ClassUnknown, VerdictAsk, VerdictAllow},
		{"unknown class from the registry", Call{Tool: Tool{Name: "x", ActionClass: "teleport"}}, ClassUnknown, VerdictAsk, VerdictAllow},
		{"registry system_modify", Call{Tool: Tool{Name: "x", ActionClass: ClassSystemModify}}, ClassSystemModify, VerdictAsk, VerdictAllow},
		{"registry git_destructive", Call{Tool: Tool{Name: "x", ActionClass: ClassGitDestructive}}, ClassGitDestructive, VerdictDeny, VerdictDeny},
		{"dispatch", Call{Tool: Tool{Name: "x", ActionClass: ClassDispatch}}, ClassDispatch, VerdictAllow, VerdictAllow},
		{"git destructive command", shCall("git push -f"), ClassGitDestructive, VerdictDeny, VerdictDeny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, y := Evaluate(p, tt.call), Evaluate(yolo, tt.call)
			if diff := cmp.Diff([]any{tt.class, tt.def, tt.yol}, []any{d.Class, d.Verdict, y.Verdict}); diff != "" {
				t.Fatalf("(-want +got):\n%s\ndefault: %s\nyolo: %s", diff, d.Message, y.Message)
			}
		})
	}
}

func TestMapAutonomy(t *testing.T) {
	classes := []ActionClass{ClassRead, ClassWrite, ClassExecute, ClassDispatch, ClassSystemModify, ClassGitDestructive, ClassUnknown, "other"}
	got := map[string][]Disposition{}
	for _, lvl := range []AutonomyLevel{AutonomyDefault, AutonomyYolo} {
		for _, o := range []AutonomyOptions{{ExecuteRecognized: true}, {ReadOutsideWorkspace: true}} {
			for _, c := range classes {
				k := string(lvl)
				if o.ReadOutsideWorkspace {
					k += "/outside+unrecognised"
				}
				got[k] = append(got[k], MapAutonomy(lvl, c, o))
			}
		}
	}
	A, Q, D := DispositionAllow, DispositionAsk, DispositionDeny
	want := map[string][]Disposition{
		//                                read write exec dispatch sysmod gitdestr unknown other
		"Default":                      {A, A, A, A, Q, D, Q, Q},
		"Default/outside+unrecognised": {Q, A, Q, A, Q, D, Q, Q},
		"Yolo":                         {A, A, A, A, A, D, A, A},
		"Yolo/outside+unrecognised":    {A, A, A, A, A, D, A, A},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

func TestLongestLiteral(t *testing.T) {
	tests := map[string]string{
		".env": ".env", "*.pem": ".pem", "/etc/shadow": "shadow", "~/.ssh": ".ssh", "~": "",
		"{credentials,secret}.txt": ".txt", "[abcdef]x": "x", "/proc/*/environ": "environ",
		"id_[rd]sa": "id_", "a\\*b": "a", "x{a,{b,c}}yz": "yz", "[unclosed": "", "**": "",
	}
	for in, want := range tests {
		if got := longestLiteral(in); got != want {
			t.Errorf("longestLiteral(%q) = %q, want %q", in, got, want)
		}
	}
}

// Loops inside loops over literal items multiply the times their innermost body is analysed;
// past maxLoopBodies in all, a loop's body is analysed once with its variable unresolved (four
// nested loops of 8 items were 4096 analyses of the body: seconds of the webhook's CPU for a 20 KB
// command).
func TestNestedLoopsAnalyseTheirBodyAtMostMaxLoopBodiesTimes(t *testing.T) {
	items := " in 1 2 3 4 5 6 7 8; do "
	a, aerr := analyzeCommand("for a"+items+"for b"+items+"for c"+items+"for d"+items+
		`cat "f$a$b$c$d"; done; done; done; done`, "/w")
	if aerr != nil {
		t.Fatal(aerr.msg)
	}
	if len(a.paths) > maxLoopBodies {
		t.Errorf("the innermost body was analysed %d times, want at most %d", len(a.paths), maxLoopBodies)
	}
	dynamic := 0
	for _, p := range a.paths {
		if p.dynamic {
			dynamic++
		}
	}
	if dynamic == 0 {
		t.Errorf("the loops not unrolled left no variable unresolved: %+v", a.paths)
	}

	a, aerr = analyzeCommand(`for a in x y; do for b in 1 2 3 4; do cat "f$a$b"; done; done`, "/w")
	if aerr != nil {
		t.Fatal(aerr.msg)
	}
	got := make([]string, 0, len(a.paths))
	for _, p := range a.paths {
		got = append(got, p.raw)
	}
	if want := []string{"fx1", "fx2", "fx3", "fx4", "fy1", "fy2", "fy3", "fy4"}; !slices.Equal(got, want) {
		t.Errorf("two loops of 2 and 4 items: %v, want each body analysed with its items %v", got, want)
	}
}
