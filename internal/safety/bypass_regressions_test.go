package safety

import (
	"strings"
	"testing"
	"unicode"
)

// regressionsCatalogue: ordinary commands this session's engine changes turned from allowed (or
// asked only as a computed pid) to asked or denied, found by evaluating about 2,300 everyday
// commands on the session's base (2eb22ed) and on its head. Each attack is the one the change
// closed and stays closed; each near miss is the everyday command the change had caught.
func regressionsCatalogue() []classCase {
	sh := shCall
	opaque, killInit, tooLong := asked(RuleOpaqueCode), denied(dc+"kill-init"), denied(RuleCommandTooComplex)
	const (
		repo  = "the repository git finds where it runs"
		pids  = "a pid computed from the agent's or the shell's"
		wtAdd = "git worktree add /tmp/wt && "
		long  = "a long command the rule pack's patterns must read"
	)
	// About 2.3 KiB of prose with an em dash and an accent: every non-ASCII text was admitted by
	// every literal filter, so git's patterns read it past the 12 KiB budget. Only the runes
	// (?i) folds to ASCII letters need that (the Kelvin sign for k, the long s for s).
	prose := strings.Repeat("Refactor the parser so that options are read once \u2014 fixes the caf\u00e9 bug. ", 30)
	// About 6.5 KiB of prose about tokens and a credential: send-environment-secret's filter
	// looked for the words alone, and with print-credentials-git's read of the same text it went
	// past the budget; its pattern needs a "$" before the word, which the filter now searches too.
	auth := strings.Repeat("This change refactors the token refresh flow in the auth client: requests get the access token from a cache per tenant, and the refresh token is kept by the secret adapter. ", 36) +
		"A revoked credential is covered by tests."
	authDollar := strings.Repeat("This change refactors the token refresh flow in the auth client: requests get the access token ($GITHUB_TOKEN) from a cache per tenant. ", 48) +
		"A revoked credential is covered by tests."
	kelvin := strings.Repeat("Refactor the parser so that options are read once \u212a fixes the caf\u00e9 bug. ", 30)
	return []classCase{
		// git worktree add DIR writes DIR/.git naming the project's repository: git run there
		// reads the project's config, as git clone's and git init's directories are known.
		{repo, "a directory outside the workspace no git worktree add made", sh(`cd /tmp/wt && git status`), opaque,
			sh(wtAdd + `cd /tmp/wt && git status`), false},
		{repo, "git -C a directory the line did not make", sh(`git -C /tmp/wt log -1`), opaque,
			sh(wtAdd + `git -C /tmp/wt log -1`), false},
		{repo, "a worktree's subdirectory (the project may commit a bare repository)", sh(wtAdd + `cd /tmp/wt/sub && git status`), opaque,
			sh(`git worktree add -b fix /tmp/wt main && cd /tmp/wt && go test ./... && git commit -am fix`), false},
		{repo, "a worktree moved, not made", sh(`git worktree move /tmp/a /tmp/wt && cd /tmp/wt && git status`), opaque,
			sh(`git worktree add -fb topic /tmp/wt && cd /tmp/wt && git log -1`), false},
		{long, "a commit message with a Kelvin sign, which (?i)k matches", sh(`git commit -m '` + kelvin + `'`), tooLong,
			sh(`git commit -m 'parser: read options once' -m '` + prose + `'`), false},
		{long, "echo of the same", sh(`echo '` + kelvin + kelvin + `' > notes.md`), tooLong, sh(`echo '` + prose + prose + `' > notes.md`), false},
		{long, "the same prose naming $GITHUB_TOKEN, which send-environment-secret must read", sh(`git commit -m 'auth: tokens' -m '` + authDollar + `'`), tooLong,
			sh(`git commit -m 'auth: refresh tokens before expiry' -m '` + auth + `'`), false},
		// pgrep -P $$ and ps --ppid $$ list the shell's children (its background jobs), never the
		// shell or the agent; -P $PPID lists the agent's children, the shell among them. kill $(pgrep -P $$)
		// itself is asked at Default as any computed pid is, so it is in
		// TestRegressionsKillShellsChildren; the near misses here are kills of a job.
		{pids, "pgrep of the agent's children", sh(`kill $(pgrep -P $PPID)`), killInit, sh(`kill %1`), false},
		{pids, "pgrep --parent of the agent", sh(`kill -9 $(pgrep --parent $PPID)`), killInit, sh(`kill -9 %1`), false},
		{pids, "ps --ppid of the agent", sh(`kill $(ps -o pid= --ppid $PPID)`), killInit, sh(`kill -TERM %2`), false},
	}
}

