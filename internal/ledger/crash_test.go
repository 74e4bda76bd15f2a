package ledger

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The crash test re-executes this test binary as the writer: with crashChildEnv set, TestMain
// runs crashChild instead of the tests.
const (
	crashChildEnv = "TOOLGATE_LEDGER_CRASH_CHILD_DIR"
	// crashTearEnv makes the writer die in the middle of a write(2): after that many segment
	// writes it writes half of the next batch and sends itself SIGKILL. The kernel rarely lets a
	// kill from outside split a write, so this is how the test gets real torn tails.
	crashTearEnv = "TOOLGATE_LEDGER_CRASH_TEAR_AFTER"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		crashChild(dir)
		return
	}
	os.Exit(m.Run())
}

func crashConfig(dir string) Config {
	// Small segments and constant maintenance, so kills land in seals, segment creation and
	// compression as well as in ordinary appends.
	// Large records make large batches: Linux checks for a fatal signal between the pages of
	// a write(2), so a multi-page batch is where SIGKILL can tear a write.
	return Config{Dir: dir, Writer: "crash", MaxSegmentBytes: 64 << 10, Compress: true, MaxStringLength: 4 << 10}
}

// crashChild appends from many goroutines and prints "seq hash" for each record only after
// Append returned, the way the webhook answers only after the ledger said durable. Each line is
// one write(2) to a pipe, so a line is never half-delivered. It runs until killed.
func crashChild(dir string) {
	cfg := crashConfig(dir)
	if n, err := strconv.Atoi(os.Getenv(crashTearEnv)); err == nil {
		cfg.openFile = tearingOpen(n)
	}
	j, err := Open(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(3)
	}
	var out sync.Mutex
	for w := range 32 {
		go func() {
			for i := 0; ; i++ {
				r, err := j.Append(context.Background(), Record{Kind: "decision", Fields: map[string]any{
					"decision": "allow", "call": fmt.Sprintf("w%d-%d", w, i), "message": strings.Repeat("x", rand.IntN(2000)),
				}})
				if err != nil {
					fmt.Fprintln(os.Stderr, "append:", err)
					os.Exit(4)
				}
				out.Lock()
				_, _ = os.Stdout.Write([]byte(strconv.FormatUint(r.Seq, 10) + " " + r.Hash + "\n"))
				out.Unlock()
			}
		}()
	}
	go func() {
		for {
			time.Sleep(time.Duration(rand.IntN(20)) * time.Millisecond)
			if _, err := j.Maintain(time.Now()); err != nil {
				fmt.Fprintln(os.Stderr, "maintain:", err)
				os.Exit(5)
			}
		}
	}()
	time.Sleep(time.Minute) // the parent kills it long before
	os.Exit(6)
}

func tearingOpen(after int) openFunc {
	var mu sync.Mutex
	writes := 0
	return func(name string, flag int, perm os.FileMode) (file, error) {
		f, err := os.OpenFile(name, flag, perm)
		if err != nil {
			return nil, err
		}
		return &tearingFile{osFile: osFile{f}, tear: func(b []byte) bool {
			if dataEnd(b) == 0 {
				return false // a preallocation's zeros: tearing them leaves nothing to recover
			}
			mu.Lock()
			defer mu.Unlock()
			writes++
			return writes > after && len(b) > 1
		}}, nil
	}
}

type tearingFile struct {
	osFile
	tear func([]byte) bool
}

