package safety

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Cloud CLIs reach a machine over ssh and run a command there, as ssh does: what it prints
// comes back to the agent, and the machine's home holds the credentials the path policy
// protects here. The command is a script for the remote login shell, from the remote home:
// gcloud's (compute ssh, compute tpus tpu-vm ssh, cloud-shell ssh, workstations ssh) --command,
// fly ssh console's -C/--command, devpod ssh's --command; and ssh's own arguments after "--" (gcloud compute ssh VM --
// env, az ssh vm -- env; gh codespace ssh's from its first operand, gh codespace ssh -c cs env),
// read as ssh reads what follows its host.

// cloudSSHCommand analyses the command a cloud CLI's ssh runs on the machine.
func (a *analyzer) cloudSSHCommand(seg *segment, redirs []*syntax.Redirect, depth int) {
	v, ok := cloudSSH(seg)
	if !ok {
		return
	}
	a.cwd = "~"
	defer a.feeding(seg, redirs)()
	ran := false
	if v.long != "" {
		for script := range optionValues(seg, v.short, v.long) {
			a.script(script.s, depth+1)
			ran = true
		}
	}
	flags := ""
	if k := sshArgsAt(seg, v); k > 0 {
		// ssh's arguments after the host: its options, then the remote command.
		var cmd []word
		cmd, flags = sshParse(append([]word{{s: cmdSSH}, {s: sshHostStandIn}}, seg.words[k:]...))
		if len(cmd) > 0 {
			a.script(joinWords(cmd), depth+1)
			ran = true
		}
	}
	if !ran && !strings.ContainsAny(flags, "NWOnf") {
		a.loginShell(depth) // the remote login shell reads what it is fed
	}
}

// sshArgsAt returns the index in seg's words where the arguments a cloud CLI gives ssh after the
// host start, or -1: after "--", or (gh codespace ssh, whose own options are v.valued) at the
// first word after the verb's options.
func sshArgsAt(seg *segment, v sshVerb) int {
	if !v.dashes {
		return -1
	}
	if v.valued == nil {
		if k := slices.IndexFunc(seg.words, func(w word) bool { return w.s == "--" && !w.dynamic }); k > 0 {
			return k + 1
		}
		return -1
	}
	for i := operandAt(seg.words, nil, len(v.path)-1) + 1; i < len(seg.words); i++ {
		switch w := seg.words[i]; {
		case w.s == "--" && !w.dynamic:
			return i + 1
		case len(w.s) > 1 && w.s[0] == '-' && !w.dynamic:
			if takesNextWord(w.s, v.valued) {
				i++
			}
		default:
			return i
		}
	}
	return -1
}

// cmdFly and cmdFlyctl are Fly.io's CLI, by both its names.
const (
	cmdFly    = "fly"
	cmdFlyctl = "flyctl"
)

// sshVerb is a cloud CLI's ssh subcommand: its operands (after gcloud's alpha or beta), the
// option (short and long spelling) whose value is the remote command, if any, and whether the
// words after "--" are ssh's own arguments.
type sshVerb struct {
	path        []string
	short, long string
	dashes      bool
	valued      []string // its own options that take a value, when its first other word starts ssh's arguments
}

// cloudSSHVerbs are, per program, its ssh subcommands.
//
//nolint:goconst // subcommand spellings read best literally
var cloudSSHVerbs = map[string][]sshVerb{
	cmdGcloud: {{[]string{"compute", "ssh"}, optCommand, optCommand, true, nil}, {[]string{"compute", "tpus", "tpu-vm", "ssh"}, optCommand, optCommand, true, nil},
		{[]string{"cloud-shell", "ssh"}, optCommand, optCommand, true, nil}, {[]string{"workstations", "ssh"}, optCommand, optCommand, true, nil}},
	cmdFly:    {{[]string{"ssh", "console"}, "-C", optCommand, false, nil}},
	cmdFlyctl: {{[]string{"ssh", "console"}, "-C", optCommand, false, nil}},
	"az":      {{path: []string{"ssh", "vm"}, dashes: true}, {path: []string{"ssh", "arc"}, dashes: true}},
	"devpod":  {{[]string{"ssh"}, optCommand, optCommand, false, nil}},
	"gh":      {{path: []string{"codespace", "ssh"}, dashes: true, valued: ghSSHValues}, {path: []string{"cs", "ssh"}, dashes: true, valued: ghSSHValues}},
}

