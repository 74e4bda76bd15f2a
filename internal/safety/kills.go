package safety

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The kill rules' checks: kill's pids are read after its options as bash reads them, and pkill,
// killall and fuser by what selects their processes, so "every process" is seen however it is
// spelt.

// killTargetsAll is kill-init's check: kill signals init (pid 1), every process it may (-1), its
// own process group, the agent's shell with it (0), the shell itself ($$, $BASHPID, or -$$, its
// group) or the process that started it, the agent ($PPID). Options are read as bash's kill reads
// them: -s and -n take the signal as the next word, -l and -L list signals, -- ends the options,
// the first other -word is the signal and every word after the options is a pid, negative ones
// too (kill -1 1234 sends SIGHUP to 1234, kill -9 -1 SIGKILL to every process). A lone -1, a
// signal without a pid, is read as every process, as procps's kill may.
func killTargetsAll(s *segment) bool {
	signal, pids, list := killArgs(s)
	if list || len(pids) > 0 && zeroSignal(signal) {
		return false // a list of signals; signal 0 only asks whether the processes exist
	}
	if len(pids) == 0 {
		return signal == "-1"
	}
	return slices.ContainsFunc(pids, everyOrCaller)
}

// killsComputed is kill-computed's check: kill given a pid computed at run time, or pkill or
// killall a pattern computed at run time. The value may be any pid, -1 and the agent's among
// them, which kill-init denies when it can see them; unseen, a person confirms it (as rm -rf of a
// computed path is refused). A job this line started ($!, a copy of it, a %job) is its own child,
// and signal 0 sends nothing.
func killsComputed(s *segment) bool {
	if s.name != cmdKill {
		return s.unknownFlags || slices.ContainsFunc(s.operands, func(w word) bool { return w.dynamic })
	}
	return slices.ContainsFunc(signalledPids(s), func(w word) bool {
		v := strings.TrimSpace(w.s)
		return w.dynamic && v != bgPid && !strings.HasPrefix(v, "%")
	})
}

// signalledPids returns the pids kill sends a signal to: none when it lists signals or sends
// signal 0, which only asks whether the processes exist.
func signalledPids(s *segment) []word {
	signal, pids, list := killArgs(s)
	if list || zeroSignal(signal) {
		return nil
	}
	return pids
}

// bgPid is the parameter for the pid of the line's last background job.
const bgPid = "$!"

// killArgs reads kill's words as bash's kill reads them: the signal as spelt ("" when none), the
// pids, and whether it only lists signals (-l, -L).
func killArgs(s *segment) (signal string, pids []word, list bool) {
	opts := true
	args := s.words[1:]
	for i := 0; i < len(args); i++ {
		v := args[i].s
		if opts && !args[i].dynamic {
			switch {
			case v == "-l" || v == "-L":
				return signal, nil, true
			case v == "-s" || v == "-n" || v == optSignal:
				signal = v
				if i+1 < len(args) && !args[i+1].dynamic {
					signal = args[i+1].s
				}
				i++
				continue
			case v == "--":
				opts = false
				continue
			case len(v) > 1 && v[0] == '-' && signal == "":
				signal = v
				continue
			}
		}
		opts = false
		pids = append(pids, args[i])
	}
	return signal, pids, false
}

// everyOrCaller reports whether a kill pid word is init (1), every process (-1), the shell's group
// (0), or the shell, its group or its parent (callerPid, -$$). bash reads a pid as a number with
// blanks around it (kill -9 ' -1'). kill(1) of procps and util-linux (/bin/kill, env kill) reads
// it with strtol into a long and hands it to kill(2) as a 32-bit pid_t, so only the low 32 bits
// count: 4294967297 is init and -4294967297 every process. A number past a long is refused.
func everyOrCaller(w word) bool {
	v := strings.TrimSpace(w.s)
	if w.dynamic && callerPid(strings.TrimPrefix(v, "-")) {
		return true
	}
	// A dynamic word that is a number is a name the analysis followed to one (let P=-1; kill $P).
	n, err := strconv.ParseInt(v, 10, 64)
	return err == nil && everyPid(n)
}

// everyPid reports whether a pid, cut to kill(2)'s 32-bit pid_t, is init (1), every process (-1)
// or the caller's group (0).
func everyPid(n int64) bool {
	pid := int32(n) //nolint:gosec // the truncation kill(2)'s pid_t makes is the point
	return pid >= -1 && pid <= 1
}

// optSignal is kill's long option for its signal.
const optSignal = "--signal"