func (f *tearingFile) WriteAt(b []byte, off int64) (int, error) {
	if f.tear(b) {
		_, _ = f.File.WriteAt(b[:len(b)/2], off)
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	return f.File.WriteAt(b, off)
}

// TestCrashRecovery kills a writer under concurrent load with SIGKILL at random moments, again
// and again on the same ledger. After each kill, Open must recover, every record whose receipt
// the writer printed must be on the chain with that hash, and Verify must pass, reporting only
// gaps that recovery recorded.
func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills writer processes")
	}
	rounds := 10
	if s := os.Getenv("LEDGER_CRASH_ROUNDS"); s != "" {
		rounds, _ = strconv.Atoi(s)
	}
	dir := t.TempDir()
	acked := map[uint64]string{}
	totalGaps, tornRounds := 0, 0
	for round := range rounds {
		// Every third round the writer tears its own write; the others are killed from outside.
		tearAfter := -1
		if round%3 == 2 {
			tearAfter = 20 + rand.IntN(200)
		}
		got, tore, stderr := runAndKill(t, dir, time.Duration(50+rand.IntN(400))*time.Millisecond, tearAfter)
		if stderr != "" {
			t.Fatalf("round %d: the writer failed before it was killed: %s", round, stderr)
		}
		maps.Copy(acked, got)

		j, err := Open(crashConfig(dir))
		if err != nil {
			t.Fatalf("round %d: Open after SIGKILL: %v", round, err)
		}
		st := j.Stats()
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		onDisk := map[uint64]string{}
		for _, p := range records(t, dir+"/crash") {
			onDisk[p.Seq] = p.hash
		}
		for seq, h := range acked {
			if onDisk[seq] != h {
				t.Fatalf("round %d: acknowledged record seq %d hash %s is not in the ledger (found %q)", round, seq, short(h), short(onDisk[seq]))
			}
		}
		rep, err := Verify(dir)
		if err != nil {
			t.Fatalf("round %d: Verify after recovery: %v\n%s", round, err, dumpChains(rep))
		}
		c := rep.Chains[0]
		for _, g := range c.Gaps {
			// A gap is only acceptable if it lost nothing that was acknowledged.
			if g.LostRecords > 0 || g.Reason != GapTornTail {
				t.Fatalf("round %d: gap %s", round, g)
			}
		}
		// A torn write must show up as exactly one new gap; a kill from outside may add one.
		newGaps := len(c.Gaps) - totalGaps
		if tore && newGaps != 1 || newGaps > 1 {
			t.Fatalf("round %d: torn write %v, %d new gaps: %v", round, tore, newGaps, c.Gaps)
		}
		if tore {
			tornRounds++
		}
		t.Logf("round %d: %d receipts printed, torn write %v, head seq %d, %d segments, gaps so far %d",
			round, len(got), tore, st.HeadSeq, c.Segments, len(c.Gaps))
		totalGaps = len(c.Gaps)
	}
	if tornRounds == 0 && rounds >= 3 {
		t.Fatal("no round tore a write: the torn-tail path was not exercised")
	}
	t.Logf("%d rounds (%d with a torn write), %d acknowledged records, all present; %d torn tails recorded as gaps",
		rounds, tornRounds, len(acked), totalGaps)
}

// runAndKill starts a writer, lets it run (at least until its first receipt) for about d, kills
// it with SIGKILL and returns the receipts it printed. With tearAfter >= 0 the writer kills
// itself mid-write; tore reports that it did.
func runAndKill(t *testing.T, dir string, d time.Duration, tearAfter int) (got map[uint64]string, tore bool, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
	if tearAfter >= 0 {
		cmd.Env = append(cmd.Env, crashTearEnv+"="+strconv.Itoa(tearAfter))
		d = 20 * time.Second // it kills itself long before
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	got = map[uint64]string{}
	first := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			seq, h, ok := strings.Cut(sc.Text(), " ")
			n, err := strconv.ParseUint(seq, 10, 64)
			if !ok || err != nil || !isHex(h) {
				continue // cannot happen with one write per line; never count a partial receipt
			}
			if len(got) == 0 {
				close(first)
			}
			got[n] = h
		}
	}()
	select {
	case <-first:
	case <-done:
	case <-time.After(30 * time.Second):
	}
	select {
	case <-done: // stdout closed: the writer died by itself
		tore = tearAfter >= 0
	case <-time.After(d):
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
	_ = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the writer was not killed by SIGKILL: %v (%s)", cmd.ProcessState, errOut.String())
	}
	return got, tore, errOut.String()
}