// ghSSHValues are gh codespace ssh's options that take a value.
//
//nolint:goconst // option spellings read best literally
var ghSSHValues = []string{"-c", "--codespace", "--debug-file", "--profile", "-R", "--repo", "--repo-owner", "--server-port"}

// cliOperands returns a cloud CLI's operands, past gcloud's alpha or beta track.
func cliOperands(seg *segment) []word {
	ops := seg.operands
	if seg.name == cmdGcloud && len(ops) > 0 && (ops[0].s == "alpha" || ops[0].s == "beta") {
		ops = ops[1:]
	}
	return ops
}

// cloudSSH returns the ssh subcommand a cloud CLI's segment runs, if any.
func cloudSSH(seg *segment) (sshVerb, bool) {
	ops := cliOperands(seg)
	for _, v := range cloudSSHVerbs[seg.name] {
		if len(ops) >= len(v.path) && slices.EqualFunc(ops[:len(v.path)], v.path, func(w word, s string) bool { return !w.dynamic && w.s == s }) {
			return v, true
		}
	}
	return sshVerb{}, false
}

// sshHostStandIn stands for the host the CLI gives ssh, before the arguments after "--".
const sshHostStandIn = "HOST"

// optCommand is --command, the option of a cloud CLI's ssh whose value is the remote command.
const optCommand = "--" + longOptCommand

// svcSSM is AWS Systems Manager, which runs commands on instances and stores parameters.
const svcSSM = "ssm"

// cloudRunVerbs are, per cloud CLI, the commands that run a script on cloud machines (or in
// cloud containers) and give its output back: each a list of steps, the words that in this order
// name it (a service or resource, then for az run-command, then the operation), each one of the
// words listed.
//
//nolint:goconst // subcommand spellings read best literally
var cloudRunVerbs = map[string][][][]string{
	"aws": {{{svcSSM}, {"send-command", "start-session", "start-automation-execution"}},
		{{"ecs"}, {"execute-command"}},       // a command in a task's container
		{{"ec2-instance-connect"}, {"ssh"}}}, // a login shell that reads what it is fed
	"az": {{{"vm", "vmss", "connectedmachine"}, {"run-command"}, {"invoke", "create", "update"}},
		{{"aks"}, {"command"}, {"invoke"}},          // a command in the cluster, with its credentials
		{{subContainer, "containerapp"}, {"exec"}}}, // a command in a container instance or app
	// fly machine exec ID CMD runs CMD on an app's machine, with the app's secrets in its environment.
	cmdFly:    {flyMachineExec},
	cmdFlyctl: {flyMachineExec},
}

//nolint:goconst // subcommand spellings read best literally
var flyMachineExec = [][]string{{"machine", "machines", "m"}, {"exec"}}

// runsCloudCommand is cloud-run-command's check: one of cloudRunVerbs' commands (aws ssm
// send-command, aws ecs execute-command, az vm run-command invoke, fly machine exec, ...), its
// words found in order among the command's, past options and their values, as aws's prefixes of
// long options leave no other way to skip them; a computed word may be any of them. One pass a
// command.
func runsCloudCommand(s *segment) bool {
	for _, steps := range cloudRunVerbs[s.name] {
		if wordsInOrder(s, steps) {
			return true
		}
	}
	return false
}

// wordsInOrder reports whether the segment's words past the program, options skipped, hold one
// word of each step in turn (a computed word may be any).
func wordsInOrder(s *segment, steps [][]string) bool {
	next := 0
	for _, w := range s.words[1:] {
		if next == len(steps) {
			break
		}
		if strings.HasPrefix(w.s, "-") && !w.dynamic {
			continue
		}
		if w.dynamic || slices.Contains(steps[next], strings.ToLower(w.s)) {
			next++
		}
	}
	return len(steps) > 0 && next == len(steps)
}