// TestRegressionsKillShellsChildren: kills of the shell's own children (pgrep -P $$, ps --ppid
// $$) are never denied: pgrep's are asked at Default as any computed pid is and admitted at
// Yolo, as pkill -P $$ and pgrep -P $$ | xargs kill are; ps's $$ is also read as a computed word
// (dynamic-path at every level, as on the session's base). A $$ given as anything but the parent
// whose children are listed stays the caller's.
func TestRegressionsKillShellsChildren(t *testing.T) {
	p := mustCompile(t, &Profile{}, classRules)
	yr := classRules
	yr.Autonomy = AutonomyYolo
	y := mustCompile(t, &Profile{}, yr)
	yoloAllowed := []string{`kill $(pgrep -P $$)`, `kill $(pgrep --parent $$)`, `kill -9 $(pgrep -P $$ -f server)`,
		`kill $(pgrep -P "$$")`, `kill $(pgrep -P $BASHPID)`, `pkill -P $$`}
	// Through xargs the pids are computed words to kill-computed, asked at every level.
	for _, c := range append(yoloAllowed, `kill $(ps -o pid= --ppid $$)`, `ps -o pid= --ppid $$ | xargs -r kill`, `pgrep -P $$ | xargs kill`) {
		if d := Evaluate(p, shCall(c)); d.Verdict == VerdictDeny {
			t.Errorf("%q: %s %s, want no denial", c, d.Verdict, d.RuleID)
		}
	}
	for _, c := range yoloAllowed {
		if d := Evaluate(y, shCall(c)); d.Verdict != VerdictAllow {
			t.Errorf("%q at Yolo: %s %s, want allow", c, d.Verdict, d.RuleID)
		}
	}
	for _, c := range []string{`kill $(pgrep -P $PPID)`, `kill $(pgrep -P $$; echo $$)`, `kill $(pgrep -f x $$)`,
		`kill $(echo -P $$)`, `kill $(pgrep -P $$ $$)`, `kill $(ps -o pid= --ppid $PPID)`, `kill $(ps -o pid= --ppid $$ -p $$)`,
		`kill $(ps -o ppid= -p $$)`} {
		if d := Evaluate(p, shCall(c)); d.RuleID != dc+"kill-init" {
			t.Errorf("%q: %s %s, want kill-init", c, d.Verdict, d.RuleID)
		}
	}
}

// TestRegressionsASCIIFoldRunes: the literal filter admits whole only the texts holding a rune
// that (?i) folds to an ASCII letter; asciiFoldRunes must be every such rune.
func TestRegressionsASCIIFoldRunes(t *testing.T) {
	var want []rune
	for r := range rune(unicode.MaxASCII + 1) {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f > unicode.MaxASCII && !strings.ContainsRune(string(want), f) {
				want = append(want, f)
			}
		}
	}
	for _, r := range want {
		if !strings.ContainsRune(asciiFoldRunes, r) {
			t.Errorf("asciiFoldRunes lacks %U, which folds to an ASCII letter", r)
		}
	}
	if got := len([]rune(asciiFoldRunes)); got != len(want) {
		t.Errorf("asciiFoldRunes has %d runes, want %d (%q)", got, len(want), string(want))
	}
}
