package replay

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	safetyv1alpha1 "github.com/toolgate/toolgate/api/v1alpha1"
	"github.com/toolgate/toolgate/internal/audit"
	"github.com/toolgate/toolgate/internal/controller"
	"github.com/toolgate/toolgate/internal/ledger"
	"github.com/toolgate/toolgate/internal/policy"
	"github.com/toolgate/toolgate/internal/safety"
)

// fixture writes, through audit.Log as the operator does, a plan's creation and lock under the
// built-in "unrestricted" profile, then decides calls with the engine against that snapshot and
// records each decision as the webhook does.
type fixture struct {
	t    *testing.T
	dir  string
	log  *audit.Log
	snap *safetyv1alpha1.PlanSnapshot
	pol  *safety.Policy
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	// The ledger's clock, not the wall clock: the journal seals its segment at UTC midnight, and a
	// run that crossed it split the fixture's records over two segments (the tamper test below
	// then found no decision to alter in the first).
	j, err := ledger.Open(audit.Config(nil, dir, "w", &stepClock{t: fixtureDay}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	f := &fixture{t: t, dir: dir, log: &audit.Log{Journal: j}}
	ctx := context.Background()
	plan := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "plan-uid"},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coder",
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: safety.BuiltinUnrestricted}}}
	if err := f.log.RecordPlan(ctx, audit.Plan{Decision: "allow", Operation: audit.PlanCreate, Namespace: "ns", Name: "p",
		ServiceAccount: "coder", Profile: "SafetyProfile/" + safety.BuiltinUnrestricted}); err != nil {
		t.Fatal(err)
	}
	snap, err := resolveWith(nil, plan)
	if err != nil {
		t.Fatal(err)
	}
	plan.Status.Snapshot = snap
	c, err := audit.LockChange(plan, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.log.RecordConfig(ctx, c); err != nil {
		t.Fatal(err)
	}
	f.snap = snap
	if f.pol, err = policy.CompileSnapshot(snap); err != nil {
		t.Fatal(err)
	}
	return f
}

func resolveWith(objs []client.Object, plan *safetyv1alpha1.AgentPlan) (*safetyv1alpha1.PlanSnapshot, error) {
	m := memReader{objects: map[objKey]client.Object{}}
	for _, o := range objs {
		m.objects[keyOf(o)] = o
	}
	return controller.ResolveSnapshot(context.Background(), m, plan)
}

// decide has the engine decide a call of a read tool on paths and records it; it returns the
// recorded decision.
func (f *fixture) decide(name string, facts bool, args safetyv1alpha1.ToolArguments) string {
	f.t.Helper()
	pin := &audit.ToolPin{UID: "tool-uid", Generation: 1, ActionClass: "read"}
	call := safety.Call{Tool: safety.Tool{Name: "read", ActionClass: safety.ClassRead},
		Args: safety.Arguments{Command: args.Command, Paths: args.Paths, Cwd: args.Cwd}}
	got := safety.Evaluate(f.pol, call)
	d := audit.Decision{Decision: verdict(got), Reason: got.Reason, RuleID: got.RuleID, Namespace: "ns", Plan: "p", Call: name,
		Tool: "read", SnapshotHash: f.snap.Hash, Request: &audit.CallRequest{UID: name + "-uid", Arguments: args}, AgentTool: pin}
	if facts {
		d.Facts = audit.FactsOf(call, false)
	} else {
		d.Decision, d.Reason = "deny", "PlanNotLocked"
	}
	if err := f.log.RecordDecision(context.Background(), d); err != nil {
		f.t.Fatal(err)
	}
	return d.Decision
}

