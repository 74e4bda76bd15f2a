package safety

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A new container (docker, podman or nerdctl run and create) runs its image's programs in a root
// of its own: what its command prints or changes there is the image's, not the host's, so
// "docker run --rm alpine env" prints the image's variables and stays admitted. The host reaches
// it only through what the options bring in. Paths it mounts are judged where containerMounts
// reads them, the powers that escape it by container-privileged; this file judges the host's
// environment. "-e NAME" and "--env NAME" without a value copy the host's variable NAME into the
// container (docker, podman and nerdctl read it from their own environment, which is the
// agent's), podman's --env-host copies all of them and its "-e 'PREFIX*'" all that match, and
// --env-file loads a file's: a container so made holds host values, and its command is judged
// as a host command is, as compose run's is (docker run -e DB_URL img env prints DB_URL). A
// credential's variable copied in is asked for whatever the command (container-host-secret):
// the image's own program may print or send it, as any program given the value may.

// optEnv and optEnvFile are the options of docker, podman and compose that set a variable (or
// copy the host's) and load variables from a file.
const (
	optEnv     = "--env"
	optEnvFile = "--env-file"
)

// containerRunValues are the options of docker's, podman's and nerdctl's run and create (and of
// exec, compose run and compose exec) that take a value: the first other word is the image
// (the container, the service), and the words after it are its command.
var containerRunValues = map[string]bool{}

func init() {
	for o := range strings.FieldsSeq(`-a --attach --add-host --annotation --blkio-weight --blkio-weight-device --cap-add
		--cap-drop --cgroup-parent --cgroupns --cidfile --cpu-count --cpu-percent --cpu-period --cpu-quota --cpu-rt-period
		--cpu-rt-runtime -c --cpu-shares --cpus --cpuset-cpus --cpuset-mems --detach-keys --device --device-cgroup-rule
		--device-read-bps --device-read-iops --device-write-bps --device-write-iops --dns --dns-opt --dns-option --dns-search
		--domainname --entrypoint -e --env --env-file --env-from-file --expose --gpus --group-add --health-cmd --health-interval
		--health-retries --health-start-period --health-start-interval --health-timeout -h --hostname --index --ip --ip6
		--ipc --isolation --kernel-memory -l --label --label-file --link --link-local-ip --log-driver --log-opt --mac-address
		-m --memory --memory-reservation --memory-swap --memory-swappiness --mount --name --network --net --network-alias
		--oom-score-adj --pid --pids-limit --platform -p --publish --pull --restart --runtime --security-opt --shm-size
		--stop-signal --stop-timeout --storage-opt --sysctl --tmpfs --ulimit -u --user --userns --uts -v --volume
		--volume-driver --volumes-from -w --workdir --arch --authfile --cgroup-conf --cgroups --chrootdirs --conmon-pidfile
		--creds --decryption-key --env-merge --gidmap --group-entry --health-on-failure --health-startup-cmd
		--health-startup-interval --health-startup-retries --health-startup-success --health-startup-timeout
		--health-log-destination --health-max-log-count --health-max-log-size --hostuser --hosts-file --image-volume
		--init-path --os --passwd-entry --personality --pidfile --pod --pod-id-file --preserve-fds --rdt-class --requires
		--retry --retry-delay --sdnotify --seccomp-policy --secret --shm-size-systemd --subgidname --subuidname --systemd
		--timeout --tz --uidmap --umask --unsetenv --variant --cosign-key --verify --ipfs-address`) {
		containerRunValues[o] = true
	}
}

// containerOption splits one option word of a container CLI's verb into its name and attached
// value, as docker's flag parser reads it (values: the verb's options that take one):
// --name=value, -eNAME, -e=NAME, -ite (a bundle ending in a letter that takes a value: its
// name, with the value in the next word).
func containerOption(v string, values map[string]bool) (name, val string, hasVal bool) {
	if strings.HasPrefix(v, "--") {
		return strings.Cut(v, "=")
	}
	for k := 1; k < len(v); k++ {
		if o := "-" + v[k:k+1]; values[o] {
			if k == len(v)-1 {
				return o, "", false
			}
			return o, strings.TrimPrefix(v[k+1:], "="), true
		}
	}
	return v, "", false
}

// loadsHostEnv says whether a docker, podman or nerdctl run or create loads variables by names
// the command line does not show (--env-file, podman's --env-host or -e 'PREFIX*'): any
// variable its shell script expands may be one of them (print-environment-loaded), as under a
// secret loader.
func loadsHostEnv(s *segment) bool {
	k := containerVerbAt(s)
	if k < 0 || s.words[k].s == subExec || composeAt(s) >= 0 {
		return false
	}
	return hostEnvIn(s.words[k+1:]).unnamed
}

// hostEnv is what the options of a container's run, create or exec bring in of the host's
// environment: passes, a variable or a file of them; secret, a variable named like a credential,
// all of them (podman --env-host), a prefix's (-e 'GITHUB*'), or a name the engine cannot read;
// unnamed, variables by names the command line does not show (a file's, all, a prefix's).
type hostEnv struct{ passes, secret, unnamed bool }

