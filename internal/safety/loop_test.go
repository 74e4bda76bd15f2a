package safety

import (
	"hash/maphash"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time       { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Step(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func TestLoopDetectorWindow(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	d := NewLoopDetector(clk, 0)
	k := NewCallKey("plan-1", shCall("go test ./..."))
	got := make([]int, 0, 6)
	for range 4 {
		got = append(got, d.Observe(k, 10*time.Second))
		clk.Step(3 * time.Second)
	}
	// t=12s: the observation at t=0 is 12s old and out of the window; t=3,6,9,12 remain.
	got = append(got, d.Observe(k, 10*time.Second))
	clk.Step(10 * time.Second) // t=22: 12 is exactly 10s old, out of the window
	got = append(got, d.Observe(k, 10*time.Second))
	if diff := cmp.Diff([]int{1, 2, 3, 4, 4, 1}, got); diff != "" {
		t.Fatalf("counts (-want +got):\n%s", diff)
	}
	if n := d.Observe(NewCallKey("plan-2", shCall("go test ./...")), 10*time.Second); n != 1 {
		t.Fatalf("another scope shares the count: %d", n)
	}
	if n := d.Observe(k, 0); n != 1 {
		t.Fatalf("a zero window counts only this call, got %d", n)
	}
}

func TestLoopDetectorDecision(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	d := NewLoopDetector(clk, 0)
	p := mustCompile(t, &Profile{}, ProjectRules{Loop: LoopPolicy{MaxRepeats: 3, Window: time.Minute}})
	call := shCall("ls -la")
	verdicts := make([]Verdict, 0, 5)
	for range 5 {
		call.Context.Repeats = d.Observe(NewCallKey("plan", call), p.Loop().Window)
		verdicts = append(verdicts, Evaluate(p, call).Verdict)
		clk.Step(time.Second)
	}
	if diff := cmp.Diff([]Verdict{VerdictAllow, VerdictAllow, VerdictAllow, VerdictDeny, VerdictDeny}, verdicts); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	d4 := Evaluate(p, call)
	checkDecision(t, d4, ReasonToolLoopDetected, "5 times", "more than the 3 allowed")
	clk.Step(2 * time.Minute)
	call.Context.Repeats = d.Observe(NewCallKey("plan", call), p.Loop().Window)
	if v := Evaluate(p, call).Verdict; v != VerdictAllow {
		t.Fatalf("after the window the call is admitted again, got %s", v)
	}
	off := mustCompile(t, &Profile{}, ProjectRules{Loop: LoopPolicy{MaxRepeats: -1}})
	call.Context.Repeats = 1 << 20
	if v := Evaluate(off, call).Verdict; v != VerdictAllow {
		t.Fatalf("disabled loop detection denied: %s", v)
	}
}

func TestCallKeyCanonical(t *testing.T) {
	a := Call{Tool: Tool{Name: "sh"}, Args: Arguments{Command: "ls  -la\u00a0src", Cwd: "/ws/./app", Paths: []string{"b", "./a"}}}
	b := Call{Tool: Tool{Name: "sh"}, Args: Arguments{Command: " ls -la src ", Cwd: "/ws/app/", Paths: []string{"a", "b"}}}
	if NewCallKey("s", a) != NewCallKey("s", b) {
		t.Fatal("cosmetic variations give different keys")
	}
	for name, c := range map[string]Call{
		"tool":    {Tool: Tool{Name: "sh2"}, Args: b.Args},
		"command": {Tool: b.Tool, Args: Arguments{Command: "ls -la src2", Cwd: b.Args.Cwd, Paths: b.Args.Paths}},
		"cwd":     {Tool: b.Tool, Args: Arguments{Command: b.Args.Command, Cwd: "/ws", Paths: b.Args.Paths}},
		"paths":   {Tool: b.Tool, Args: Arguments{Command: b.Args.Command, Cwd: b.Args.Cwd, Paths: []string{"a"}}},
	} {
		if NewCallKey("s", c) == NewCallKey("s", b) {
			t.Errorf("a different %s gives the same key", name)
		}
	}
	// Length-prefixed fields: moving text between fields is a different call.
	if NewCallKey("ab", Call{Tool: Tool{Name: "c"}}) == NewCallKey("a", Call{Tool: Tool{Name: "bc"}}) {
		t.Fatal("field boundaries are ambiguous")
	}
}

func TestLoopDetectorBoundedMemory(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	d := NewLoopDetector(clk, 100)
	first := NewCallKey("s", shCall("echo 0"))
	d.Observe(first, time.Hour)
	for i := 1; i < 1000; i++ {
		d.Observe(NewCallKey("s", shCall("echo "+string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676)))), time.Hour)
	}
	if d.Len() > 100 {
		t.Fatalf("detector holds %d keys, bound is 100", d.Len())
	}
	// first was forgotten (every call is live, and it is the least recently seen of those seen
	// once); seen again, it takes the place of a call seen once, and so on: Space-Saving's count
	// errs high by at most the calls observed over the keys remembered (1000/100).
	if n := d.Observe(first, time.Hour); n < 2 || n > 1+1000/100 {
		t.Fatalf("first, forgotten, is counted %d times, want 2 to %d", n, 1+1000/100)
	}
	k := NewCallKey("s", shCall("spin"))
	var n int
	for range 5000 {
		n = d.Observe(k, time.Hour)
	}
	if n != loopStamps {
		t.Fatalf("count saturates at %d, got %d", loopStamps, n)
	}
}

func TestLoopDetectorConcurrent(t *testing.T) {
	d := NewLoopDetector(nil, 50)
	k := NewCallKey("s", shCall("ls"))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := range 100 {
				d.Observe(k, time.Hour)
				d.Observe(NewCallKey("s", shCall(string(rune('a'+g))+string(rune('a'+i%26)))), time.Hour)
			}
		}(g)
	}
	wg.Wait()
	if n := d.Observe(k, time.Hour); n != 8*100+1 {
		t.Fatalf("lost observations under concurrency: %d", n)
	}
}

