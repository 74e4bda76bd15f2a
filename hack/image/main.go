// Command image builds toolgate's images without a container engine (`make image`): the manager,
// toolgate-gateway and toolgate-hook (for agents' images to copy the hook from), each an OCI image
// layout in bin/image/<binary> and a tarball bin/image/<binary>.tar for `docker load` or `crane
// push`, and, with --push, pushes them to a registry with the credentials docker and crane use.
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
	ref := flag.String("image", "controller:latest", "The manager's image reference to tag (and push with --push).")
	gatewayRef := flag.String("gateway-image", "gateway:latest", "toolgate-gateway's image reference to tag (and push).")
	hookRef := flag.String("hook-image", "toolgate-hook:latest",
		"toolgate-hook's image reference (agents' images copy /toolgate-hook from it; docs/hook.md).")
	out := flag.String("out", "bin/image", "Directory for the OCI layouts and the tarballs.")
	arch := flag.String("arch", runtime.GOARCH, "Target architecture (linux/<arch>).")
	version := flag.String("version", "dev", "Version stamped into the binaries and the images' labels.")
	revision := flag.String("revision", "", "The commit built, for the org.opencontainers.image.revision label.")
	push := flag.Bool("push", false, "Push to the registries named by --image and --gateway-image.")
	flag.Parse()
	for _, img := range []struct{ ref, pkg, binary string }{
		{*ref, "./cmd", "manager"},
		{*gatewayRef, "./cmd/toolgate-gateway", "toolgate-gateway"},
		{*hookRef, "./cmd/toolgate-hook", "toolgate-hook"},
	} {
		spec := image.Spec{Package: img.pkg, Dir: ".", Binary: img.binary, Version: *version, Arch: *arch,
			Source: "https://github.com/toolgate/toolgate", Revision: *revision}
		if err := run(img.ref, spec, *out, *push); err != nil {
			fmt.Fprintln(os.Stderr, "image:", err)
			os.Exit(1)
		}
	}
}

func run(ref string, spec image.Spec, out string, push bool) error {
	tag, err := name.NewTag(ref)
	if err != nil {
		return fmt.Errorf("image reference %q: %w", ref, err)
	}
	binary := spec.Binary
	fmt.Printf("building %s for linux/%s (version %s)\n", binary, spec.Arch, spec.Version)
	img, err := image.Build(context.Background(), spec)
	if err != nil {
		return err
	}
	digest, err := img.Digest()
	if err != nil {
		return err
	}
	dir := filepath.Join(out, binary)
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
