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
// fly ssh console's -C/--command; and ssh's own arguments after "--" (gcloud compute ssh VM --
// env, az ssh vm -- env, gh codespace ssh -- env), read as ssh reads what follows its host.

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
	if k := slices.IndexFunc(seg.words, func(w word) bool { return w.s == "--" && !w.dynamic }); v.dashes && k > 0 {
		// ssh's arguments after the host: its options, then the remote command.
		var cmd []word
		cmd, flags = sshParse(append([]word{{s: cmdSSH}, {s: sshHostStandIn}}, seg.words[k+1:]...))
		if len(cmd) > 0 {
			a.script(joinWords(cmd), depth+1)
			ran = true
		}
	}
	if !ran && !strings.ContainsAny(flags, "NWOnf") {
		a.loginShell(depth) // the remote login shell reads what it is fed
	}
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
}

// cloudSSHVerbs are, per program, its ssh subcommands.
//
//nolint:goconst // subcommand spellings read best literally
var cloudSSHVerbs = map[string][]sshVerb{
	cmdGcloud: {{[]string{"compute", "ssh"}, optCommand, optCommand, true}, {[]string{"compute", "tpus", "tpu-vm", "ssh"}, optCommand, optCommand, true},
		{[]string{"cloud-shell", "ssh"}, optCommand, optCommand, true}, {[]string{"workstations", "ssh"}, optCommand, optCommand, true}},
	cmdFly:    {{[]string{"ssh", "console"}, "-C", optCommand, false}},
	cmdFlyctl: {{[]string{"ssh", "console"}, "-C", optCommand, false}},
	"az":      {{path: []string{"ssh", "vm"}, dashes: true}, {path: []string{"ssh", "arc"}, dashes: true}},
	"gh":      {{path: []string{"codespace", "ssh"}, dashes: true}, {path: []string{"cs", "ssh"}, dashes: true}},
}

// cloudSSH returns the ssh subcommand a cloud CLI's segment runs, if any.
func cloudSSH(seg *segment) (sshVerb, bool) {
	ops := seg.operands
	if seg.name == cmdGcloud && len(ops) > 0 && (ops[0].s == "alpha" || ops[0].s == "beta") {
		ops = ops[1:]
	}
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

// cloudRunVerbs are, per cloud CLI, the words that in this order run a script on cloud machines:
// a service or resource, then (for az) run-command, then the operation, each one of the words
// listed.
//
//nolint:goconst // subcommand spellings read best literally
var cloudRunVerbs = map[string][][]string{
	"aws": {{svcSSM}, {"send-command", "start-session", "start-automation-execution"}},
	"az":  {{"vm", "vmss", "connectedmachine"}, {"run-command"}, {"invoke", "create", "update"}},
}

// runsCloudCommand is cloud-run-command's check: aws ssm send-command (start-session,
// start-automation-execution), az vm|vmss|connectedmachine run-command invoke|create|update, their
// words found in order among the command's, past options and their values, as aws's prefixes of
// long options leave no other way to skip them; a computed word may be any of them. One pass.
func runsCloudCommand(s *segment) bool {
	steps := cloudRunVerbs[s.name]
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