func TestCallKeyIsTheParsedCommand(t *testing.T) {
	same := [][]string{
		{"curl https://example.com/a", "curl 'https://example.com/a'", "curl https://example.com/a;", `curl "https://example.com/a" ;`, "curl\thttps://example.com/a\n"},
		{"git status && ls", "git status&&ls", "'git' status && \\ls"},
		{"echo x > out.txt", "echo x >out.txt", "echo 'x' > 'out.txt';"},
	}
	for _, group := range same {
		want := NewCallKey("ns/plan", shCall(group[0]))
		for _, cmd := range group[1:] {
			if NewCallKey("ns/plan", shCall(cmd)) != want {
				t.Errorf("%q and %q mean the same call but have different keys", group[0], cmd)
			}
		}
	}
	different := [][2]string{
		{"curl https://example.com/a", "curl https://example.com/b"},
		{"echo a b", "echo 'a b'"},
		{"ls; rm x", "ls rm x"},
		{"echo x > a", "echo x > b"},
		{"echo x > a", "echo x >> a; echo x"},
	}
	for _, d := range different {
		if NewCallKey("ns/plan", shCall(d[0])) == NewCallKey("ns/plan", shCall(d[1])) {
			t.Errorf("%q and %q are different calls but share a key", d[0], d[1])
		}
	}
	// A command the engine cannot parse is still keyed, on its folded text.
	if NewCallKey("ns/plan", shCall("cat 'x")) != NewCallKey("ns/plan", shCall("cat  'x")) {
		t.Error("unparseable commands differing in whitespace have different keys")
	}
}

// One tenant cannot evict another's history: memory is bounded per namespace.
func TestLoopDetectorMemoryIsPerNamespace(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	d := NewLoopDetector(clk, 10)
	victim := NewCallKey("victim/plan", shCall("go test ./..."))
	for range 3 {
		d.Observe(victim, time.Hour)
	}
	for i := range 5000 {
		d.Observe(NewCallKey("noisy/plan", shCall("echo "+strconv.Itoa(i))), time.Hour)
	}
	if n := d.Observe(victim, time.Hour); n != 4 {
		t.Fatalf("another namespace's calls evicted the victim's history: count %d, want 4", n)
	}
	if got := d.Len(); got != 11 {
		t.Fatalf("detector holds %d keys, want 10 for the noisy namespace and 1 for the victim", got)
	}
	// Within a namespace the victim's own calls evict its least repeated keys, but not the
	// repeating one (TestLoopDetectorKeepsARepeatingCall).
	for i := range 20 {
		d.Observe(NewCallKey("victim/other-plan", shCall("echo "+strconv.Itoa(i))), time.Hour)
	}
	if n := d.Observe(victim, time.Hour); n != 5 {
		t.Fatalf("the victim's own single calls evicted its repeating call: count %d, want 5", n)
	}
	if got := d.Len(); got != 20 {
		t.Fatalf("detector holds %d keys, want 10 for each namespace", got)
	}
}