// variable reads one -e or --env value (w holds it): NAME=VALUE is a value of the command's,
// judged where it is written; NAME alone copies the host's NAME, PREFIX* every one it matches.
func (h *hostEnv) variable(w word, val string) {
	varName, _, assigned := strings.Cut(val, "=")
	computed := strings.ContainsAny(varName, "$`*")
	if assigned && !computed {
		return
	}
	named := credentialName.MatchString(varName) && !credentialPointer.MatchString("$"+varName) // not GITHUB_TOKEN_FILE
	h.passes = true
	h.secret = h.secret || w.dynamic || computed || named
	h.unnamed = h.unnamed || strings.Contains(varName, "*")
}

// hostEnvIn reads the options of a container's run, create or exec (opts: the words after the
// verb, up to the image, container or service) for what they bring in of the host's environment.
func hostEnvIn(opts []word) hostEnv {
	var h hostEnv
	for i := 0; i < len(opts); i++ {
		w := opts[i]
		if len(w.s) < 2 || w.s[0] != '-' || w.s == "--" {
			return h // the image: its command's words are not these options
		}
		name, val, hasVal := containerOption(w.s, containerRunValues)
		if !hasVal && containerRunValues[name] && i+1 < len(opts) {
			i++
			w, val = opts[i], opts[i].s
		}
		switch name {
		case "-e", optEnv:
			h.variable(w, val)
		case optEnvFile, "--env-from-file":
			h.passes, h.unnamed = true, true
		case "--env-host":
			if on, err := strconv.ParseBool(val); !hasVal || err == nil && on {
				h.passes, h.secret, h.unnamed = true, true, true
			}
		}
	}
	return h
}

// containerVerbAt returns the index in seg's words of the verb of a docker, podman or nerdctl
// command that makes or enters a container and takes -e (run, create, exec, also after
// "container"; compose's run and exec), or -1.
func containerVerbAt(seg *segment) int {
	switch seg.name {
	case cmdDockerCompose, cmdPodmanCompose:
		return composeVerbAt(seg)
	case cmdDocker, cmdPodman, cmdNerdctl:
	default:
		return -1
	}
	k := operandAt(seg.words, valueOptions[seg.name], 0)
	if k < len(seg.words) && seg.words[k].s == subContainer {
		k++
	}
	if k >= len(seg.words) {
		return -1
	}
	switch seg.words[k].s {
	case subRun, subCreate, subExec:
		return k
	case subCompose:
		return composeVerbAt(seg)
	}
	return -1
}

// takesHostSecret is container-host-secret's check: a container is made or entered with a host
// variable named like a credential, all the host's variables, or a name computed at run time; an
// image build is given one as a build argument (--build-arg NAME copies the host's NAME); podman
// secret create --env stores one for a later run --secret, whose image may print it.
func takesHostSecret(s *segment) bool {
	switch k := containerVerbAt(s); {
	case k >= 0:
		return hostEnvIn(s.words[k+1:]).secret
	case buildsImage(s) || s.name == cmdBuildah && len(s.operands) > 0 && slices.Contains(buildahBuilds, s.operands[0].s):
		return buildTakesHostSecret(s)
	}
	ops := s.operands
	return len(ops) > 2 && ops[0].s == "secret" && ops[1].s == subCreate && slices.ContainsFunc(s.words, func(w word) bool {
		return w.s == optEnv || w.s == "--env=true"
	})
}

// cmdBuildah builds images from a Dockerfile with its build verbs, as docker build does.
const cmdBuildah = "buildah"

var buildahBuilds = []string{subBuild, "bud", "build-using-dockerfile"}

// buildTakesHostSecret says whether an image build copies a host variable named like a credential
// (or by a computed name) with --build-arg NAME: the value is kept in the image's history
// (docker history prints it) and its RUN steps may print it. A build secret (--secret env=NAME)
// is the project's Dockerfile's to read, as the project's own build reads its variables, and is
// not asked for.
func buildTakesHostSecret(s *segment) bool {
	for v := range optionValues(s, "--build-arg", "--build-arg") {
		var h hostEnv
		if h.variable(v, v.s); h.secret {
			return true
		}
	}
	return false
}

// containerRunCommand analyses the command a new container runs (docker, podman or nerdctl run
// or create: --entrypoint's program, then the words after the image) when its options bring the
// host's environment in: there it prints or sends the host's values, as compose run's command
// does the project's. It runs from the directory -w names, or one the engine does not know.
func (a *analyzer) containerRunCommand(seg *segment, redirs []*syntax.Redirect, depth int) {
	k := containerVerbAt(seg)
	if k < 0 || seg.words[k].s == subExec || seg.name == cmdDockerCompose || seg.name == cmdPodmanCompose {
		return
	}
	if composeAt(seg) >= 0 {
		return // compose run: composeCommand analyses it
	}
	if !hostEnvIn(seg.words[k+1:]).passes {
		return
	}
	cmd, dir := containerExecCommand(seg.words[k-1:], seg.words[k].s, containerRunValues)
	if ep, ok := composeEntrypoint(seg.words[k+1:], containerRunValues); ok {
		cmd = append(ep, cmd...)
	}
	if len(cmd) == 0 {
		return
	}
	a.cwd = cwdUnknown
	if dir != nil {
		a.cwd = "/"
		a.chdir(*dir)
	}
	defer a.feeding(seg, redirs)()
	a.command(cmd, nil, nil, depth+1)
}
