package image

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgate/toolgate/internal/testenv"
)

// Issue 18: "The Dockerfile stays for users who have Docker and builds the same thing" as
// `make image`. `make image` stamps VERSION into the binary and labels the image with its
// version, source and revision; `make docker-build` passes no VERSION (the Dockerfile's ARG
// defaults to "dev", so `manager --version` in a Docker-built image says dev whatever the
// release) and the Dockerfile sets none of the labels, so the two builds of one release differ in
// what the binary reports and in the metadata registries and scanners read.
func TestDockerBuildStampsWhatMakeImageStamps(t *testing.T) {
	read := func(name string) string { return readRepoFile(t, name) }
	makefile := read("Makefile")
	recipe := regexp.MustCompile(`(?m)^docker-build:.*\n((?:\t.*\n)+)`).FindStringSubmatch(makefile)
	if recipe == nil {
		t.Fatal("no docker-build target in the Makefile")
	}
	if !strings.Contains(recipe[1], "VERSION") {
		t.Errorf("make docker-build passes no VERSION build argument, so the Docker-built manager reports %q:\n%s", "dev", recipe[1])
	}
	dockerfile := read("Dockerfile")
	for _, label := range []string{"org.opencontainers.image.version", "org.opencontainers.image.source", "org.opencontainers.image.revision"} {
		if !strings.Contains(dockerfile, label) {
			t.Errorf("the Dockerfile does not set the label %s that make image sets", label)
		}
	}
}

// The Dockerfile's labels are make image's, value for value (internal/image.Labels, the same
// title and source), with the version and revision from build arguments that its last stage
// declares (an ARG of the builder stage is empty in the next: the labels would be blank), and
// both docker targets pass those arguments.
func TestDockerfileLabelsAreMakeImages(t *testing.T) {
	read := func(name string) string { return readRepoFile(t, name) }
	dockerfile := strings.ReplaceAll(read("Dockerfile"), "\\\n", " ")
	stages := regexp.MustCompile(`(?m)^FROM `).Split(dockerfile, -1)
	last := stages[len(stages)-1]
	args := map[string]string{}
	labels := map[string]string{}
	for line := range strings.SplitSeq(last, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "ARG":
			name, _, _ := strings.Cut(fields[1], "=")
			args[name] = "<" + name + ">"
		case "LABEL":
			for _, m := range regexp.MustCompile(`([\w.]+)="([^"]*)"`).FindAllStringSubmatch(line, -1) {
				labels[m[1]] = os.Expand(m[2], func(v string) string { return args[v] })
			}
		}
	}
	want := Labels(Spec{Binary: "manager", Version: "<VERSION>", Source: Source, Revision: "<REVISION>"})
	if d := cmp.Diff(want, labels); d != "" {
		t.Errorf("the Dockerfile's labels, its last stage's build arguments as <NAME> (-make image's +Dockerfile's):\n%s", d)
	}
	makefile := read("Makefile")
	for _, target := range []string{"docker-build", "docker-buildx"} {
		recipe := regexp.MustCompile(`(?m)^` + target + `:.*\n((?:\t.*\n)+)`).FindStringSubmatch(makefile)
		if recipe == nil {
			t.Fatalf("no %s target in the Makefile", target)
		}
		for _, arg := range []string{"--build-arg VERSION=$(VERSION)", "--build-arg REVISION=$(REVISION)"} {
			if !strings.Contains(recipe[1], arg) {
				t.Errorf("make %s does not pass %s", target, arg)
			}
		}
	}
}

// readRepoFile is a file of the repository, by its path from the root.
func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	p, err := testenv.Path(name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
