package image

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ArchiveName is the release archive of binary for goos/arch at version, as the krew manifest
// (plugins/toolgate.yaml) names it: kubectl-toolgate_v0.1.0_linux_amd64.tar.gz.
func ArchiveName(binary, version, goos, arch string) string {
	return fmt.Sprintf("%s_%s_%s_%s.tar.gz", binary, version, goos, arch)
}

// License is the file at the module's root every release archive carries beside the binary (krew
// installs it with the plugin: its manifest extracts both).
const License = "LICENSE"

// Archive builds s's binary for goos/s.Arch as the images' binaries are built (static, stamped
// with s.Version) and writes it and the module's License (from s.Dir), at the archive's root, to
// dir/ArchiveName. It returns the archive's path and sha256, which a krew manifest pins.
func Archive(ctx context.Context, s Spec, goos, dir string) (path, sum string, err error) {
	license, err := os.ReadFile(filepath.Join(s.Dir, License))
	if err != nil {
		return "", "", fmt.Errorf("the release archive's license: %w", err)
	}
	bin, err := compile(ctx, s, goos)
	if err != nil {
		return "", "", err
	}
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return "", "", err
	}
	tw := tar.NewWriter(gz)
	epoch := time.Unix(0, 0)
	for _, f := range []struct {
		name string
		mode int64
		data []byte
	}{{s.Binary, 0o755, bin}, {License, 0o644, license}} {
		hdr := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: epoch, Typeflag: tar.TypeReg,
			Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return "", "", err
		}
		if _, err := tw.Write(f.data); err != nil {
			return "", "", err
		}
	}
	if err := tw.Close(); err != nil {
		return "", "", err
	}
	if err := gz.Close(); err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	path = filepath.Join(dir, ArchiveName(s.Binary, s.Version, goos, s.Arch))
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil { //nolint:gosec // a release archive, for anyone
		return "", "", err
	}
	digest := sha256.Sum256(buf.Bytes())
	return path, hex.EncodeToString(digest[:]), nil
}