func TestReplayReproducesRecordedDecisionsAndSaysWhatItCannotReplay(t *testing.T) {
	f := newFixture(t)
	if got := f.decide("read-src", true, safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go"}}); got != "allow" {
		t.Fatalf("read-src: %s", got)
	}
	if got := f.decide("read-env", true, safetyv1alpha1.ToolArguments{Paths: []string{".env"}}); got != "deny" {
		t.Fatalf("read-env: %s", got)
	}
	f.decide("unlocked", false, safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go"}})
	f.decide("secret", true, safetyv1alpha1.ToolArguments{Command: `curl -H "Authorization: Bearer abcdefghijklmnop0123456789" https://x`})

	rep, err := Replay(context.Background(), f.dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Verified {
		t.Errorf("ledger does not verify: %s", rep.VerifySummary)
	}
	want := Report{Decisions: 4, Replayed: 2, Unchanged: 2, UnreplayableByWhy: map[string]int{WhyBeforeEngine: 1, WhyArgsAltered: 1}}
	got := Report{Decisions: rep.Decisions, Replayed: rep.Replayed, Unchanged: rep.Unchanged, Flips: rep.Flips, UnreplayableByWhy: rep.UnreplayableByWhy}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("replay under the recorded snapshot (-want +got):\n%s", diff)
	}

	replayUnder := func(objs ...client.Object) Report {
		t.Helper()
		rep, err := Replay(context.Background(), f.dir, objs)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	// A project policy that puts src/ out of reach flips the one allowed read, allow→deny.
	tight := &safetyv1alpha1.ProjectPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "project"},
		Spec: safetyv1alpha1.ProjectPolicySpec{PathPolicy: &safetyv1alpha1.PathPolicy{ZeroAccess: []string{"src/"}}}}
	rep = replayUnder(tight)
	if len(rep.Flips) != 1 || rep.Flips[0].Call != "read-src" || rep.Flips[0].From != "allow" || rep.Flips[0].To != "deny" ||
		rep.Flips[0].Rule != "path-policy:zeroAccess" {
		t.Errorf("flips under %s: %+v", rep.Candidates, rep.Flips)
	}
	if rep.ByRule["path-policy:zeroAccess"].Flipped != 1 {
		t.Errorf("by rule: %+v", rep.ByRule)
	}
	// A candidate that names a profile that does not exist cannot lock the plan: nothing flips,
	// every engine decision says why.
	missing := &safetyv1alpha1.AgentPlan{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"},
		Spec: safetyv1alpha1.AgentPlanSpec{ServiceAccountName: "coder",
			ProfileRef: &safetyv1alpha1.ProfileRef{Kind: safetyv1alpha1.ProfileKindSafetyProfile, Name: "nope"}}}
	rep = replayUnder(missing)
	if len(rep.Flips) != 0 || rep.UnreplayableByWhy[WhyCannotLock] != 2 {
		t.Errorf("under a plan naming a missing profile: flips %+v, unreplayable %+v", rep.Flips, rep.UnreplayableByWhy)
	}
	// A candidate that is not a policy kind is refused, naming it.
	if _, err := Replay(context.Background(), f.dir, []client.Object{&safetyv1alpha1.AgentTool{ObjectMeta: metav1.ObjectMeta{Name: "t"}}}); err == nil {
		t.Error("an AgentTool candidate was accepted")
	}
}

// Run exits ExitError, naming why, when the ledger does not verify: a replay of altered records
// must not pass for a clean "nothing flips".
func TestRunFailsOnALedgerThatDoesNotVerify(t *testing.T) {
	f := newFixture(t)
	f.decide("read-src", true, safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go"}})
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), Options{Ledger: f.dir}, &out, &errOut); code != ExitNoFlips {
		t.Fatalf("clean ledger: exit %d, want %d\n%s%s", code, ExitNoFlips, out.String(), errOut.String())
	}
	segs, err := filepath.Glob(filepath.Join(f.dir, "w", "*.jsonl"))
	if err != nil || len(segs) == 0 {
		t.Fatalf("fixture: segments %v, %v", segs, err)
	}
	data, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	altered := bytes.Replace(data, []byte(`"src/a.go"`), []byte(`"src/b.go"`), 1)
	if bytes.Equal(altered, data) {
		t.Fatal("fixture: no recorded path to alter")
	}
	if err := os.WriteFile(segs[0], altered, 0o640); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errOut.Reset()
	if code := Run(context.Background(), Options{Ledger: f.dir}, &out, &errOut); code != ExitError {
		t.Fatalf("altered ledger: exit %d, want %d\n%s%s", code, ExitError, out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), "does not verify") || !strings.Contains(errOut.String(), "hash mismatch") {
		t.Errorf("altered ledger: stderr %q, want it to say the ledger does not verify and why", errOut.String())
	}
}

// The verdict names writers and files of the volume, which whoever writes the volume names: a
// writer directory called "w\r\x1b[2K…" would overwrite "DOES NOT VERIFY" in a terminal.
func TestRunShowsTheVerdictVisibly(t *testing.T) {
	f := newFixture(t)
	f.decide("read-src", true, safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go"}})
	if err := os.Rename(filepath.Join(f.dir, "w"), filepath.Join(f.dir, "w\r\x1b[2Kverified\u202e")); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), Options{Ledger: f.dir}, &out, &errOut); code != ExitError {
		t.Fatalf("renamed writer: exit %d, want %d\n%s%s", code, ExitError, out.String(), errOut.String())
	}
	for _, s := range []string{out.String(), errOut.String()} {
		if strings.ContainsAny(s, "\r\x1b\u202e") {
			t.Errorf("replay printed characters that do not show as themselves: %q", s)
		}
	}
}

