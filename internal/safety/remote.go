package safety

import (
	"encoding/csv"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Commands that run elsewhere — on another host, in a container or a pod — are judged as the
// commands they are: what they print comes back to the agent, and the credentials there (a pod's
// ServiceAccount token, the remote home's ~/.aws) are the ones the path policy protects here.

// sshValueShorts are ssh's options that take a value; the first other word is the host, and the
// words after it are the remote command.
const sshValueShorts = "BbcDEeFIiJLlmOoPpQRSWw"

// dockerExecValues are docker exec's options that take a value (-w is the command's directory).
var dockerExecValues = map[string]bool{"-e": true, optEnv: true, optEnvFile: true, "-u": true, "--user": true,
	"-w": true, optWorkdir: true, "--detach-keys": true}

// remoteCommand analyses the command a segment runs elsewhere: ssh's remote command (a script
// for the remote login shell, from the remote home), the command after "--" of kubectl/oc
// exec, run and debug, and docker/podman/nerdctl exec's (in the container, from a directory the
// engine does not know unless -w names it); and the host paths a new container mounts. What the
// segment is fed on standard input (redirs, its pipe) is the remote command's standard input.
func (a *analyzer) remoteCommand(idx int, redirs []*syntax.Redirect, depth int) {
	seg := a.out.segments[idx]
	saved, from := a.cwd, len(a.out.segments)
	defer func() {
		a.cwd = saved
		if to := len(a.out.segments); to > from {
			a.out.elsewhere = append(a.out.elsewhere, [2]int{from, to})
		}
	}()
	switch seg.name {
	case cmdSSH:
		a.cwd = "~"
		cmd, flags := sshParse(seg.words)
		if strings.ContainsAny(flags, "nf") {
			redirs, seg.pipeFrom = nil, nil // -n (and -f) read /dev/null, not what ssh is fed
		}
		defer a.feeding(&seg, redirs)()
		a.sshRemote(&seg, cmd, flags, depth)
	case cmdKubectl, cmdOC:
		a.cwd = cwdUnknown
		defer a.feeding(&seg, redirs)()
		a.podCommand(&seg, depth)
	case cmdGcloud, cmdFly, cmdFlyctl, "az", "gh", "devpod":
		a.cloudSSHCommand(&seg, redirs, depth)
	case "flatpak":
		a.flatpakRun(&seg, depth)
	case cmdAnsible:
		a.ansibleAdHoc(idx, depth)
	case cmdAnsiblePlaybook:
		a.ansiblePlaybook(idx)
	case cmdDockerCompose, cmdPodmanCompose:
		a.containerMounts(&seg)
		a.composeCommand(&seg, redirs, depth)
	case cmdDocker, cmdPodman, cmdNerdctl:
		if containerVerb(&seg) != subExec {
			a.containerMounts(&seg)
			a.composeCommand(&seg, redirs, depth)
			a.containerRunCommand(&seg, redirs, depth)
			return
		}
		// From the verb: a global option's value may be spelled like it (docker -c exec exec web env).
		k := operandAt(seg.words, valueOptions[seg.name], 0)
		if k < len(seg.words) && seg.words[k].s == subContainer {
			k++
		}
		if k >= len(seg.words) {
			return
		}
		if cmd, dir := containerExecCommand(seg.words[k-1:], subExec, dockerExecValues); len(cmd) > 0 {
			a.cwd = cwdUnknown
			if dir != nil {
				a.cwd = "/"
				a.chdir(*dir)
			}
			defer a.feeding(&seg, redirs)()
			a.command(cmd, nil, nil, depth+1)
		}
	}
}

// composeValues are docker compose exec's and run's options that take a value (-w is the
// command's directory).
var composeValues = map[string]bool{}

// subCompose is docker's (podman's, nerdctl's) compose subcommand; subContainer the one before
// the verbs it also has (docker container exec).
const (
	subCompose   = "compose"
	subContainer = "container"
)

func init() {
	for _, o := range append(strings.Fields("--env-from-file --index -l --label --name -p --publish -v --volume --entrypoint --cap-add --cap-drop --pull"), slices.Collect(maps.Keys(dockerExecValues))...) {
		composeValues[o] = true
	}
}

// composeCommand analyses the command docker compose (docker-compose, podman compose) exec and
// run run in a service's container, as docker exec's is: the service's environment is compose's,
// with what the project's .env and env_file set, so compose exec web env prints them. A service
// is the project's, most often with the project mounted where it starts: its relative paths are
// read from the directory compose runs in (a docker exec's container is anyone's: unknown).
func (a *analyzer) composeCommand(seg *segment, redirs []*syntax.Redirect, depth int) {
	words := seg.words
	verbAt := composeVerbAt(seg)
	if verbAt < 0 {
		return
	}
	// From the verb on: an option's value before it may be spelled like it (compose -p run run).
	cmd, dir := containerExecCommand(words[verbAt-1:], words[verbAt].s, composeValues)
	if ep, ok := composeEntrypoint(words[verbAt+1:], composeValues); ok && words[verbAt].s == subRun {
		// run --entrypoint X replaces the image's program: X, with the words after the service
		// as its arguments, is what runs (--entrypoint env web prints the service's environment).
		cmd = append(ep, cmd...)
	}
	if len(cmd) == 0 {
		return
	}
	if dir != nil {
		a.cwd = "/"
		a.chdir(*dir)
	}
	defer a.feeding(seg, redirs)()
	a.command(cmd, nil, nil, depth+1)
}

// composeVerbAt returns the index in seg's words of compose's exec or run verb (docker compose,
// docker-compose, podman compose), after compose's own options, or -1.
func composeVerbAt(seg *segment) int {
	words := seg.words
	at := 0 // compose's own options follow words[at]
	if seg.name != cmdDockerCompose && seg.name != cmdPodmanCompose {
		if at = composeAt(seg); at < 0 {
			return -1
		}
	}
	for i := at + 1; i < len(words); i++ {
		switch v := words[i].s; {
		case words[i].dynamic:
			return -1
		case len(v) > 1 && v[0] == '-':
			if takesNextWord(v, composeValueOptions) {
				i++
			}
		case v == subExec || v == subRun:
			return i
		default:
			return -1
		}
	}
	return -1
}

// composeAt returns the index of docker's (podman's, nerdctl's) compose subcommand in seg's words,
// or -1. Its global options that take a value are skipped (docker --context x compose); after one
// the engine does not know, which may have taken the first operand as its value, compose may be
// the second operand.
func composeAt(seg *segment) int {
	values := valueOptions[seg.name]
	k := operandAt(seg.words, values, 0)
	if k < len(seg.words) && seg.words[k].s == subCompose {
		return k
	}
	if k2 := operandAt(seg.words, values, 1); k > 1 && k2 < len(seg.words) && seg.words[k2].s == subCompose {
		return k2
	}
	return -1
}

// operandAt returns the index in words of the n-th word (from 0) after the program that is neither
// an option nor the value of one of valued, or len(words).
func operandAt(words []word, valued []string, n int) int {
	for i := 1; i < len(words); i++ {
		switch v := words[i].s; {
		case len(v) > 1 && v[0] == '-' && !words[i].dynamic:
			if takesNextWord(v, valued) {
				i++
			}
		case n == 0:
			return i
		default:
			n--
		}
	}
	return len(words)
}

// composeEntrypoint returns the program compose run's --entrypoint (the last one, among the
// options before the service; values: its options that take a value) gives, split at blanks as compose splits it; quotes the engine
// does not undo, or a value computed at run time, make it a program the engine cannot name. An
// empty one is the image's: none (false).
func composeEntrypoint(opts []word, values map[string]bool) (ep []word, ok bool) {
	for i := 0; i < len(opts); i++ {
		w := opts[i]
		name, val, hasVal := strings.Cut(w.s, "=")
		if !strings.HasPrefix(name, "-") {
			break // the service
		}
		if values[name] && !hasVal && i+1 < len(opts) {
			i++
			w, val = opts[i], opts[i].s
		}
		if name != "--entrypoint" {
			continue
		}
		fields, known := xargsSplit([]string{val})
		switch {
		case w.dynamic || !known:
			ep, ok = []word{w.with(val)}, true
			ep[0].dynamic = true
		case len(fields) == 0:
			ep, ok = nil, false
		default:
			ep, ok = nil, true
			for _, f := range fields {
				ep = append(ep, w.with(f))
			}
		}
	}
	return ep, ok
}

// stdinFeed is what feeds a command that runs elsewhere: the redirects of its ssh (or kubectl
// exec -i) that feed standard input, and the pipeline stages before it. The remote command gets
// both from the feed alone (command), not the pipe a second way.
type stdinFeed struct {
	redirs   []*syntax.Redirect
	pipeFrom []int
}

// feeding makes what seg is fed the feed of the commands analysed until the returned function
// runs: "ssh host bash < x.sh" runs x.sh there, as "bash < x.sh" does here, and a here-document
// fed to ssh is the script of the shell that reads it.
func (a *analyzer) feeding(seg *segment, redirs []*syntax.Redirect) func() {
	saved := a.feed
	a.feed = nil
	var in []*syntax.Redirect
	for _, r := range redirs {
		if readsStdin(r) && (r.Word == nil || r.Word.Lit() != "/dev/null") {
			in = append(in, r)
		}
	}
	if len(in) > 0 || len(seg.pipeFrom) > 0 {
		a.feed = &stdinFeed{redirs: in, pipeFrom: seg.pipeFrom}
	}
	return func() { a.feed = saved }
}

// loginShell stands for the shell that runs what it is fed when ssh or oc rsh is given no
// command: the remote login shell.
func (a *analyzer) loginShell(depth int) {
	if a.feed != nil {
		a.command([]word{{s: "sh"}}, nil, nil, depth+1)
	}
}

// sshRemote analyses ssh's remote command and -o RemoteCommand=CMD (or "RemoteCommand CMD"), which
// runs there as the command would.
func (a *analyzer) sshRemote(seg *segment, cmd []word, flags string, depth int) {
	if len(cmd) > 0 {
		a.script(joinWords(cmd), depth+1)
	} else if !strings.ContainsAny(flags, "NWO") {
		// -N forwards ports only, -W forwards its input to a host's port, -O talks to a control
		// master: otherwise the remote login shell reads what ssh is fed.
		a.loginShell(depth)
	}
	for _, w := range seg.words[1:] {
		opt := strings.TrimSpace(strings.TrimPrefix(w.s, "-o"))
		k, v, ok := strings.Cut(opt, "=")
		if !ok {
			k, v, ok = strings.Cut(opt, " ")
		}
		if ok && strings.EqualFold(strings.TrimSpace(k), "remotecommand") {
			a.script(v, depth+1)
		}
	}
}

// podCommand analyses the command kubectl/oc exec, run and debug run after "--", and oc rsh's
// (which takes none) after the pod.
func (a *analyzer) podCommand(seg *segment, depth int) {
	if len(seg.operands) == 0 {
		return
	}
	if seg.name == cmdOC && seg.operands[0].s == "rsh" {
		if cmd, _ := containerExecCommand(seg.words, "rsh", ocRshValues); len(cmd) > 0 {
			a.command(cmd, nil, nil, depth+1)
		} else {
			a.loginShell(depth)
		}
		return
	}
	if !podCommandVerbs[seg.operands[0].s] {
		return
	}
	for i, w := range seg.words {
		if w.s == "--" && !w.dynamic && i+1 < len(seg.words) {
			a.command(seg.words[i+1:], nil, nil, depth+1)
			return
		}
	}
	if seg.operands[0].s == subExec && len(seg.operands) > 2 {
		// kubectl exec POD CMD, the form before "--": older kubectl runs CMD.
		a.command(seg.operands[2:], nil, nil, depth+1)
	}
}

// subDebug is kubectl debug, and ltrace's --debug.
const subDebug = "debug"

// podCommandVerbs are kubectl's verbs that run the command after "--" in a pod.
var podCommandVerbs = map[string]bool{subExec: true, subRun: true, subDebug: true}

// sshParse returns the words of ssh's remote command, after the options (getopt bundles, a value
// letter taking the rest of the word or the next one) and the host, and the option letters given
// (not their values: "-lNadia" is -l, not -N). Options after the host are ssh's too, as OpenSSH
// reorders them, until the first other word.
func sshParse(words []word) (cmd []word, flags string) {
	host := false
	for i := 1; i < len(words); i++ {
		v := words[i].s
		switch {
		case v == "--" && !words[i].dynamic && !host:
			if i+1 < len(words) {
				return words[i+2:], flags // the host, then the command
			}
			return nil, flags
		case len(v) > 1 && v[0] == '-' && !words[i].dynamic:
			for k := 1; k < len(v); k++ {
				flags += v[k : k+1]
				if strings.IndexByte(sshValueShorts, v[k]) >= 0 {
					if k == len(v)-1 {
						i++
					}
					break
				}
			}
		case !host:
			host = true
		default:
			return words[i:], flags
		}
	}
	return nil, flags
}

// ocRshValues are oc rsh's options that take a value.
var ocRshValues = map[string]bool{"-c": true, "--container": true, "--shell": true, "-f": true, optFilename: true, "--timeout": true}

// containerExecCommand returns the command of docker exec (or oc rsh: verb), after the verb's
// options (values: those that take a value) and the container, and the directory -w/--workdir
// gives it, if any.
func containerExecCommand(words []word, verb string, values map[string]bool) (cmd []word, dir *word) {
	i := 1
	for i < len(words) && words[i].s != verb {
		i++
	}
	container := false
	for i++; i < len(words); i++ {
		w := words[i]
		name, val, hasVal := containerOption(w.s, values)
		switch {
		case container:
			return words[i:], dir
		case w.s == "--" && !w.dynamic:
		case strings.HasPrefix(w.s, "-") && !w.dynamic:
			if values[name] && !hasVal && i+1 < len(words) {
				i++
				val = words[i].s
				w = words[i]
			}
			if name == "-w" || name == "--workdir" {
				d := w.with(val)
				dir = &d
			}
		default:
			container = true
		}
	}
	return nil, dir
}

// remoteOperands turns HOST:PATH operands of copying commands into the paths they name there, so
// the path policy judges them as it judges local ones: scp's and rsync's remote paths below the
// remote home ("h:.ssh/id_rsa" is ~/.ssh/id_rsa, "h:/etc/shadow" /etc/shadow), docker cp's below
// the container's root, kubectl cp's below the pod's unknown working directory. An rsync daemon
// module (h::mod/p, rsync://h/mod/p) maps anywhere: unknown. cp reads "h:x" as a local name, but
// judging it as a remote path too only refuses more.
func remoteOperands(seg *segment, ops []word) []word {
	base := ""
	switch {
	case seg.name == cmdScp || seg.name == cmdRsync || seg.name == "cp" || seg.name == cmdSFTP:
		base = "~/"
	case !containerCopy(seg):
		return ops
	case seg.name != cmdKubectl && seg.name != cmdOC:
		base = "/" // a container's root; a pod's working directory is not known
	}
	var out []word
	for i, w := range ops {
		r, ok := remotePath(w, base)
		if !ok {
			continue
		}
		if out == nil {
			out = append([]word(nil), ops...)
		}
		out[i] = r
	}
	if out == nil {
		return ops
	}
	return out
}

// remotePath returns the path a HOST:PATH word names on the host, below base when relative ("":
// a directory the engine does not know). ok is false for a word that is not remote: no colon, or
// a slash before it (scp's rule: "./a:b" is local).
func remotePath(w word, base string) (word, bool) {
	s := w.s
	if strings.HasPrefix(strings.ToLower(s), "rsync://") {
		return word{s: placeholderCmdSubst, dynamic: true}, true
	}
	i := strings.IndexByte(s, ':')
	if i <= 0 || strings.ContainsRune(s[:i], '/') {
		return w, false
	}
	rest := s[i+1:]
	switch {
	case strings.HasPrefix(rest, ":"):
		return word{s: placeholderCmdSubst, dynamic: true}, true
	case strings.HasPrefix(rest, "/"), strings.HasPrefix(rest, "~"):
		return w.with(rest), true
	case base == "":
		return word{s: placeholderCmdSubst + "/" + rest, dynamic: true}, true
	}
	return w.with(base + rest), true
}

// containerMounts records the host paths a container CLI mounts: docker/podman/nerdctl run and
// create's -v/--volume SRC:DST and --mount source=SRC (or src=), docker service create's --mount
// and service update's --mount-add, and the host path a local volume binds (volume create -o
// device=PATH), which a later "-v NAME:/h" mounts by name. The container reads everything below
// the source and, unless the mount is read-only, writes there: "-v /:/host" reads /etc/shadow,
// "-v ~/.aws:/a" the credentials. A named volume (no slash) is not a host path.
func (a *analyzer) containerMounts(seg *segment) {
	if createsVolume(seg) {
		devs, ro := volumeDevice(seg)
		for _, dev := range devs {
			a.mountHost(dev, ro)
		}
		return
	}
	if buildsImage(seg) {
		a.buildReads(seg)
		return
	}
	if savesImage(seg) {
		a.imageOutputs(seg)
		return
	}
	if !runsContainer(seg) && !makesPod(seg) && !composeRun(seg) {
		return
	}
	words := seg.words
	for i := 1; i < len(words); i++ {
		spec, isMount, next, ok := mountSpec(words, i)
		i = next
		if !ok {
			continue
		}
		src, ro, device := volumeSource(spec.s, isMount)
		if src == "" {
			continue
		}
		a.mountHost(spec.with(src), ro)
		if device && !strings.ContainsAny(src[:1], "/~$:") {
			// A relative device is read from dockerd's working directory, "/", too.
			a.mountHost(spec.with("/"+src), ro)
		}
	}
}

// mountHost records a host path a container mounts: everything below it is read, and written
// unless the mount is read-only.
func (a *analyzer) mountHost(src word, ro bool) {
	a.recursive = true
	a.touch(src, opRead)
	a.recursive = false
	if !ro {
		a.touch(src, opWrite)
	}
}

// createsVolume reports whether a segment is [docker|podman|nerdctl] volume create.
func createsVolume(seg *segment) bool {
	ops := seg.operands
	return len(ops) > 1 && ops[0].s == "volume" && ops[1].s == subCreate
}

// volumeDevice reads volume create's driver options (-o KEY=VALUE, -oKEY=VALUE, --opt KEY=VALUE,
// --opt=KEY=VALUE): the device a local volume mounts when it is a path (type=none with o=bind
// binds a host directory; a device such as /dev/sda1 is the host's disk; an NFS ":/export" is
// not on this host), and whether its mount options say ro.
//
// A bind's device without a slash ("device=etc") is a path too, relative to the directory of the
// process that mounts it: dockerd's, which is "/", or podman's, the command's. It is read as both.
func volumeDevice(seg *segment) (dev []word, ro bool) {
	var device word
	bind, hasDevice := false, false
	for opt := range optionValues(seg, "-o", "--opt") {
		// pflag reads "-o=device=/" as "-o device=/".
		k, v, _ := strings.Cut(strings.TrimPrefix(opt.s, "="), "=")
		switch strings.ToLower(k) {
		case mountDevice:
			device, hasDevice = opt.with(v), true
		case "o":
			for o := range strings.SplitSeq(v, ",") {
				ro = ro || o == "ro"
				bind = bind || o == mountBind || o == "rbind"
			}
		}
	}
	switch v := device.s; {
	case !hasDevice || v == "" || strings.HasPrefix(v, ":"):
		return nil, ro
	case strings.ContainsAny(v, "/~$"):
		return []word{device}, ro
	case bind:
		return []word{device, device.with("/" + v)}, ro
	}
	return nil, ro
}

// containerVerb is a container CLI's verb, also when spelled "container VERB" (docker container
// exec, podman container cp).
func containerVerb(seg *segment) string {
	ops := seg.operands
	if len(ops) > 1 && ops[0].s == "container" {
		return ops[1].s
	}
	if len(ops) > 0 {
		return ops[0].s
	}
	return ""
}

// containerCopy says whether a segment copies into or out of a pod or container: kubectl, oc,
// docker, podman or nerdctl [container] cp.
func containerCopy(seg *segment) bool {
	switch seg.name {
	case cmdKubectl, cmdOC, cmdDocker, cmdPodman, cmdNerdctl:
		return containerVerb(seg) == subCp
	}
	return false
}

// runsContainer reports whether a docker/podman/nerdctl command makes a container: run, create,
// container run|create, and docker service create|update (a swarm service's tasks mount too).
func runsContainer(seg *segment) bool {
	if ops := seg.operands; len(ops) > 1 && ops[0].s == "service" {
		return ops[1].s == subCreate || ops[1].s == "update"
	}
	v := containerVerb(seg)
	return v == subRun || v == subCreate
}

// mountSpec reads the mount option at words[i], if it is one (-v SPEC, -vSPEC, --volume=SPEC,
// --mount SPEC), returning its spec, whether it is --mount's key=value form, and the index of its
// last word.
func mountSpec(words []word, i int) (spec word, isMount bool, last int, ok bool) {
	w := words[i]
	if w.dynamic && strings.HasPrefix(w.s, "$") {
		return word{}, false, i, false // a computed word: docker's operands are read as paths, which asks for it
	}
	name, val, hasVal := strings.Cut(w.s, "=")
	isMount = name == "--mount" || name == "--mount-add" // docker service create --mount, service update --mount-add
	switch {
	case name == "-v" || name == "--volume" || isMount:
		if hasVal {
			return w.with(val), isMount, i, true
		}
		if i+1 >= len(words) {
			return word{}, false, i, false
		}
		return words[i+1], isMount, i + 1, true
	case len(w.s) > 2 && w.s[0] == '-' && w.s[1] != '-':
		// A short bundle: -vSPEC, -itv SPEC, -itvSPEC (docker run's flags without a value first).
		for k := 1; k < len(w.s); k++ {
			switch c := w.s[k]; {
			case c == 'v' && k+1 < len(w.s):
				return w.with(strings.TrimPrefix(w.s[k+1:], "=")), false, i, true // pflag reads -itv=/:/h as -itv /:/h
			case c == 'v' && i+1 < len(words):
				return words[i+1], false, i + 1, true
			case !strings.ContainsRune(dockerRunBooleans, rune(c)):
				return word{}, false, i, false
			}
		}
	}
	return word{}, false, i, false
}

// mountBind is the bind mount type and mount option; mountDevice the volume option that names
// what a volume mounts (and buildah run's option that adds a host device).
const (
	mountBind   = "bind"
	mountDevice = "device"
)

// dockerRunBooleans are docker run's short options that take no value, so a bundle may go on to -v.
const dockerRunBooleans = "ditPq"

// mountSource reads a --mount spec: its host path, whether it is read-only, and whether it mounts
// a host path at all (a bind, or a volume the local driver binds to one with volume-opt=device).
//
//nolint:goconst // --mount's keys read best literally
func mountSource(spec string) (src string, ro, host, isDevice bool) {
	// docker reads --mount as one CSV record: a field may be quoted ("src=/a,b").
	fields, err := csv.NewReader(strings.NewReader(spec)).Read()
	if err != nil {
		fields = strings.Split(spec, ",")
	}
	bind, bindOpt, device := false, false, ""
	for _, f := range fields {
		k, v, _ := strings.Cut(f, "=")
		switch strings.ToLower(k) {
		case "source", "src":
			src = v
		case "readonly", "ro":
			ro = v == "" || v == "true" || v == "1"
		case "type":
			// podman's type=glob binds every host file its source matches.
			bind = strings.EqualFold(v, "bind") || strings.EqualFold(v, "glob")
		case "volume-opt":
			o, val, _ := strings.Cut(v, "=")
			switch strings.ToLower(o) {
			case mountDevice:
				device = val
			case "o":
				for opt := range strings.SplitSeq(val, ",") {
					bindOpt = bindOpt || opt == "bind" || opt == "rbind"
				}
			}
		}
	}
	// A device is a host path when it looks like one, or when the local driver binds it.
	if device != "" && (strings.ContainsAny(device, "/~$") || bindOpt) {
		return device, ro, true, true
	}
	return src, ro, bind, false
}

// volumeSource is the host path of a -v or --mount spec and whether it is mounted read-only; ""
// for a named volume or a mount of another type.
//
// A --mount bind's source, or a device the local driver binds, is a path even without a slash
// ("src=etc" from the working directory; device reports the latter, which dockerd reads).
func volumeSource(spec string, mount bool) (src string, ro, device bool) {
	if mount {
		var ok bool
		if src, ro, ok, device = mountSource(spec); !ok || src == "" {
			return "", false, false
		}
		return src, ro, device
	}
	parts := strings.Split(spec, ":")
	src = parts[0]
	if len(parts) > 2 {
		for o := range strings.SplitSeq(parts[len(parts)-1], ",") {
			ro = ro || o == "ro" || o == "readonly"
		}
	}
	if !strings.ContainsAny(src, "/~$") && !strings.HasPrefix(src, ".") {
		// A named volume. podman reads a source that starts with "." as a path (-v .env:/x); docker
		// names no volume so.
		return "", false, false
	}
	return src, ro, false
}
