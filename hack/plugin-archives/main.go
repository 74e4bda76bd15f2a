// Command plugin-archives builds the kubectl plugin's release archives (`make plugin-archives`):
// for each platform the krew manifest (plugins/toolgate.yaml) installs, the static binary and the
// repository's LICENSE at the root of kubectl-toolgate_<version>_<os>_<arch>.tar.gz in --out, with a sha256 line per
// archive in SHA256SUMS. Upload them to the release the version tags; krew-release-bot then
// renders the manifest with their URLs and checksums.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/internal/image"
)

// platforms are the manifest's: no Windows, the ledger reader locks with flock(2).
var platforms = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64"}

func main() {
	version := flag.String("version", "", "The release tag, e.g. v0.1.0 (stamped into the plugin, names the archives).")
	out := flag.String("out", "bin/release", "Directory for the archives and SHA256SUMS.")
	flag.Parse()
	if !strings.HasPrefix(*version, "v") {
		fmt.Fprintf(os.Stderr, "plugin-archives: --version %q: want a release tag such as v0.1.0 (krew wants semver)\n",
			*version)
		os.Exit(2)
	}
	var sums strings.Builder
	for _, p := range platforms {
		goos, arch, _ := strings.Cut(p, "/")
		path, sum, err := image.Archive(context.Background(), image.Spec{Package: "./cmd/kubectl-toolgate", Dir: ".",
			Binary: "kubectl-toolgate", Version: *version, Arch: arch}, goos, *out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "plugin-archives:", err)
			os.Exit(1)
		}
		fmt.Printf("%s  %s\n", sum, path)
		fmt.Fprintf(&sums, "%s  %s\n", sum, filepath.Base(path))
	}
	sumsFile := filepath.Join(*out, "SHA256SUMS")
	if err := os.WriteFile(sumsFile, []byte(sums.String()), 0o644); err != nil { //nolint:gosec // public checksums
		fmt.Fprintln(os.Stderr, "plugin-archives:", err)
		os.Exit(1)
	}
}