// An agent cannot make the detector forget its loop by sending enough distinct calls in between
// (each free to it: refused before anything is counted). Before, the least recently seen call was
// evicted whatever its count, so maxKeys distinct calls reset a loop at its threshold. Calls
// whose stamps have left their window go first, then the least repeated; a call forgotten and
// seen again starts from its floor, which covers its live stamps, so its count errs
// high, never low (TestLoopDetectorNeverCountsLow).
func TestLoopDetectorKeepsARepeatingCall(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	d := NewLoopDetector(clk, 50)
	loop := NewCallKey("ns/plan", shCall("curl https://example.com/poll"))
	for range 6 {
		d.Observe(loop, time.Minute)
	}
	for i := range 500 {
		d.Observe(NewCallKey("ns/plan", shCall("cat src/evict-"+strconv.Itoa(i)+".go")), time.Minute)
	}
	if n := d.Observe(loop, time.Minute); n < 7 {
		t.Fatalf("500 distinct calls made the detector forget a loop: count %d, want at least 7", n)
	}
	// A call whose window has passed is forgotten before any live one, however often it repeated,
	// and raises no floor.
	d = NewLoopDetector(clk, 3)
	old := NewCallKey("ns/plan", shCall("make test"))
	for range 10 {
		d.Observe(old, time.Second)
	}
	live := NewCallKey("ns/plan", shCall("go vet ./..."))
	d.Observe(live, time.Minute)
	d.Observe(NewCallKey("ns/plan", shCall("ls")), time.Minute)
	clk.Step(2 * time.Second)
	if n := d.Observe(NewCallKey("ns/plan", shCall("cat src/after.go")), time.Minute); n != 1 {
		t.Fatalf("a new call taking an expired call's place is counted %d times, want 1", n)
	}
	if n := d.Observe(live, time.Minute); n != 2 {
		t.Fatalf("a live call was forgotten before an expired one: count %d, want 2", n)
	}
	if n := d.Observe(old, time.Second); n < 1 || d.Len() > 3 {
		t.Fatalf("count %d, %d keys remembered, bound 3", n, d.Len())
	}
}

// The attack the least-repeated eviction alone allowed: the agent fills its namespace with calls
// seen twice (refused for free), then alternates its loop with one other call. Each was new when
// it came, so each evicted the other (the only calls seen once) and the loop counted 1 forever.
// Now the one forgotten raises its floor, and starts from it again when it comes back: the loop's
// count grows with every round, as it should.
func TestLoopDetectorCountsALoopAlternatingWithAFiller(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	const keys = 20
	d := NewLoopDetector(clk, keys)
	for i := range keys - 1 {
		k := NewCallKey("ns/plan", shCall("cat src/pair-"+strconv.Itoa(i)+".go"))
		d.Observe(k, time.Hour)
		d.Observe(k, time.Hour)
	}
	loop := NewCallKey("ns/plan", shCall("curl https://example.com/poll"))
	filler := NewCallKey("ns/plan", shCall("cat src/filler.go"))
	for round := 1; round <= 10; round++ {
		clk.Step(time.Second)
		if n := d.Observe(loop, time.Hour); n < round {
			t.Fatalf("round %d: the loop is counted %d times, fewer than it ran", round, n)
		}
		d.Observe(filler, time.Hour)
	}
}

