// Command image builds toolgate's images without a container engine (`make image`): the manager,
// toolgate-gateway and toolgate-hook (for agents' images to copy the hook from), each an OCI image
// index of every --platforms (linux/amd64 and linux/arm64, cross-compiled) in an OCI image layout
// bin/image/<binary>, and its image for this machine's architecture as a tarball
// bin/image/<binary>.tar for `docker load` (which reads single images only); with --push, it
// pushes the indexes to a registry with the credentials docker and crane use. --arch builds one
// architecture's image alone instead, as before.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
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
	platforms := flag.String("platforms", strings.Join(image.DefaultPlatforms, ","),
		"Comma-separated platforms (linux/<arch>) built into each image's index.")
	arch := flag.String("arch", "",
		"Build linux/<arch> alone, a single image rather than an index of --platforms (e.g. "+runtime.GOARCH+").")
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
			Source: image.Source, Revision: *revision}
		var err error
		if *arch != "" {
			err = runOne(img.ref, spec, *out, *push)
		} else {
			err = runIndex(img.ref, spec, strings.Split(*platforms, ","), *out, *push)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "image:", err)
			os.Exit(1)
		}
	}
}

// runOne builds spec's image for linux/spec.Arch alone.
func runOne(ref string, spec image.Spec, out string, push bool) error {
	tag, err := name.NewTag(ref)
	if err != nil {
		return fmt.Errorf("image reference %q: %w", ref, err)
	}
	fmt.Printf("building %s for linux/%s (version %s)\n", spec.Binary, spec.Arch, spec.Version)
	img, err := image.Build(context.Background(), spec)
	if err != nil {
		return err
	}
	digest, err := img.Digest()
	if err != nil {
		return err
	}
	dir := filepath.Join(out, spec.Binary)
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

// runIndex builds spec's image for each of platforms into one index.
func runIndex(ref string, spec image.Spec, platforms []string, out string, push bool) error {
	tag, err := name.NewTag(ref)
	if err != nil {
		return fmt.Errorf("image reference %q: %w", ref, err)
	}
	fmt.Printf("building %s for %s (version %s)\n", spec.Binary, strings.Join(platforms, ", "), spec.Version)
	idx, err := image.BuildIndex(context.Background(), spec, platforms)
	if err != nil {
		return err
	}
	digest, err := idx.Digest()
	if err != nil {
		return err
	}
	manifest, err := idx.IndexManifest()
	if err != nil {
		return err
	}
	dir := filepath.Join(out, spec.Binary)
	if err := image.WriteIndexLayout(dir, tag.String(), idx); err != nil {
		return err
	}
	// docker load reads one image: this machine's architecture's, else the first platform's.
	local := manifest.Manifests[0]
	if i := slices.IndexFunc(manifest.Manifests, func(d v1.Descriptor) bool {
		return d.Platform.Architecture == runtime.GOARCH
	}); i >= 0 {
		local = manifest.Manifests[i]
	}
	img, err := idx.Image(local.Digest)
	if err != nil {
		return err
	}
	if err := tarball.WriteToFile(dir+".tar", tag, img); err != nil {
		return err
	}
	fmt.Printf("%s@%s\n", tag, digest)
	for _, d := range manifest.Manifests {
		fmt.Printf("  %s/%s: %s\n", d.Platform.OS, d.Platform.Architecture, d.Digest)
	}
	fmt.Printf("  OCI layout: %s (the index)\n  tarball:    %s.tar (linux/%s)\n", dir, dir, local.Platform.Architecture)
	if push {
		if err := remote.WriteIndex(tag, idx, remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
			return fmt.Errorf("pushing %s: %w", tag, err)
		}
		fmt.Printf("pushed %s@%s\n", tag, digest)
	}
	return nil
}