// zeroSignal reports whether kill's signal is 0, which sends nothing and only checks that the
// process exists (kill -0 $PPID, a script's "is the agent still there"): -0, -s 0, -n 0, -s0,
// --signal 0, --signal=0, 00, SIG0 (bash reads -s0 as the unknown signal "s0": nothing is sent).
// bash takes the last -s or -n given, and a -word after the first signal as a pid.
func zeroSignal(v string) bool {
	v = strings.TrimPrefix(strings.TrimPrefix(v, optSignal+"="), "-")
	if v == "s0" || v == "n0" {
		return true
	}
	n, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(v)), "SIG"))
	return err == nil && n == 0
}

// ppid is the shell's parameter for the pid of the process that started it: the agent.
const ppid = "$PPID"

// callerPid reports whether a pid word is the shell's own pid ($$, $BASHPID, a subshell's) or
// its parent's ($PPID), as the renderer spells the parameter whole or braced ("${PPID}").
func callerPid(v string) bool {
	return v == "$$" || v == "$BASHPID" || v == ppid
}

// optUser is killall's option that selects a user's processes.
const optUser = "--user"

// everyPattern is a pkill or killall pattern every process name matches ("." "^" ".*" "").
var everyPattern = regexp.MustCompile(`^(\^?\.[*+]?\$?|\^|\$|\^?\.\*\$?|\[\^?\]|)$`)

// processSelectors are, per program, the options that select processes without a pattern: given
// one and no pattern, pkill and killall kill every process it selects (pkill -u root, killall -u
// dev). pkill -F reads pids from a file and -P a process's children (pkill -P $$, a script's
// clean-up of what this command line started): neither is one; -P $PPID, the agent's children, is
// killsAllMatching's.
//
//nolint:goconst // option spellings read best literally, next to their neighbours
var processSelectors = map[string][]string{
	"pkill":   {"-u", "--euid", "-U", "--uid", "-G", "--group", "-g", "--pgroup", "-s", "--session", "-t", "--terminal", "--ns", "--cgroup", "-O", "--older"},
	"killall": {"-u", optUser, "-o", "--older-than", "-y", "--younger-than"},
}

// loginctl's commands that end every process of a user, a session (the agent's among them) or a
// seat.
var loginctlKills = map[string]bool{"terminate-user": true, "kill-user": true, "terminate-session": true, "kill-session": true, "terminate-seat": true}

// killsAllMatching is kill-all-matching's check: pkill or killall given a pattern every process
// matches, or a selector and no pattern; fuser -k given a file system (-m: every process using a
// file on it) or / (every process's root directory); loginctl ending a user's or a session's
// processes.
func killsAllMatching(s *segment) bool {
	if s.name == "loginctl" {
		return len(s.operands) > 0 && loginctlKills[s.operands[0].s]
	}
	if s.name == "fuser" {
		if !s.hasFlag("-k") && !s.hasFlag("--kill") {
			return false
		}
		return len(s.operands) > 0 && (s.hasFlag("-m") || s.hasFlag("--mount")) ||
			slices.ContainsFunc(s.operands, func(w word) bool { return path.Clean(w.s) == "/" })
	}
	if s.name == "pkill" && (s.hasFlag("-v") || s.hasFlag("--inverse")) {
		return true // every process but those the pattern matches
	}
	if v, ok := optionValue(s, "-P", "--parent"); ok && everyParent(v) {
		return true
	}
	if len(s.operands) == 0 {
		return slices.ContainsFunc(processSelectors[s.name], s.hasFlag)
	}
	return slices.ContainsFunc(s.operands, func(w word) bool { return !w.dynamic && matchesEveryProcess(w.s) })
}

// everyParent reports whether pkill -P's parent has every process, or every one that matters, as
// its children: init (1) or the kernel (0), every process; the agent ($PPID), this shell and every
// other tool it runs.
func everyParent(v word) bool {
	p := strings.TrimSpace(v.s)
	return !v.dynamic && (p == "1" || p == "0") || v.dynamic && p == ppid
}

// processNames are names of processes every system runs, or could: a pattern that matches all of
// them ([^x], .?, x*, a|, ()) matches every process.
//
//nolint:goconst // process names read best literally, next to their neighbours
var processNames = []string{"systemd", "init", cmdBash, "sshd", "kthreadd", "node", "python3", "Xorg", "z"}

// matchesEveryProcess reports whether a pkill or killall pattern matches every process: one of
// the spellings of "anything" (everyPattern), or, read as a regular expression, every name of
// processNames.
func matchesEveryProcess(pattern string) bool {
	if everyPattern.MatchString(pattern) {
		return true
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return false // pkill refuses a pattern it cannot compile, and kills nothing
	}
	return !slices.ContainsFunc(processNames, func(n string) bool { return !re.MatchString(n) })
}
