package image

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/testenv"
)

// Issue 18: "The Dockerfile stays for users who have Docker and builds the same thing" as
// `make image`. `make image` stamps VERSION into the binary and labels the image with its
// version, source and revision; `make docker-build` passes no VERSION (the Dockerfile's ARG
// defaults to "dev", so `manager --version` in a Docker-built image says dev whatever the
// release) and the Dockerfile sets none of the labels, so the two builds of one release differ in
// what the binary reports and in the metadata registries and scanners read.
func TestDockerBuildStampsWhatMakeImageStamps(t *testing.T) {
	read := func(name string) string {
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