// The price of never counting low: when every remembered call is live, a new call starts from the
// floor it picks, as many live repeats as the most repeated call forgotten from it while live, and
// those forgotten are the least repeated; here at most the calls observed over the calls
// remembered. While some remembered call has left its window, no floor rises and counts are exact.
func TestLoopDetectorOverCountIsBounded(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	const keys, calls = 100, 1000
	d := NewLoopDetector(clk, keys)
	for i := range calls {
		clk.Step(time.Millisecond)
		n := d.Observe(NewCallKey("ns/plan", shCall("cat src/f"+strconv.Itoa(i)+".go")), time.Hour)
		if bound := 1 + i/keys; n > bound {
			t.Fatalf("call %d, new, counted %d times: more than 1 + %d observed / %d remembered", i, n, i, keys)
		}
	}
	clk.Step(2 * time.Hour)
	for i := range calls {
		if n := d.Observe(NewCallKey("ns/other", shCall("cat src/g"+strconv.Itoa(i)+".go")), time.Hour); n != 1 {
			t.Fatalf("call %d, new, counted %d times while expired calls could be forgotten", i, n)
		}
		clk.Step(time.Hour) // so each call expires before the next
	}
}

// The detector says when it forgets a call that still counted (the manager counts it in
// toolgate_loop_forgotten_live_total), and only then: forgetting an expired call, or one the floor
// already covers, changes no count.
func TestLoopDetectorSaysWhenItForgetsALiveCall(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	d := NewLoopDetector(clk, 2)
	forgot := 0
	d.ForgotLive = func() { forgot++ }
	key := func(s string) CallKey { return NewCallKey("ns/plan", shCall("cat "+s)) }
	// c and d share a floor (among the 16 of a memory of 2), so forgetting one covers the other.
	floorOf := func(k CallKey) uint64 { return maphash.Comparable(d.seed, k.sum) % (2 * floorsPerKey) }
	c, other := key("c"), key("")
	for i := 0; floorOf(other) != floorOf(c); i++ {
		other = key("d" + strconv.Itoa(i))
	}
	d.Observe(key("a"), time.Second)
	d.Observe(key("b"), time.Second)
	clk.Step(2 * time.Second)
	d.Observe(c, time.Minute)
	d.Observe(other, time.Minute)
	if forgot != 0 {
		t.Fatalf("forgetting two expired calls was reported %d times", forgot)
	}
	d.Observe(key("e"), time.Minute) // c and the other live: c goes, and raises their floor
	if forgot != 1 {
		t.Fatalf("forgetting a live call was reported %d times, want 1", forgot)
	}
	d.Observe(key("f"), time.Minute) // the other, seen when c was, is covered by the floor c raised
	if forgot != 1 {
		t.Fatalf("forgetting a call its floor covers was reported: %d times in all, want 1", forgot)
	}
}

// Each new call can lengthen its floor by one stamp, so an agent with a long window could grow
// every floor to 1024 stamps, eight times what the calls remembered may hold. The floors hold no
// more than the calls may; past that, forgotten calls raise the shared floor every call starts
// from.
func TestLoopDetectorFloorsHoldNoMoreThanTheCalls(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	const keys = 4
	d := NewLoopDetector(clk, keys)
	for i := range uint64(40_000) {
		clk.Step(time.Millisecond)
		d.Observe(simulatedKey(i), 24*time.Hour)
	}
	lp := d.order.Front().Value.(*loopPartition)
	held := len(lp.shared)
	for _, f := range lp.floors {
		held += len(f)
	}
	if held > keys*loopStamps+loopStamps {
		t.Fatalf("the floors hold %d stamps, more than the %d calls remembered may (%d) and the shared floor's %d",
			held, keys, keys*loopStamps, loopStamps)
	}
	if len(lp.shared) == 0 {
		t.Fatal("40,000 distinct calls within the window raised no shared floor")
	}
}

// A detector asked to remember more calls than MaxLoopKeys remembers that many: the floors' count
// (floorsPerKey per call) would overflow, and the first call divide by zero.
func TestLoopDetectorMemoryIsCapped(t *testing.T) {
	d := NewLoopDetector(&fakeClock{t: time.Unix(0, 0)}, 1<<61)
	if n := d.Observe(NewCallKey("ns/plan", shCall("ls")), time.Minute); n != 1 || d.maxKeys != MaxLoopKeys {
		t.Fatalf("count %d, memory %d calls, want 1 and %d", n, d.maxKeys, MaxLoopKeys)
	}
}
