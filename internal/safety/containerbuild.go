package safety

import "strings"

// optOutput is the long option of a file or directory a program writes (docker save, curl).
const optOutput = "--output"

// Container commands beyond run and create that read host paths: a pod's volumes (podman pod
// create -v), a compose service run with extra volumes (docker compose run -v, docker-compose
// run -v), and an image build, which sends its context directory — and every named context,
// secret file and SSH key — to the builder, where a Dockerfile's COPY puts it into an image the
// agent can then run and print.

// makesPod reports whether a segment is podman pod create, whose -v/--volume mount into every
// container of the pod.
func makesPod(seg *segment) bool {
	ops := seg.operands
	return len(ops) > 1 && ops[0].s == "pod" && ops[1].s == subCreate
}

// composeRun reports whether a segment is docker compose run (podman compose run) or
// docker-compose/podman-compose run, which take -v/--volume like docker run.
func composeRun(seg *segment) bool {
	ops := seg.operands
	switch seg.name {
	case cmdDockerCompose, cmdPodmanCompose:
		return len(ops) > 0 && ops[0].s == subRun
	}
	return len(ops) > 1 && ops[0].s == "compose" && ops[1].s == subRun
}

// buildsImage reports whether a segment builds an image: build, image build, buildx build
// (and its alias buildx b), builder build.
func buildsImage(seg *segment) bool {
	ops := seg.operands
	if len(ops) == 0 {
		return false
	}
	switch ops[0].s {
	case subBuild:
		return true
	case "image", "buildx", "builder":
		return len(ops) > 1 && (ops[1].s == subBuild || ops[0].s == "buildx" && ops[1].s == "b")
	}
	return false
}

// subBuild is the container CLIs' build verb.
const subBuild = "build"

// buildReads records what an image build reads from the host and writes: the context directory
// (an operand), each --build-context NAME=PATH, each --secret's src= file and each --ssh key file;
// its result and its id and metadata files. A context inside the working directory ("." or
// "docker/") is the project's, filtered by its .dockerignore, and is not judged; one outside it
// ("/", "~", "..", "/etc") is read recursively, like a mount.
func (a *analyzer) buildReads(seg *segment) {
	for _, w := range seg.operands {
		if w.s == "-" || strings.Contains(w.s, "://") || strings.HasPrefix(w.s, "git@") {
			continue
		}
		if isAbsOrHome(expandHome(w.s)) || climbs(w.s) || w.dynamic {
			a.mountHost(w, true)
		}
	}
	for v := range optionValues(seg, "--build-context", "--build-context") {
		if _, p, ok := strings.Cut(v.s, "="); ok && !strings.Contains(p, "://") {
			a.mountHost(v.with(p), true)
		}
	}
	a.buildFiles(seg)
	a.buildOutputs(seg)
}

// buildFiles records the files a build's secrets and SSH keys read: --secret id=X,src=FILE
// (source=), --ssh ID=FILE[,FILE].
func (a *analyzer) buildFiles(seg *segment) {
	for v := range optionValues(seg, "--secret", "--secret") {
		for f := range strings.SplitSeq(v.s, ",") {
			if k, p, _ := strings.Cut(f, "="); k == "src" || k == cmdSource {
				a.touch(v.with(p), opRead)
			}
		}
	}
	for v := range optionValues(seg, "--ssh", "--ssh") {
		if _, p, ok := strings.Cut(v.s, "="); ok {
			for f := range strings.SplitSeq(p, ",") {
				a.touch(v.with(f), opRead)
			}
		}
	}
}

// buildOutputs records what a build writes: its result (-o DIR, --output type=local,dest=DIR, a
// tar's dest) and the image id and metadata files.
func (a *analyzer) buildOutputs(seg *segment) {
	for v := range optionValues(seg, "-o", optOutput) {
		dest := v.s
		if strings.Contains(dest, "=") {
			dest = ""
			for f := range strings.SplitSeq(v.s, ",") {
				if k, p, _ := strings.Cut(f, "="); k == "dest" {
					dest = p
				}
			}
		}
		if dest != "" && dest != "-" {
			a.touch(v.with(dest), opWrite)
		}
	}
	for _, o := range []string{"--iidfile", "--metadata-file"} {
		for v := range optionValues(seg, o, o) {
			a.touch(v, opWrite)
		}
	}
}

// savesImage reports whether a segment writes an image or a container's file system to a file
// with -o/--output: save, image save, export, container export.
func savesImage(seg *segment) bool {
	switch containerVerb(seg) {
	case subSave, subExport:
		return true
	case "image":
		return len(seg.operands) > 1 && seg.operands[1].s == subSave
	}
	return false
}

// The container CLIs' verbs that write an image (save) or a container's file system (export) to
// a tar; save is also git stash's old spelling of push (readers.go).
const (
	subExport = "export"
	subSave   = "save"
)

// imageOutputs records the file save or export writes (-o FILE, --output=FILE, -oFILE).
func (a *analyzer) imageOutputs(seg *segment) {
	for v := range optionValues(seg, "-o", optOutput) {
		a.touch(v, opWrite)
	}
}
