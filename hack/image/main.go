// Command image builds toolgate's manager image without a container engine (`make image`): an OCI
// image layout in bin/image/manager and a tarball bin/image/manager.tar for `docker load` or
// `crane push`, and, with --push, pushes it to a registry with the credentials docker and crane use.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"

	"github.com/toolgate/toolgate/internal/image"
)

func main() {
	ref := flag.String("image", "controller:latest", "Image reference to tag (and push with --push).")
	out := flag.String("out", "bin/image", "Directory for the OCI layout and the tarball.")
	arch := flag.String("arch", runtime.GOARCH, "Target architecture (linux/<arch>).")
	version := flag.String("version", "dev", "Version stamped into the binary and the image's labels.")
	push := flag.Bool("push", false, "Push to the registry named by --image.")
	flag.Parse()
	if err := run(*ref, *out, *arch, *version, *push); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func run(ref, out, arch, version string, push bool) error {
	tag, err := name.NewTag(ref)
	if err != nil {
		return fmt.Errorf("--image %q: %w", ref, err)
	}
	fmt.Printf("building the manager for linux/%s (version %s)\n", arch, version)
	img, err := image.Build(context.Background(), image.Spec{
		Package: "./cmd", Dir: ".", Binary: "manager", Version: version, Arch: arch,
		Source: "https://github.com/toolgate/toolgate",
	})
	if err != nil {
		return err
	}
	digest, err := img.Digest()
	if err != nil {
		return err
	}
	dir := filepath.Join(out, "manager")
	if err := image.WriteLayout(dir, tag.String(), img); err != nil {
		return err
	}
	if err := tarball.WriteToFile(dir+".tar", tag, img); err != nil {
		return err
	}
	fmt.Printf("%s@%s\n  OCI layout: %s\n  tarball:    %s.tar\n", tag, digest, dir, dir)
	if push {
		if err := remote.Write(tag, img, remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
			return fmt.Errorf("pushing %s: %w", tag, err)
		}
		fmt.Printf("pushed %s@%s\n", tag, digest)
	}
	return nil
}
