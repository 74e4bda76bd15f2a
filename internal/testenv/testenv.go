// Package testenv starts toolgate's test control plane: the pinned kube-apiserver and etcd that
// hack/build-control-plane.sh builds from the Go module proxy, with toolgate's CRDs installed.
// Every envtest suite uses it, so `go test ./internal/...` works from an editor with no manual step.
package testenv

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

const modulePath = "github.com/toolgate/toolgate"

var (
	rootOnce sync.Once
	root     string
	rootErr  error
)

// RepoRoot returns the directory holding toolgate's go.mod, found by walking up from the
// working directory (go test runs each package in its own directory).
func RepoRoot() (string, error) {
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			rootErr = err
			return
		}
		for {
			data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
			if err == nil && strings.HasPrefix(string(data), "module "+modulePath+"\n") {
				root = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				rootErr = errors.New("go.mod of " + modulePath + " not found above the working directory")
				return
			}
			dir = parent
		}
	})
	return root, rootErr
}

// AssetsDir returns a directory with kube-apiserver, etcd and kubectl. KUBEBUILDER_ASSETS wins when
// it holds a kube-apiserver; otherwise the pinned cache is used, built first if it is missing.
func AssetsDir() (string, error) {
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "kube-apiserver")); err == nil {
			return dir, nil
		}
	}
	repo, err := RepoRoot()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(filepath.Join(repo, "hack", "build-control-plane.sh"), "--print-dir")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("building the test control plane with hack/build-control-plane.sh: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Path joins elements onto the repository root.
func Path(elem ...string) (string, error) {
	repo, err := RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{repo}, elem...)...), nil
}

// New returns an envtest Environment for the pinned control plane with toolgate's CRDs.
func New() (*envtest.Environment, error) {
	assets, err := AssetsDir()
	if err != nil {
		return nil, err
	}
	crds, err := Path("config", "crd", "bases")
	if err != nil {
		return nil, err
	}
	return &envtest.Environment{
		CRDDirectoryPaths:     []string{crds},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
	}, nil
}