// fixtureDay is when the fixture's records are written: noon, so that no run's records span two
// UTC days, however many of them a test writes (a microsecond each).
var fixtureDay = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// stepClock moves a microsecond on every reading, so records keep their order in time.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Microsecond)
	return c.t
}

// A denial whose record names another rule than its recorded facts and snapshot give (the record
// does not hold what its rule decided on) is reported, though its verdict is the same.
func TestReplayReportsADenialWhoseRuleItsRecordDoesNotReproduce(t *testing.T) {
	f := newFixture(t)
	f.decide("read-env", true, safetyv1alpha1.ToolArguments{Paths: []string{".env"}})
	args := safetyv1alpha1.ToolArguments{Paths: []string{".env"}}
	d := audit.Decision{Decision: "deny", Reason: safety.ReasonToolCostLimitExceeded, RuleID: "max-cost-per-plan", Namespace: "ns",
		Plan: "p", Call: "misrecorded", Tool: "read", SnapshotHash: f.snap.Hash,
		Request:   &audit.CallRequest{UID: "misrecorded-uid", Arguments: args},
		AgentTool: &audit.ToolPin{UID: "tool-uid", Generation: 1, ActionClass: "read"},
		Facts:     audit.FactsOf(safety.Call{Tool: safety.Tool{Name: "read", ActionClass: safety.ClassRead}}, false)}
	if err := f.log.RecordDecision(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	rep, err := Replay(context.Background(), f.dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Flips) != 0 || rep.Unchanged != 2 {
		t.Fatalf("flips %+v, unchanged %d: the verdicts are the recorded ones", rep.Flips, rep.Unchanged)
	}
	if len(rep.RuleChanged) != 1 || rep.RuleChanged[0].Call != "misrecorded" || rep.RuleChanged[0].RecordedRule != "max-cost-per-plan" ||
		rep.RuleChanged[0].Rule == "max-cost-per-plan" {
		t.Fatalf("rule changed: %+v, want only the misrecorded denial", rep.RuleChanged)
	}
	var out bytes.Buffer
	WriteHuman(&out, rep)
	if !strings.Contains(out.String(), "SAME VERDICT, OTHER RULE") || !strings.Contains(out.String(), "misrecorded") {
		t.Errorf("human output does not list it:\n%s", out.String())
	}
}

// The engine reads of a sandbox id only whether it is blank. An agent that names its sandbox like
// a redaction marker ("sbx-[REDACTED:jwt]") must not make its calls unreplayable: only a cut
// whose kept part is blank hides what the engine read.
func TestReplayReadsOfTheSandboxIDOnlyWhatTheEngineDoes(t *testing.T) {
	f := newFixture(t)
	record := func(call, sandbox string) {
		args := safetyv1alpha1.ToolArguments{Paths: []string{"src/a.go"}}
		c := safety.Call{Tool: safety.Tool{Name: "read", ActionClass: safety.ClassRead}, Args: safety.Arguments{Paths: args.Paths},
			Context: safety.Context{SandboxID: sandbox}}
		got := safety.Evaluate(f.pol, c)
		d := audit.Decision{Decision: verdict(got), Reason: got.Reason, RuleID: got.RuleID, Namespace: "ns", Plan: "p", Call: call,
			Tool: "read", SnapshotHash: f.snap.Hash, Request: &audit.CallRequest{UID: call + "-uid", Arguments: args, SandboxID: sandbox},
			AgentTool: &audit.ToolPin{UID: "tool-uid", Generation: 1, ActionClass: "read"}, Facts: audit.FactsOf(c, false)}
		if err := f.log.RecordDecision(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	record("marker-like", "sbx-[REDACTED:jwt]")
	record("cut-but-named", "sbx-"+strings.Repeat("a", ledger.DefaultMaxStringLength)) // cut by the journal, still not blank
	record("cut-blank", strings.Repeat(" ", ledger.DefaultMaxStringLength+1))          // cut: was it blank? the record cannot say
	rep, err := Replay(context.Background(), f.dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Replayed != 2 || rep.Unchanged != 2 || len(rep.Flips) != 0 {
		t.Fatalf("replayed %d, unchanged %d, flips %+v, unreplayable %+v", rep.Replayed, rep.Unchanged, rep.Flips, rep.Unreplayable)
	}
	if len(rep.Unreplayable) != 1 || rep.Unreplayable[0].Call != "cut-blank" || rep.Unreplayable[0].Why != WhyArgsAltered {
		t.Fatalf("unreplayable %+v, want only the blank sandbox id that was cut", rep.Unreplayable)
	}
}
